// The sandbox's project-scoped static export flow (static-export-project-openapi.json), served beside
// the jobs flow, each switchable off.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from './helpers.js';

const NOW = Date.UTC(2026, 9, 1, 12, 0, 0);
let sandbox: Sandbox;
let jobs: string;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => NOW });
  jobs = `/v1/static-export/${sandbox.projectId}/jobs`;
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.faults.reset());

const start = (body?: unknown) => call(sandbox, 'POST', jobs, body);
const get = (jobId: string) => call(sandbox, 'GET', `${jobs}/${jobId}`);

async function complete(jobId: string) {
  let res = await get(jobId);
  for (let i = 0; i < 10 && res.body.status !== 'completed' && res.body.status !== 'failed'; i++)
    res = await get(jobId);
  return res;
}

describe('project flow', () => {
  it('queues a job with a 24-hex id and no progress fields', async () => {
    const res = await start();
    expect(res.status).toBe(202);
    const at = new Date(NOW).toISOString();
    expect(res.body).toEqual({
      jobId: expect.stringMatching(/^[0-9a-f]{24}$/),
      status: 'queued',
      createdAt: at,
      updatedAt: at,
      error: null,
    });
  });

  it('a completed job carries a link, a fresh signature on each GET; no bundle route', async () => {
    const { body: job } = await start({ basePath: '/docs' });
    const first = await complete(job.jobId);
    expect(first.body).toMatchObject({
      status: 'completed',
      sizeBytes: expect.any(Number),
      expiresAt: expect.any(String),
    });
    expect(first.body.bundleUrl).toMatch(
      new RegExp(`^${sandbox.storageUrl}/${job.jobId}/sandbox-export-2026-10-01\\.tar\\.gz\\?`),
    );
    sandbox.faults.expireNextLinks(1);
    const expired = await get(job.jobId);
    expect(expired.body.bundleUrl).not.toBe(first.body.bundleUrl);
    expect((await fetch(expired.body.bundleUrl)).status).toBe(403);
    expect((await fetch((await get(job.jobId)).body.bundleUrl)).status).toBe(200);
    expect((await call(sandbox, 'POST', `${jobs}/${job.jobId}/bundle`)).status).toBe(404);
  });

  it('409 while another export of the deployment is queued or running, naming it', async () => {
    const { body: job } = await start();
    const res = await start();
    expect(res.status).toBe(409);
    expect(res.body.error).toContain(job.jobId);
    await complete(job.jobId);
    expect((await start()).status).toBe(202);
  });

  it('429 past the starts allowed per hour, with Retry-After', async () => {
    sandbox.faults.projectStartsPerHour = 2;
    sandbox.faults.exportPollsToFinish = 1;
    for (let i = 0; i < 2; i++) await complete((await start()).body.jobId);
    const res = await start();
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3600');
  });

  it('403 on start and on GET when the plan lacks static export', async () => {
    const { body: job } = await start();
    sandbox.faults.exportForbidden = true;
    expect((await start()).status).toBe(403);
    const res = await get(job.jobId);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(
      'Static export is not enabled for this deployment. Contact sales@mintlify.com to upgrade.',
    );
  });

  it.each([
    ['a basePath not in the enum', { basePath: '/guides' }],
    ['an array body', [1]],
  ])('400 for %s', async (_n, body) => {
    expect((await start(body)).status).toBe(400);
  });

  it('failNextExports ends the next job failed, with an error', async () => {
    sandbox.faults.failNextExports = 1;
    const res = await complete((await start()).body.jobId);
    expect(res.body).toMatchObject({
      status: 'failed',
      error: 'Rendering the deployment failed: the deployment could not be reached',
    });
    expect(res.body.bundleUrl).toBeUndefined();
  });

  it('the two flows keep their jobs apart', async () => {
    const { body: job } = await start();
    expect((await call(sandbox, 'GET', `/v1/static-export/jobs/${job.jobId}`)).status).toBe(404);
  });
});

describe('each flow switchable off', () => {
  it.each([
    ['project', () => start(), () => call(sandbox, 'POST', '/v1/static-export/jobs', { domain: 'docs.example.com' })],
    ['jobs', () => call(sandbox, 'POST', '/v1/static-export/jobs', { domain: 'docs.example.com' }), () => start()],
  ])('%s off: its start route is a 404, the other still answers', async (flow, off, on) => {
    sandbox.faults.exportFlows.delete(flow as 'jobs' | 'project');
    expect((await off()).status).toBe(404);
    expect((await on()).status).toBe(202);
  });

  it('by POST /_sandbox/faults, and reset() restores the flows the sandbox started with', async () => {
    const res = await call(sandbox, 'POST', '/_sandbox/faults', { exportFlows: ['jobs'] }, {});
    expect(res.body.exportFlows).toEqual(['jobs']);
    expect((await start()).status).toBe(404);
    expect((await call(sandbox, 'POST', '/_sandbox/faults', { exportFlows: ['nope'] }, {})).status).toBe(400);
    sandbox.faults.reset();
    expect([...sandbox.faults.exportFlows]).toEqual(['jobs', 'project']);
  });

  it('startSandbox({ flows }) serves only those, and reset() keeps it so', async () => {
    const only = await startSandbox({ flows: ['project'] });
    try {
      only.faults.reset();
      expect((await call(only, 'POST', '/v1/static-export/jobs', { domain: 'docs.example.com' })).status).toBe(404);
      expect((await call(only, 'POST', `/v1/static-export/${only.projectId}/jobs`)).status).toBe(202);
    } finally {
      await only.close();
    }
  });
});
