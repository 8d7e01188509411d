// What a program can read off a failed call, through the public entry: the class, the status, a code,
// the call it answers and, for a rate limit, when to come back. The words are for a log; they carry
// no advice about the CLI's flags or commands (the CLI adds its own: test/cli-errors.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';
import { AdminClient, ApiError, RateLimitError } from '../../src/index.js';
import { FakeClock } from '../helpers/clock.js';
import { json, startServer } from '../helpers/server.js';

const KEY = 'mint_abcdefghijklmnopqrstuvwxyz0123456789';
const ROUTE = '/v2/agent/{projectId}/job/{jobId}';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function failedGet(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ error: unknown; clock: FakeClock; requests: number }> {
  const server = await startServer({ 'GET /v2/agent/proj/job/job_1': json(status, body, headers) });
  const clock = new FakeClock();
  const client = new AdminClient({ apiKey: KEY, baseUrl: server.url, clock });
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  const error = await client.getAgentJob('proj', 'job_1').catch((e: unknown) => e);
  return { error, clock, requests: server.requests.length };
}

/** What a person would need the CLI for: its flags, its commands. */
function expectNoCliAdvice(message: string): void {
  expect(message).not.toMatch(/--|mint-admin/);
}

describe('a failed call, as a program sees it', () => {
  it.each([
    [
      '401: the key was refused',
      401,
      { error: 'Invalid API key' },
      'unauthorized',
      'the API refused the admin key (401: Invalid API key)',
    ],
    [
      '404: no such job',
      404,
      { error: 'Agent job job_1 not found' },
      'not_found',
      'not found (404: Agent job job_1 not found)',
    ],
  ])(
    '%s: an ApiError with status, code and the call, no CLI advice in its words',
    async (_name, status, body, code, message) => {
      const { error } = await failedGet(status, body);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).not.toBeInstanceOf(RateLimitError);
      const apiError = error as ApiError;
      expect({
        status: apiError.status,
        code: apiError.code,
        method: apiError.method,
        route: apiError.route,
        serverMessage: apiError.serverMessage,
      }).toEqual({
        status,
        code,
        method: 'GET',
        route: ROUTE,
        serverMessage: body.error,
      });
      expect(apiError.message).toBe(message);
      expectNoCliAdvice(apiError.message);
      expect('exitCode' in apiError).toBe(false);
    },
  );

  it('429 past the Retry-After a call sits out: a RateLimitError with retryAt, sent once, no CLI advice', async () => {
    const { error, clock, requests } = await failedGet(
      429,
      { error: 'Rate limit exceeded' },
      { 'retry-after': '1800' },
    );
    expect(error).toBeInstanceOf(RateLimitError);
    const limited = error as RateLimitError;
    expect({
      status: limited.status,
      code: limited.code,
      method: limited.method,
      route: limited.route,
      retryAt: limited.retryAt,
    }).toEqual({
      status: 429,
      code: 'rate_limited',
      method: 'GET',
      route: ROUTE,
      retryAt: clock.now() + 1_800_000,
    });
    expect(requests).toBe(1);
    expectNoCliAdvice(limited.message);
    expect('exitCode' in limited).toBe(false);
  });

  it('a proxy page instead of JSON: code not_json, the words without the CLI flag to check', async () => {
    const server = await startServer({
      'GET /v2/agent/proj/job/job_1': (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'),
    });
    const client = new AdminClient({ apiKey: KEY, baseUrl: server.url, clock: new FakeClock() });
    closers.push(
      () => client.close(),
      () => server.close(),
    );
    const error = (await client.getAgentJob('proj', 'job_1').catch((e: unknown) => e)) as ApiError;
    expect({ status: error.status, code: error.code }).toEqual({ status: 200, code: 'not_json' });
    expect(error.message).toBe(`unexpected answer from the API to GET ${ROUTE}: the body is text/html, not JSON`);
    expectNoCliAdvice(error.message);
  });

  it('the library exports no exit codes', () => {
    expect(Object.keys(library)).not.toContain('EXIT_CODES');
  });
});
