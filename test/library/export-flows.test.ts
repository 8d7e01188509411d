// Both static export flows through the library, as a script uses them, against the sandbox (which
// serves both: src/sandbox/export.ts): the CLI's auto choice, the fallback on a 404 remembered in the
// flow memory, the wait and downloadBundle on the project flow, and the download's progress events;
// exportStaticSite, all three in one call (the project flow's link taken from the completed job, and
// asked again when it has expired; the target refused before anything is sent); and
// AdminClient.waitForExport, which follows the jobs flow alone, saying so for a project-flow job.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AdminClient,
  downloadBundle,
  ExportJobNotFoundError,
  exportStaticSite,
  FlowNeedsDomainError,
  FlowNeedsProjectError,
  memoryFlowStore,
  startStaticExport,
  TargetRefusedError,
  waitForStaticExport,
  type AnyExportJob,
  type DownloadProgressEvent,
  type ExportFlow,
  type FlowReason,
} from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { FakeClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/cli.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.faults.reset();
  sandbox.requests.length = 0;
});

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function client(): AdminClient {
  const made = new AdminClient({ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl, clock: new FakeClock() });
  cleanups.push(() => made.close());
  return made;
}

function target(): string {
  const dir = tempDir();
  cleanups.push(() => dir.cleanup());
  return join(dir.path, 'site');
}

/** The API requests since the test began, as `METHOD /path` with the ids replaced by `{id}`. */
function routes(): string[] {
  return sandbox.requests
    .filter((r) => r.origin === 'api')
    .map(
      (r) =>
        `${r.method} ${r.path.replace(sandbox.projectId, '{projectId}').replace(/\/(se_[0-9a-f]+|[0-9a-f]{24})(?=\/|$)/, '/{id}')}`,
    );
}

