import { describe, expect, it } from 'vitest';
import { explainCreateFailure, explainMessageFailure } from '../../../src/cli/commands/uncertain-post.js';
import { ApiError, type CliError, InterruptedError, NetworkError, RateLimitError } from '../../../src/errors.js';
import { exitCodeOf } from '../../../src/cli/cli-errors.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const MAY_EXIST =
  "so the job may have been created anyway: check the repository's pull requests and the Mintlify dashboard before running it again";

describe('explainCreateFailure', () => {
  it.each([
    [
      'a 500',
      new ApiError('the API failed (500)', 500, { serverMessage: 'boom' }),
      1,
      `the API answered 500 (boom) while creating the agent job, ${MAY_EXIST}`,
    ],
    [
      'a 502 HTML page',
      new ApiError('the API answered 502 with text/html', 502),
      1,
      `the API answered 502 while creating the agent job, ${MAY_EXIST}`,
    ],
    [
      'a 201 with an unreadable body',
      new ApiError('unexpected answer from the API to POST /v2/agent/{projectId}/job: id is missing', 201),
      1,
      `unexpected answer from the API to POST /v2/agent/{projectId}/job: id is missing while creating the agent job, ${MAY_EXIST}`,
    ],
    [
      'a dropped connection',
      new NetworkError('the connection to the API was dropped; check your connection', 'ECONNRESET'),
      1,
      `the connection to the API was dropped while creating the agent job, ${MAY_EXIST}`,
    ],
    [
      'a response that never came',
      new NetworkError('the API did not answer in time; check', 'UND_ERR_HEADERS_TIMEOUT'),
      1,
      `the API did not answer in time while creating the agent job, ${MAY_EXIST}`,
    ],
    [
      'Ctrl-C during the request',
      new InterruptedError(),
      130,
      `interrupted while creating the agent job, ${MAY_EXIST}`,
    ],
  ])('%s: the job may exist, the exit code is kept', (_name, error, exitCode, message) => {
    const explained = explainCreateFailure(error, NOW) as CliError;
    expect(explained.constructor).toBe(error.constructor);
    expect(exitCodeOf(explained)).toBe(exitCode);
    expect(explained.message).toBe(message);
  });

  it.each([
    ['a 400', new ApiError('the API rejected the request (400)', 400)],
    ['a 401', new ApiError('the API refused the admin key (401)', 401)],
    [
      'a refused connection (the request never left)',
      new NetworkError('connection refused by the API; check', 'ECONNREFUSED'),
    ],
  ])('%s: nothing was created, the error is left as it is', (_name, error) => {
    expect(explainCreateFailure(error, NOW)).toBe(error);
  });

  it.each([
    ['says when to try again', NOW + 50 * 60_000, 'try again in 50m00s (after 2026-11-22T12:50:00.000Z)'],
    [
      'says to wait when the server did not say how long',
      undefined,
      'wait a while (up to an hour) before trying again',
    ],
  ])('states the limit of 100 jobs per project per hour and %s', (_name, retryAt, when) => {
    const explained = explainCreateFailure(new RateLimitError('rate limited', retryAt), NOW) as RateLimitError;
    expect(explained).toBeInstanceOf(RateLimitError);
    expect(exitCodeOf(explained)).toBe(6);
    expect(explained.retryAt).toBe(retryAt);
    expect(explained.message).toBe(`rate limited: the API accepts 100 agent jobs per project per hour; ${when}`);
  });
});

describe('explainMessageFailure', () => {
  it('points at `agent get` when the message may have been delivered', () => {
    const explained = explainMessageFailure(new ApiError('x', 503), 'mint-admin agent get job_1') as CliError;
    expect(explained.message).toBe(
      'the API answered 503 while sending the message, so it may have been delivered anyway: check with `mint-admin agent get job_1` before sending it again',
    );
  });

  it('leaves a 404 as it is', () => {
    const notFound = new ApiError('not found (404)', 404);
    expect(explainMessageFailure(notFound, 'x')).toBe(notFound);
  });
});
