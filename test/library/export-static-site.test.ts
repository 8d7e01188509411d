// exportStaticSite: start, wait and install in one call, on either flow, against the sandbox: the
// project flow's link taken from the completed job (and asked again when it has expired), the jobs
// flow's from POST bundle, and the target refused before anything is sent. And AdminClient.waitForExport,
// which follows the jobs flow alone, saying so for a project-flow job.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminClient, ExportJobNotFoundError, exportStaticSite, startStaticExport, TargetRefusedError, type AnyExportJob, type DownloadProgressEvent } from '../../src/index.js';
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
    .map((r) => `${r.method} ${r.path.replace(sandbox.projectId, '{projectId}').replace(/\/(se_[0-9a-f]+|[0-9a-f]{24})(?=\/|$)/, '/{id}')}`);
}

const PROJECT_START = 'POST /v1/static-export/{projectId}/jobs';
const PROJECT_GET = 'GET /v1/static-export/{projectId}/jobs/{id}';

describe('exportStaticSite: start, wait and install in one call', () => {
  it('the project flow: installs the site, its link taken from the completed job (no further call)', async () => {
    const site = target();
    const looks: AnyExportJob[] = [];
    const steps: DownloadProgressEvent[] = [];
    const result = await exportStaticSite(client(), { basePath: '/docs' }, {
      projectId: sandbox.projectId,
      target: site,
      intervalMs: 1000,
      onJob: (job) => looks.push(job),
      onProgress: (event) => steps.push(event),
    });
    const expected = await sandbox.bundleFiles();
    expect(result.flow).toBe('project');
    expect(result.job.status).toBe('completed');
    expect(result.directory).toBe(site);
    expect(result.files).toBe(expected.size);
    expect(readFileSync(join(site, 'index.html'))).toEqual(expected.get('index.html'));
    expect(looks.at(-1)?.status).toBe('completed');
    // One GET per look, and none after the completed one: its link was used.
    expect(routes()).toEqual([PROJECT_START, ...looks.map(() => PROJECT_GET)]);
    expect(steps.at(-1)).toEqual({ phase: 'done', bytes: result.bytes, total: undefined, files: result.files, directory: site });
  });

  it('the project flow: an expired link in the completed job is replaced by a fresh GET of the job', async () => {
    sandbox.faults.expireNextLinks(1);
    const site = target();
    let looks = 0;
    const result = await exportStaticSite(client(), {}, { projectId: sandbox.projectId, target: site, onJob: () => (looks += 1) });
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
    const error = await exportStaticSite(client(), {}, { projectId: sandbox.projectId, target: site }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect((error as TargetRefusedError).reason).toBe('not-empty');
    expect(routes()).toEqual([]);
    expect(readdirSync(site)).toEqual(['keep.txt']);
  });

  it('bad wait settings are refused before anything is sent', async () => {
    const error = await exportStaticSite(client(), {}, { projectId: sandbox.projectId, target: target(), intervalMs: 5 }).catch((e: unknown) => e);
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
    expect((error as Error).message).toMatch(/waitForExport follows jobs-flow exports only: for a project-flow job use waitForStaticExport\(client, jobId, \{ projectId \}\)$/);
  });
});
