import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { ApiClient, type ClientConfig } from '../../src/api/client.js';
import { createDispatcher } from '../../src/api/http.js';
import { ApiError, NetworkError, RateLimitError } from '../../src/errors.js';
import { FakeClock } from '../helpers/clock.js';
import { dropConnection, json, sequence, startServer, type Handler } from '../helpers/server.js';

const KEY = 'mint_testkey0123456789';
const job = {
  id: 'job_1',
  status: 'active',
  source: { repository: 'r', ref: null },
  model: 'sonnet',
  prLink: null,
  createdAt: '2026-11-22T12:00:00Z',
  archivedAt: null,
};
let servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function setup(routes: Record<string, Handler>, extra: Partial<ClientConfig> = {}) {
  const server = await startServer(routes);
  servers.push(server);
  const clock = new FakeClock();
  const debugLines: string[] = [];
  const client = new ApiClient({
    baseUrl: server.url,
    apiKey: KEY,
    userAgent: 'mint-admin/test',
    dispatcher: createDispatcher({}),
    clock,
    random: () => 0.5,
    debug: (l) => debugLines.push(l),
    ...extra,
  });
  return { server, clock, client, debugLines };
}

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

describe('requests', () => {
  it('sends the bearer key, a JSON body with its content type, and a User-Agent', async () => {
    const { server, client } = await setup({ 'POST /v2/agent/proj/job': json(201, job) });
    expect(await client.createAgentJob('proj', 'Fix typos')).toEqual(job);
    const [req] = server.requests;
    expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['user-agent']).toBe('mint-admin/test');
    expect(JSON.parse(req!.body)).toEqual({ prompt: 'Fix typos' });
  });

  it('encodes path segments and query parameters', async () => {
    const page = { searches: [], totalSearches: 0, nextCursor: null };
    const { server, client } = await setup({ 'GET /v1/analytics/p/searches': json(200, page) });
    await client.listSearches('p', { dateFrom: '2026-01-01', limit: 100, cursor: 'a+b/c=' });
    expect(server.requests[0]!.url).toBe('/v1/analytics/p/searches?dateFrom=2026-01-01&limit=100&cursor=a%2Bb%2Fc%3D');
  });

  it('keeps the base URL path prefix', async () => {
    const exportJob = {
      jobId: 'se_1',
      status: 'queued',
      progress: 0,
      pageCount: 0,
      createdAt: '2026-11-22T12:00:00Z',
      updatedAt: '2026-11-22T12:00:00Z',
    };
    const { server, client } = await setup({ 'GET /prefix/v1/static-export/jobs/se_1': json(200, exportJob) });
    const prefixed = new ApiClient({
      ...(client as unknown as { transport: { config: ClientConfig } }).transport.config,
      baseUrl: `${server.url}/prefix/`,
    });
    expect(await prefixed.getExport('se_1')).toEqual(exportJob);
  });
});