describe('startStaticExport chooses the flow as the CLI does', () => {
  it.each<[string, { domain?: string }, ExportFlow, FlowReason, string]>([
    [
      'a domain: the jobs flow',
      { domain: 'docs.example.com' },
      'jobs',
      { by: 'domain', domain: true },
      'POST /v1/static-export/jobs',
    ],
    [
      'no domain: the project flow',
      {},
      'project',
      { by: 'domain', domain: false },
      'POST /v1/static-export/{projectId}/jobs',
    ],
  ])('%s', async (_name, input, flow, reason, route) => {
    const told: Array<[ExportFlow, FlowReason]> = [];
    const started = await startStaticExport(client(), input, {
      projectId: sandbox.projectId,
      onFlow: (f, r) => told.push([f, r]),
    });
    expect(started.flow).toBe(flow);
    expect(started.job.status).toBe('queued');
    expect(told).toEqual([[flow, reason]]);
    expect(routes()).toEqual([route]);
  });

  it('a 404 on the jobs start route: the project flow once, remembered in the store, so the next start goes straight there', async () => {
    sandbox.faults.exportFlows = new Set(['project']);
    const store = memoryFlowStore();
    const api = client();
    const told: FlowReason[] = [];
    const options = { projectId: sandbox.projectId, store, onFlow: (_f: ExportFlow, r: FlowReason) => told.push(r) };
    const first = await startStaticExport(api, { domain: 'docs.example.com' }, options);
    expect(first.flow).toBe('project');
    expect(await store.startFlow(sandbox.baseUrl)).toBe('project');
    expect(await store.jobFlow(sandbox.baseUrl, first.job.jobId)).toBe('project');
    // The project flow allows one export at a time: the first one finishes before the second starts.
    await waitForStaticExport(api, first.job.jobId, options);
    sandbox.requests.length = 0;

    const second = await startStaticExport(api, { domain: 'docs.example.com' }, options);
    expect(second.flow).toBe('project');
    expect(told).toEqual([{ by: 'fallback', tried: 'jobs' }, { by: 'job-memory' }, { by: 'memory' }]);
    expect(routes()).toEqual(['POST /v1/static-export/{projectId}/jobs']);
  });

  it('the default memory is per client: a second start on the same client skips the 404', async () => {
    sandbox.faults.exportFlows = new Set(['project']);
    const api = client();
    const first = await startStaticExport(api, { domain: 'docs.example.com' }, { projectId: sandbox.projectId });
    await waitForStaticExport(api, first.job.jobId, { projectId: sandbox.projectId });
    sandbox.requests.length = 0;
    await startStaticExport(api, { domain: 'docs.example.com' }, { projectId: sandbox.projectId });
    expect(routes()).toEqual(['POST /v1/static-export/{projectId}/jobs']);
  });

  it.each([
    ['a forced jobs flow without a domain', {}, { flow: 'jobs' as const, projectId: 'p' }, FlowNeedsDomainError],
    ['no domain and no project id', {}, {}, FlowNeedsProjectError],
  ])('refuses %s before sending anything, in words without CLI flags', async (_name, input, options, errorClass) => {
    const error = await startStaticExport(client(), input, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    expect((error as Error).message).not.toMatch(/--|mint-admin/);
    expect(routes()).toEqual([]);
  });
});

describe('waitForStaticExport', () => {
  it('follows a project-flow job to completed, finding its flow by the id and the project', async () => {
    const api = client();
    const { job } = await startStaticExport(api, {}, { projectId: sandbox.projectId });
    const seen: string[] = [];
    const done = await waitForStaticExport(client(), job.jobId, {
      projectId: sandbox.projectId,
      onProgress: (j) => seen.push(j.status),
    });
    expect(done.status).toBe('completed');
    expect(done.jobId).toBe(job.jobId);
    expect(seen[0]).not.toBe('completed');
    expect(seen.at(-1)).toBe('completed');
    expect(new Set(routes().slice(1))).toEqual(new Set(['GET /v1/static-export/{projectId}/jobs/{id}']));
  });
});

describe('downloadBundle on either flow', () => {
  it('installs a project-flow export, its link from the job itself (no bundle route)', async () => {
    const api = client();
    const { job } = await startStaticExport(api, { basePath: '/docs' }, { projectId: sandbox.projectId });
    await waitForStaticExport(api, job.jobId, { projectId: sandbox.projectId });
    sandbox.requests.length = 0;
    const site = target();
    const result = await downloadBundle({
      client: client(),
      jobId: job.jobId,
      projectId: sandbox.projectId,
      target: site,
    });
    const expected = await sandbox.bundleFiles();
    expect(result.directory).toBe(site);
    expect(result.files).toBe(expected.size);
    expect(readFileSync(join(site, 'index.html'))).toEqual(expected.get('index.html'));
    expect(routes()).toEqual(['GET /v1/static-export/{projectId}/jobs/{id}']);
  });

  it('a project-flow id without the project: a 404 that names the job and no CLI flag', async () => {
    const api = client();
    const { job } = await startStaticExport(api, {}, { projectId: sandbox.projectId });
    const site = target();
    const error = await downloadBundle({ client: client(), jobId: job.jobId, target: site }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportJobNotFoundError);
    expect((error as ExportJobNotFoundError).jobId).toBe(job.jobId);
    expect((error as Error).message).not.toMatch(/--project|mint-admin/);
    expect(readdirSync(join(site, '..'))).toEqual([]);
  });

  it('reports progress as events: phases in order, download bytes rising to the archive size, the files installed', async () => {
    const api = client();
    const { job } = await startStaticExport(api, { domain: 'docs.example.com' });
    await waitForStaticExport(api, job.jobId);
    const events: DownloadProgressEvent[] = [];
    const site = target();
    const result = await downloadBundle({
      client: api,
      jobId: job.jobId,
      target: site,
      onProgress: (e) => events.push(e),
    });

    const phases = events.map((e) => e.phase).filter((phase, i, all) => phase !== all[i - 1]);
    expect(phases).toEqual(['link', 'download', 'extract', 'install', 'done']);
    const downloads = events.filter((e) => e.phase === 'download');
    const bytes = downloads.map((e) => e.bytes);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    expect(bytes.at(-1)).toBe(result.bundle.sizeBytes);
    expect(downloads.every((e) => e.total === result.bundle.sizeBytes)).toBe(true);
    expect(events.find((e) => e.phase === 'extract')).toEqual({
      phase: 'extract',
      bytes: result.bundle.sizeBytes,
      total: result.bundle.sizeBytes,
    });
    expect(events.at(-1)).toEqual({
      phase: 'done',
      bytes: result.bytes,
      total: undefined,
      files: result.files,
      directory: site,
    });
  });
});

const PROJECT_START = 'POST /v1/static-export/{projectId}/jobs';
const PROJECT_GET = 'GET /v1/static-export/{projectId}/jobs/{id}';

describe('exportStaticSite: start, wait and install in one call', () => {
  it('the project flow: installs the site, its link taken from the completed job (no further call)', async () => {
    const site = target();
    const looks: AnyExportJob[] = [];
    const steps: DownloadProgressEvent[] = [];
    const result = await exportStaticSite(
      client(),
      { basePath: '/docs' },
      {
        projectId: sandbox.projectId,
        target: site,
        intervalMs: 1000,
        onJob: (job) => looks.push(job),
        onProgress: (event) => steps.push(event),
      },
    );
    const expected = await sandbox.bundleFiles();
    expect(result.flow).toBe('project');
    expect(result.job.status).toBe('completed');
    expect(result.directory).toBe(site);
    expect(result.files).toBe(expected.size);
    expect(readFileSync(join(site, 'index.html'))).toEqual(expected.get('index.html'));
    expect(looks.at(-1)?.status).toBe('completed');
    // One GET per look, and none after the completed one: its link was used.
    expect(routes()).toEqual([PROJECT_START, ...looks.map(() => PROJECT_GET)]);
    expect(steps.at(-1)).toEqual({
      phase: 'done',
      bytes: result.bytes,
      total: undefined,
      files: result.files,
      directory: site,
    });
  });

  it('the project flow: an expired link in the completed job is replaced by a fresh GET of the job', async () => {
    sandbox.faults.expireNextLinks(1);
    const site = target();
    let looks = 0;
    const result = await exportStaticSite(
      client(),
      {},
      { projectId: sandbox.projectId, target: site, onJob: () => (looks += 1) },
    );
    expect(result.files).toBe((await sandbox.bundleFiles()).size);
    expect(routes()).toEqual([PROJECT_START, ...Array.from({ length: looks + 1 }, () => PROJECT_GET)]);
  });

  it('the jobs flow, given a domain: the link from POST bundle', async () => {
    const site = target();
    const result = await exportStaticSite(client(), { domain: 'https://docs.example.com/' }, { target: site });
    expect(result.flow).toBe('jobs');
    expect(result.files).toBe((await sandbox.bundleFiles()).size);
    expect(routes()[0]).toBe('POST /v1/static-export/jobs');
    expect(routes().at(-1)).toBe('POST /v1/static-export/jobs/{id}/bundle');
  });

  it('a target that is not empty, without force: refused before an export is started', async () => {
    const site = target();
    mkdirSync(site);
    writeFileSync(join(site, 'keep.txt'), 'mine');
    const error = await exportStaticSite(client(), {}, { projectId: sandbox.projectId, target: site }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect((error as TargetRefusedError).reason).toBe('not-empty');
    expect(routes()).toEqual([]);
    expect(readdirSync(site)).toEqual(['keep.txt']);
  });

  it('bad wait settings are refused before anything is sent', async () => {
    const error = await exportStaticSite(
      client(),
      {},
      { projectId: sandbox.projectId, target: target(), intervalMs: 5 },
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe('intervalMs: 5 must be at least 100 (milliseconds)');
    expect(routes()).toEqual([]);
  });
});

describe('AdminClient.waitForExport follows the jobs flow alone', () => {
  it('a project-flow job is not found there, and the error points at waitForStaticExport', async () => {
    const api = client();
    const { job } = await startStaticExport(api, {}, { projectId: sandbox.projectId });
    const error = await api.waitForExport(job.jobId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportJobNotFoundError);
    expect((error as ExportJobNotFoundError).jobId).toBe(job.jobId);
    expect((error as Error).message).toMatch(
      /waitForExport follows jobs-flow exports only: for a project-flow job use waitForStaticExport\(client, jobId, \{ projectId \}\)$/,
    );
  });
});
