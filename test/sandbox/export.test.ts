import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from './helpers.js';

const JOBS = '/v1/static-export/jobs';
const NOW = Date.UTC(2026, 9, 1, 12, 0, 0);
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => NOW });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.faults.reset());

const start = (body: unknown) => call(sandbox, 'POST', JOBS, body);
const status = (jobId: string) => call(sandbox, 'GET', `${JOBS}/${jobId}`);
const bundle = (jobId: string) => call(sandbox, 'POST', `${JOBS}/${jobId}/bundle`);

describe('static export', () => {
  it('queues a job with every required StaticExportJob field', async () => {
    const res = await start({ domain: 'docs.example.com', version: '2024-06-01', paths: ['index'] });
    expect(res.status).toBe(202);
    const at = new Date(NOW).toISOString();
    expect(res.body).toEqual({
      jobId: expect.stringMatching(/^se_[0-9a-f]{16}$/),
      status: 'queued',
      progress: 0,
      pageCount: 0,
      createdAt: at,
      updatedAt: at,
    });
  });

  it('runs with rising progress, completes with the page count of the bundle, then bundles', async () => {
    const { body: job } = await start({ domain: 'acme.mintlify.app' });
    const pages = [...(await sandbox.bundleFiles()).keys()].filter((path) => path.endsWith('.html')).length;
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await status(job.jobId)).body);
    expect(seen.map((j) => [j.status, j.progress])).toEqual([
      ['running', 25],
      ['running', 50],
      ['running', 75],
      ['completed', 100],
    ]);
    expect(seen.map((j) => j.pageCount)).toEqual([...seen.map((j) => j.pageCount)].sort((a, b) => a - b));
    expect(seen[3].pageCount).toBe(pages);
    expect(seen[3].error).toBeUndefined();

    const res = await bundle(job.jobId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      jobId: job.jobId,
      bundleUrl: expect.stringMatching(
        new RegExp(
          `^${sandbox.storageUrl}/${job.jobId}/bundle\\.tar\\.gz\\?.*X-Amz-Expires=900.*X-Amz-Signature=[0-9a-f]{64}`,
        ),
      ),
      sizeBytes: expect.any(Number),
      expiresAt: new Date(NOW + 15 * 60 * 1000).toISOString(),
    });
    expect(res.body.sizeBytes).toBeGreaterThan(1000);
  });

  it('honours exportPollsToFinish', async () => {
    sandbox.faults.exportPollsToFinish = 1;
    const { body: job } = await start({ domain: 'docs.example.com' });
    expect((await status(job.jobId)).body.status).toBe('completed');
  });

  it('answers bundle with 409 before the job completes', async () => {
    const { body: job } = await start({ domain: 'docs.example.com' });
    expect((await bundle(job.jobId)).status).toBe(409);
    await status(job.jobId);
    const res = await bundle(job.jobId);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.stringContaining('running') });
  });

  it('fails a fail.* domain with an error message, and refuses its bundle', async () => {
    sandbox.faults.exportPollsToFinish = 2;
    const { body: job } = await start({ domain: 'fail.example.com' });
    expect((await status(job.jobId)).body.status).toBe('running');
    const failed = (await status(job.jobId)).body;
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('fail.example.com') });
    expect((await bundle(job.jobId)).status).toBe(409);
  });

  it.each([
    ['a noplan.* domain', () => ({ domain: 'noplan.example.com' })],
    [
      'exportForbidden',
      () => {
        sandbox.faults.exportForbidden = true;
        return { domain: 'docs.example.com' };
      },
    ],
  ])('answers 403 with the plan message for %s', async (_name, body) => {
    const res = await start(body());
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: expect.stringMatching(/^Static export is not enabled for this organization/) });
  });

  it.each([
    ['a scheme', { domain: 'https://docs.example.com' }],
    ['a trailing slash', { domain: 'docs.example.com/' }],
    ['a path prefix', { domain: 'docs.example.com/docs' }],
    ['a port', { domain: 'docs.example.com:443' }],
    ['spaces', { domain: 'docs example.com' }],
    ['no domain', {}],
    ['a non-string domain', { domain: 7 }],
    ['paths that are not an array', { domain: 'docs.example.com', paths: 'index' }],
    ['paths with a non-string', { domain: 'docs.example.com', paths: ['index', 3] }],
    ['a non-string version', { domain: 'docs.example.com', version: 2 }],
  ])('rejects a body with %s with 400', async (_name, body) => {
    const res = await start(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String) });
  });

  it.each([
    ['GET', ''],
    ['POST', '/bundle'],
  ])('answers %s of an unknown job with 404', async (method, suffix) => {
    const res = await call(sandbox, method, `${JOBS}/se_0000000000000000${suffix}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
  });

  it('issues a fresh link on every bundle call', async () => {
    sandbox.faults.exportPollsToFinish = 1;
    const { body: job } = await start({ domain: 'docs.example.com' });
    await status(job.jobId);
    sandbox.faults.expireNextLinks(1);
    const expired = (await bundle(job.jobId)).body;
    const fresh = (await bundle(job.jobId)).body;
    expect(Date.parse(expired.expiresAt)).toBeLessThanOrEqual(NOW);
    expect(Date.parse(fresh.expiresAt)).toBe(NOW + 15 * 60 * 1000);
    expect(fresh.bundleUrl).not.toBe(expired.bundleUrl);
  });
});
