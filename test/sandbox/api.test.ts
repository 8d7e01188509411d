import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { agentPath, call } from './helpers.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ searchTermCount: 20 });
});
afterAll(() => sandbox.close());

describe('sandbox API origin', () => {
  it('has the documented defaults', () => {
    expect(sandbox.apiKey).toBe('mint_sandbox_0123456789abcdef');
    expect(sandbox.apiKey).toBe(DEFAULT_API_KEY);
    expect(sandbox.projectId).toBe('proj_sandbox');
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.storageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.storageUrl).not.toBe(sandbox.baseUrl);
  });

  const routes: Array<[string, string]> = [
    ['POST', '/v2/agent/proj_sandbox/job'],
    ['GET', '/v2/agent/proj_sandbox/job/abc'],
    ['POST', '/v2/agent/proj_sandbox/job/abc/message'],
    ['POST', '/v1/static-export/jobs'],
    ['GET', '/v1/static-export/jobs/se_1'],
    ['POST', '/v1/static-export/jobs/se_1/bundle'],
    ['GET', '/v1/analytics/proj_sandbox/searches'],
    ['POST', '/v1/project/update/proj_sandbox'],
    ['GET', '/v1/project/update-status/abc'],
    ['POST', '/v1/project/preview/proj_sandbox'],
    ['POST', '/v1/workflow/proj_sandbox/wf_scheduled/trigger'],
    ['POST', '/v2/workflow/proj_sandbox/wf_webhook/webhook'],
  ];
  it.each(routes)(
    'answers %s %s with 401 without a key, with a wrong key and with a non-Bearer scheme',
    async (method, path) => {
      for (const headers of [
        {},
        { authorization: 'Bearer mint_wrong' },
        { authorization: `Basic ${sandbox.apiKey}` },
      ] as Record<string, string>[]) {
        const res = await call(sandbox, method, path, method === 'POST' ? { prompt: 'x' } : undefined, headers);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: expect.any(String) });
      }
    },
  );

  it('answers an unknown route with a 404 JSON error', async () => {
    const res = await call(sandbox, 'GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: expect.any(String) });
  });

  it('answers a wrong method on a known path with 405 and Allow', async () => {
    const res = await call(sandbox, 'DELETE', '/v1/static-export/jobs');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers a body that is not JSON with 400', async () => {
    const res = await call(sandbox, 'POST', agentPath(sandbox), '{"prompt":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.stringContaining('JSON') });
  });

  it('records every request in order with method, path, headers and parsed body', async () => {
    const before = sandbox.requests.length;
    await call(sandbox, 'POST', agentPath(sandbox), { prompt: 'recorded' });
    await call(sandbox, 'GET', '/v1/analytics/proj_sandbox/searches?limit=2');
    await call(sandbox, 'POST', agentPath(sandbox), 'not json');
    expect(sandbox.requests.slice(before)).toEqual([
      expect.objectContaining({
        origin: 'api',
        method: 'POST',
        path: '/v2/agent/proj_sandbox/job',
        body: { prompt: 'recorded' },
        headers: expect.objectContaining({ authorization: `Bearer ${sandbox.apiKey}` }),
      }),
      expect.objectContaining({ origin: 'api', method: 'GET', path: '/v1/analytics/proj_sandbox/searches?limit=2' }),
      expect.objectContaining({ method: 'POST', body: 'not json' }),
    ]);
    expect(sandbox.requests[before + 1]?.body).toBeUndefined();
  });

  it('honours a custom key and project id', async () => {
    const custom = await startSandbox({ apiKey: 'mint_custom', projectId: 'proj_x', searchTermCount: 1 });
    try {
      expect((await call(custom, 'POST', '/v2/agent/proj_x/job', { prompt: 'x' })).status).toBe(201);
      expect((await call(custom, 'POST', '/v2/agent/proj_sandbox/job', { prompt: 'x' })).status).toBe(404);
      expect(
        (
          await call(
            custom,
            'POST',
            '/v2/agent/proj_x/job',
            { prompt: 'x' },
            { authorization: `Bearer ${DEFAULT_API_KEY}` },
          )
        ).status,
      ).toBe(401);
    } finally {
      await custom.close();
    }
  });

  it('close() does not wait out a slow request in flight', async () => {
    const slow = await startSandbox({ searchTermCount: 1 });
    // Longer than any test may take: a close() that waited for it would hang past vitest's ceiling.
    slow.faults.inject({ route: 'agent.get', delayMs: 600_000 });
    const pending = call(slow, 'GET', agentPath(slow, '/x')).catch((error: unknown) => error);
    while (slow.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await slow.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});