describe('errors', () => {
  it.each([
    [
      '400 with details',
      400,
      { error: 'Invalid query', details: [{ message: 'limit must be <= 100' }] },
      'rejected',
      'the API rejected the request (400: Invalid query; limit must be <= 100)',
    ],
    ['401', 401, { error: 'Invalid API key' }, 'unauthorized', 'the API refused the admin key (401: Invalid API key)'],
    [
      '403',
      403,
      { error: 'Forbidden' },
      'forbidden',
      'permission denied (403: Forbidden); the key may not have access to this project or feature',
    ],
    ['404', 404, { error: 'Job not found' }, 'not_found', 'not found (404: Job not found)'],
  ])(
    '%s becomes an ApiError with its status, its code and the server message',
    async (_n, status, body, code, message) => {
      const { client } = await setup({ 'GET /v2/agent/p/job/j': json(status, body) });
      const error = await caught(client.getAgentJob('p', 'j'));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status, code, method: 'GET', route: '/v2/agent/{projectId}/job/{jobId}' });
      expect(error.message).toBe(message);
    },
  );

  it('explains an HTML page from a proxy instead of failing to parse it', async () => {
    const html: Handler = (_req, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad Gateway</body></html>');
    const { client } = await setup({ 'POST /v1/static-export/jobs': html });
    const error = await caught(client.startExport({ domain: 'docs.example.com' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('the API answered 502 with text/html instead of JSON (a proxy or gateway page?)');
    expect((error as ApiError).code).toBe('not_json');
  });

  it('treats a 200 with a non-JSON body as an error, not as data', async () => {
    const html: Handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
    const { client } = await setup({ 'GET /v2/agent/p/job/j': html });
    expect((await caught(client.getAgentJob('p', 'j'))).message).toBe(
      'unexpected answer from the API to GET /v2/agent/{projectId}/job/{jobId}: the body is text/html, not JSON',
    );
  });

  it('never repeats the key in an error, even when the server echoes it', async () => {
    const { client } = await setup({ 'GET /v2/agent/p/job/j': json(400, { error: `bad token ${KEY}` }) });
    const error = await caught(client.getAgentJob('p', 'j'));
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain('mint_****6789');
  });
});

describe('retries', () => {
  it('retries a GET on 5xx with growing backoff, then succeeds', async () => {
    const { server, client, clock } = await setup({
      'GET /v2/agent/p/job/j': sequence(json(503, { error: 'busy' }), json(502, { error: 'gw' }), json(200, job)),
    });
    expect(await client.getAgentJob('p', 'j')).toEqual(job);
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([375, 750]);
  });

  it('gives up a GET after the allowed attempts with the last error', async () => {
    const { server, client } = await setup({ 'GET /v2/agent/p/job/j': json(500, { error: 'down' }) });
    const error = await caught(client.getAgentJob('p', 'j'));
    expect((error as ApiError).status).toBe(500);
    expect(error.message).toMatch(/try again later/);
    expect(server.requests).toHaveLength(4);
  });

  it('retries a GET whose connection dropped', async () => {
    const { server, client } = await setup({ 'GET /v2/agent/p/job/j': sequence(dropConnection, json(200, job)) });
    expect(await client.getAgentJob('p', 'j')).toEqual(job);
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    ['a 500', json(500, { error: 'boom' }), ApiError],
    ['a 503', json(503, { error: 'busy' }), ApiError],
    ['a connection reset after the request was sent', dropConnection, NetworkError],
  ])('never resends a POST after %s: exactly one request', async (_n, handler, type) => {
    const { server, client, clock } = await setup({ 'POST /v2/agent/p/job': handler });
    const error = await caught(client.createAgentJob('p', 'do it'));
    expect(error).toBeInstanceOf(type);
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('resends a POST whose connection was refused, since it never reached the server', async () => {
    // Find a port nobody listens on.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const clock = new FakeClock();
    const client = new ApiClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: KEY,
      userAgent: 't',
      dispatcher: createDispatcher({}),
      clock,
      random: () => 0.5,
    });
    const error = await caught(client.createAgentJob('p', 'x'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/connection refused/);
    expect(clock.sleeps).toHaveLength(3);
  });

  it('honours Retry-After in seconds on a 429, for a POST too', async () => {
    const { server, client, clock } = await setup({
      'POST /v2/agent/p/job': sequence(
        json(429, { error: 'Rate limit exceeded' }, { 'retry-after': '7' }),
        json(201, job),
      ),
    });
    expect(await client.createAgentJob('p', 'x')).toEqual(job);
    expect(clock.sleeps).toEqual([7000]);
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const clock = new FakeClock();
    const at = new Date(clock.now() + 12_000).toUTCString();
    const { client } = await setup(
      { 'GET /v2/agent/p/job/j': sequence(json(429, { error: 'slow' }, { 'retry-after': at }), json(200, job)) },
      { clock },
    );
    await client.getAgentJob('p', 'j');
    expect(clock.sleeps).toEqual([12_000]);
  });

  it('fails at once with exit 6 and the time to retry when Retry-After is past the cap', async () => {
    const { server, client, clock } = await setup({
      'POST /v2/agent/p/job': json(429, { error: 'Rate limit exceeded' }, { 'retry-after': '1800' }),
    });
    const error = await caught(client.createAgentJob('p', 'x'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).code).toBe('rate_limited');
    expect((error as RateLimitError).retryAt).toBe(clock.now() + 1_800_000);
    expect(error.message).toBe(
      'rate limited by the API (Rate limit exceeded); the agent API allows 100 requests per project per hour; try again in 30m00s (after 2026-11-22T12:30:00.000Z)',
    );
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('backs off on a 429 without Retry-After, then fails with exit 6', async () => {
    const { server, client, clock } = await setup({
      'GET /v1/analytics/p/searches': json(429, { error: 'slow down' }),
    });
    const error = await caught(client.listSearches('p', {}));
    expect((error as RateLimitError).code).toBe('rate_limited');
    expect((error as RateLimitError).retryAt).toBeUndefined();
    expect(error.message).toMatch(/wait a while before trying again/);
    expect(server.requests).toHaveLength(4);
    expect(clock.sleeps).toEqual([375, 750, 1500]);
  });
});

describe('--debug and secrets', () => {
  it('logs method, URL, status and timing but never the key', async () => {
    const { client, debugLines } = await setup({ 'GET /v2/agent/p/job/j': sequence(json(503, {}), json(200, job)) });
    await client.getAgentJob('p', 'j');
    expect(debugLines[0]).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/v2\/agent\/p\/job\/j$/);
    expect(debugLines[1]).toMatch(/^< 503 GET .* \(\d+ ms\)$/);
    expect(debugLines.some((l) => l.startsWith('retry 1 in'))).toBe(true);
    expect(debugLines.join('\n')).not.toContain(KEY);
  });
});

describe('proxies', () => {
  it('tunnels through HTTP_PROXY, and goes around it for NO_PROXY hosts', async () => {
    const { server } = await setup({ 'GET /v2/agent/p/job/j': json(200, job) });
    // A CONNECT proxy that forwards every tunnel to the loopback API, so no DNS or network is needed.
    const tunnels: string[] = [];
    const proxy = createServer();
    proxy.on('connect', (req, client: import('node:net').Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      const upstream = connect(server.port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    servers.push({
      close: () =>
        new Promise<void>((r) => {
          proxy.closeAllConnections();
          proxy.close(() => r());
        }),
    });
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const clock = new FakeClock();

    const viaProxy = new ApiClient({
      baseUrl: 'http://api.mintlify.test',
      apiKey: KEY,
      userAgent: 't',
      clock,
      dispatcher: createDispatcher({ HTTP_PROXY: proxyUrl }),
    });
    expect(await viaProxy.getAgentJob('p', 'j')).toEqual(job);
    expect(tunnels).toEqual(['api.mintlify.test:80']);

    const bypass = new ApiClient({
      baseUrl: server.url,
      apiKey: KEY,
      userAgent: 't',
      clock,
      dispatcher: createDispatcher({ HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' }),
    });
    await bypass.getAgentJob('p', 'j');
    expect(tunnels).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });
});

describe('retry notices', () => {
  it('name the failure briefly, without the advice meant for a final error', async () => {
    const notices: string[] = [];
    const { client } = await setup(
      { 'GET /v2/agent/p/job/j': sequence(json(503, { error: 'busy' }), dropConnection, json(200, job)) },
      { onRetry: (n) => notices.push(n.reason) },
    );
    await client.getAgentJob('p', 'j');
    expect(notices).toEqual(['the API answered 503', 'the connection to the API was dropped']);
  });
});

describe('deployments, previews and automations', () => {
  const status = { _id: 's1', status: 'in_progress', logs: ['Cloning'], source: 'api' };

  it('sends each call to its documented route and returns the checked answer', async () => {
    const { server, client } = await setup({
      'POST /v1/project/update/p': json(202, { statusId: 's1' }),
      'GET /v1/project/update-status/s1': json(200, status),
      'POST /v1/project/preview/p': json(202, { statusId: 's2', previewUrl: 'https://p-feat.mintlify.app' }),
      'POST /v1/workflow/p/w1/trigger': json(202, { schemaId: 'w1', instanceId: 'i1', jobId: 'j1' }),
      'POST /v2/workflow/p/w2/webhook': json(202, { success: true, runId: 'r1' }),
    });
    expect(await client.triggerUpdate('p')).toEqual({ statusId: 's1' });
    expect(await client.getUpdateStatus('s1')).toEqual(status);
    expect(await client.triggerPreview('p', 'feat/x')).toEqual({
      statusId: 's2',
      previewUrl: 'https://p-feat.mintlify.app',
    });
    expect(await client.triggerAutomation('p', 'w1')).toEqual({ schemaId: 'w1', instanceId: 'i1', jobId: 'j1' });
    expect(await client.triggerAutomationWebhook('p', 'w2')).toEqual({ success: true, runId: 'r1' });
    expect(JSON.parse(server.requests[2]!.body)).toEqual({ branch: 'feat/x' });
    expect(server.requests.map((r) => r.body)).toEqual(['', '', '{"branch":"feat/x"}', '', '']);
  });

  it('refuses an answer without the id the command prints', async () => {
    const { client } = await setup({ 'POST /v1/workflow/p/w1/trigger': json(202, { schemaId: 'w1', jobId: 'j1' }) });
    const error = await caught(client.triggerAutomation('p', 'w1'));
    expect(error.message).toBe(
      'unexpected answer from the API to POST /v1/workflow/{projectId}/{workflowSchemaId}/trigger: instanceId is missing',
    );
  });

  it('resends the webhook after its documented 503 (no run was queued), up to the retry budget', async () => {
    const { server, client, clock } = await setup({
      'POST /v2/workflow/p/w2/webhook': sequence(
        json(503, { error: 'Credit check failed. Retry the request.' }),
        json(202, { success: true, runId: 'r1' }),
      ),
    });
    expect(await client.triggerAutomationWebhook('p', 'w2')).toEqual({ success: true, runId: 'r1' });
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([375]);
  });

  it.each([
    ['a deployment', (c: ApiClient) => c.triggerUpdate('p'), 'POST /v1/project/update/p'],
    ['an automation trigger', (c: ApiClient) => c.triggerAutomation('p', 'w1'), 'POST /v1/workflow/p/w1/trigger'],
    ['a preview', (c: ApiClient) => c.triggerPreview('p', 'main'), 'POST /v1/project/preview/p'],
  ])('never resends %s after a 503 or a dropped connection: the server may have acted', async (_name, call, route) => {
    for (const handler of [json(503, { error: 'unavailable' }), dropConnection]) {
      const { server, client, clock } = await setup({ [route]: handler });
      const error = await caught(call(client));
      expect(error).toBeInstanceOf(handler === dropConnection ? NetworkError : ApiError);
      expect(server.requests).toHaveLength(1);
      expect(clock.sleeps).toEqual([]);
    }
  });

  it.each([
    [
      'deployments, automation triggers and automation webhooks share 10 requests per 10 seconds per organization',
      (c: ApiClient) => c.triggerUpdate('p'),
      'POST /v1/project/update/p',
      10_000,
    ],
    [
      'preview deployments allow 5 requests per minute',
      (c: ApiClient) => c.triggerPreview('p', 'main'),
      'POST /v1/project/preview/p',
      60_000,
    ],
  ])(
    'a 429 without Retry-After waits out the documented window (%s), then names the limit',
    async (limit, call, route, windowMs) => {
      const { server, client, clock } = await setup({ [route]: json(429, { error: 'Too many requests' }) });
      const error = await caught(call(client));
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).code).toBe('rate_limited');
      expect(error.message).toBe(
        `rate limited by the API (Too many requests); ${limit}; wait a while before trying again`,
      );
      expect(clock.sleeps).toEqual([windowMs, windowMs, windowMs]);
      expect(server.requests).toHaveLength(4);
    },
  );
});

describe('answers are checked where they enter', () => {
  it('a 2xx that does not fit is one ApiError, exit 1, naming the call and the field; the body only in --debug, redacted', async () => {
    const echoed = {
      ...job,
      status: 7,
      note: `key ${KEY}`,
      link: 'https://s3.example.com/x?X-Amz-Signature=secret123&a=b',
      pad: 'x'.repeat(5000),
    };
    const { client, debugLines } = await setup({ 'GET /v2/agent/p/job/j': json(200, echoed) });
    const error = await caught(client.getAgentJob('p', 'j'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('unexpected_answer');
    expect(error.message).toBe(
      'unexpected answer from the API to GET /v2/agent/{projectId}/job/{jobId}: status should be a string, got a number',
    );
    const bodyLine = debugLines.find((l) =>
      l.startsWith('unexpected body from GET /v2/agent/{projectId}/job/{jobId}: {'),
    )!;
    expect(bodyLine).toBeDefined();
    expect(bodyLine).not.toContain(KEY);
    expect(bodyLine).toContain('key mint_****6789');
    expect(bodyLine).toContain('X-Amz-Signature=REDACTED&a=b');
    expect(bodyLine).toMatch(/\.\.\. \(\d+ characters in all\)$/);
    expect(bodyLine.length).toBeLessThan(2200);
  });

  it('an endless body is cut at 32 MB: the request is aborted and memory stays bounded', async () => {
    let sent = 0;
    let closed = false;
    const chunk = Buffer.alloc(256 * 1024, 'a');
    const endless: Handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('close', () => (closed = true));
      res.on('error', () => undefined);
      const more = () => {
        while (!res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
      };
      res.write('{"pad":"');
      more();
    };
    const { client } = await setup({ 'GET /v1/analytics/p/searches': endless });
    const before = process.memoryUsage().rss;
    const error = await caught(client.listSearches('p', {}));
    const grown = process.memoryUsage().rss - before;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('too_large');
    expect(error.message).toBe(
      'the API sent more than 32 MB in answer to GET /v1/analytics/{projectId}/searches, far more than any documented answer',
    );
    // The socket closes as the client gives up: wait for that event, boundedly, rather than a fixed pause.
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 10_000, interval: 10 });
    // Far less than what was sent would be if it were all kept; the cap plus buffers in flight.
    expect(sent).toBeLessThan(200 * 1024 * 1024);
    expect(grown).toBeLessThan(160 * 1024 * 1024);
  });

  it('a Content-Length past the cap fails before the body is read', async () => {
    const huge: Handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(100 * 1024 * 1024) });
      res.on('error', () => undefined);
      res.write('{"pad":"');
    };
    const { client } = await setup({ 'GET /v2/agent/p/job/j': huge });
    const error = await caught(client.getAgentJob('p', 'j'));
    expect(error.message).toMatch(
      /^the API sent more than 32 MB in answer to GET \/v2\/agent\/\{projectId\}\/job\/\{jobId\}/,
    );
  });

  it('a 402 (automation credits) is exit 1 with the server text, JSON or not', async () => {
    const { client } = await setup({
      'POST /v2/agent/p/job': json(402, { error: 'AI credits are exhausted for this billing cycle.' }),
      'GET /v2/agent/p/job/j': (_req, res) =>
        res.writeHead(402, { 'content-type': 'text/plain' }).end('Payment required\u001b]0;owned\u0007'),
    });
    const post = await caught(client.createAgentJob('p', 'x'));
    expect((post as ApiError).code).toBe('rejected');
    expect(post.message).toBe('the API rejected the request (402: AI credits are exhausted for this billing cycle.)');
    const get = await caught(client.getAgentJob('p', 'j'));
    expect(get.message).toBe('the API rejected the request (402: Payment required^[]0;owned^G)');
  });

  it('a 429 from a gateway as HTML is still a rate limit, with its words (its 2 h Retry-After held to the hour)', async () => {
    const html: Handler = (_req, res) =>
      res
        .writeHead(429, { 'content-type': 'text/html; charset=utf-8', 'retry-after': '7200' })
        .end('<html><head><title>429 Too Many Requests</title></head><body>nginx</body></html>');
    const { client } = await setup({ 'GET /v2/agent/p/job/j': html });
    const error = await caught(client.getAgentJob('p', 'j'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toBe(
      'rate limited by the API (429 Too Many Requests); the agent API allows 100 requests per project per hour; try again in 1h00m (after 2026-11-22T13:00:00.000Z)',
    );
  });
});
