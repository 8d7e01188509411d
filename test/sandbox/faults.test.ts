import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { agentPath, call, completedExport } from './helpers.js';

let sandbox: Sandbox;
let jobId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ searchTermCount: 20 });
  jobId = (await call(sandbox, 'POST', agentPath(sandbox), { prompt: 'x' })).body.id;
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.faults.reset());

const getJob = () => call(sandbox, 'GET', agentPath(sandbox, `/${jobId}`));

describe('fault injection', () => {
  it('answers a route with the injected status `times` times, then normally', async () => {
    sandbox.faults.inject({ route: 'agent.get', status: 503, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await getJob()).status);
    expect(statuses).toEqual([503, 503, 200]);
  });

  it('only hits the named route', async () => {
    sandbox.faults.inject({ route: 'searches.list', status: 500 });
    expect((await getJob()).status).toBe(200);
    const res = await call(sandbox, 'GET', `/v1/analytics/${sandbox.projectId}/searches`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Injected fault: 500 Internal Server Error' });
  });

  it.each([
    ['seconds', '1', '1'],
    ['a number', 2, '2'],
    ['an HTTP-date', 'Wed, 21 Oct 2026 07:28:00 GMT', 'Wed, 21 Oct 2026 07:28:00 GMT'],
  ])('sends Retry-After given as %s', async (_name, retryAfter, header) => {
    sandbox.faults.inject({ route: 'searches.list', status: 429, retryAfter });
    const res = await call(sandbox, 'GET', `/v1/analytics/${sandbox.projectId}/searches`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(header);
  });

  it('sends no Retry-After when none is given', async () => {
    sandbox.faults.inject({ route: 'agent.get', status: 429 });
    const res = await getJob();
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeNull();
  });

  it('sends an HTML error page like a proxy with html: true', async () => {
    sandbox.faults.inject({ route: 'export.get', status: 502, html: true });
    const res = await call(sandbox, 'GET', '/v1/static-export/jobs/se_0000000000000000');
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<h1>502 Bad Gateway</h1>');
  });

  it('sends a custom body verbatim', async () => {
    sandbox.faults.inject({ route: 'agent.create', status: 400, body: { error: 'custom' } });
    expect((await call(sandbox, 'POST', agentPath(sandbox), { prompt: 'x' })).body).toEqual({ error: 'custom' });
  });

  it('delays a response with delayMs and then answers normally', async () => {
    sandbox.faults.inject({ route: 'agent.get', delayMs: 250 });
    const started = performance.now();
    const res = await getJob();
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('drops the connection without a response with dropConnection', async () => {
    sandbox.faults.inject({ route: 'agent.get', dropConnection: true });
    await expect(getJob()).rejects.toThrow();
    expect((await getJob()).status).toBe(200);
  });

  it('applies a fault without a route to the next request of any route', async () => {
    sandbox.faults.inject({ status: 504 });
    expect((await call(sandbox, 'GET', `/v1/analytics/${sandbox.projectId}/searches`)).status).toBe(504);
    expect((await getJob()).status).toBe(200);
  });

  it('faults the storage route with an XML error body', async () => {
    const { bundleUrl } = await completedExport(sandbox);
    sandbox.faults.inject({ route: 'storage.get', status: 503 });
    const res = await fetch(bundleUrl);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('<Error>');
    expect((await fetch(bundleUrl)).status).toBe(200);
  });

  it.each(['export.start', 'export.bundle', 'agent.message'] as const)('faults %s', async (route) => {
    sandbox.faults.inject({ route, status: 500 });
    const paths = {
      'export.start': '/v1/static-export/jobs',
      'export.bundle': '/v1/static-export/jobs/se_0000000000000000/bundle',
      'agent.message': agentPath(sandbox, `/${jobId}/message`),
    };
    expect((await call(sandbox, 'POST', paths[route], { prompt: 'x', domain: 'docs.example.com' })).status).toBe(500);
  });

  it('rejects an unknown route name', () => {
    expect(() => sandbox.faults.inject({ route: 'agent.list' as never, status: 500 })).toThrow(/unknown route/);
  });

  it('reset() clears queued faults and knobs', async () => {
    sandbox.faults.inject({ route: 'agent.get', status: 503, times: 5 });
    sandbox.faults.agentPollsToFinish = 9;
    sandbox.faults.exportForbidden = true;
    sandbox.faults.reset();
    expect((await getJob()).status).toBe(200);
    expect(sandbox.faults.agentPollsToFinish).toBe(3);
    expect(sandbox.faults.exportForbidden).toBe(false);
    expect(sandbox.faults.pending()).toEqual([]);
  });
});

describe('POST /_sandbox/faults', () => {
  it('sets knobs and queues injections without auth', async () => {
    const res = await call(
      sandbox,
      'POST',
      '/_sandbox/faults',
      {
        agentPollsToFinish: 1,
        exportForbidden: true,
        expireNextLinks: 2,
        truncateDownloadAt: { bytes: 10, times: 1 },
        inject: [{ route: 'agent.get', status: 503, retryAfter: '1' }],
      },
      {},
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      agentPollsToFinish: 1,
      exportForbidden: true,
      pending: [{ route: 'agent.get', status: 503, times: 1 }],
    });
    expect((await getJob()).status).toBe(503);
    expect((await call(sandbox, 'POST', '/v1/static-export/jobs', { domain: 'docs.example.com' })).status).toBe(403);
  });

  it('resets with reset: true and shows state with GET', async () => {
    sandbox.faults.exportForbidden = true;
    await call(sandbox, 'POST', '/_sandbox/faults', { reset: true }, {});
    expect((await call(sandbox, 'GET', '/_sandbox/faults', undefined, {})).body).toEqual({
      agentPollsToFinish: 3,
      exportPollsToFinish: 4,
      exportForbidden: false,
      exportFlows: ['jobs', 'project'],
      projectStartsPerHour: 10,
      failNextExports: 0,
      throttleBytesPerSecond: null,
      buildPollsToFinish: 4,
      buildsFail: false,
      previewForbidden: false,
      creditsExhausted: false,
      webhookCreditCheckFailures: 0,
      pending: [],
    });
  });

  it.each([
    ['not an object', '[1]'],
    ['a bad route', { inject: { route: 'nope', status: 500 } }],
    ['a negative poll count', { agentPollsToFinish: -1 }],
    ['a status that is not a status code', { inject: { route: 'agent.get', status: '503' } }],
    ['times 0', { inject: { route: 'agent.get', status: 503, times: 0 } }],
    ['bad JSON', '{'],
  ])('rejects %s with 400', async (_name, body) => {
    const res = await call(sandbox, 'POST', '/_sandbox/faults', body, {});
    expect(res.status).toBe(400);
  });
});
