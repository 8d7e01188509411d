// The last guard on every text an MCP client receives (src/mcp/errors.ts), and the next step each
// kind of failure gets: for a tool that starts something, an answer that never came is never "try again".
import { describe, expect, it } from 'vitest';
import { ApiError, ConfigError, NetworkError, RateLimitError, UsageError, WaitTimeoutError } from '../../src/errors.js';
import { describeFailure, safeText } from '../../src/mcp/errors.js';

const KEY = 'mint_abcdefghijklmnopqrstuvwxyz012345';

describe('safeText', () => {
  it('masks the key and redacts presigned signatures wherever they appear', () => {
    const text = `failed with ${KEY}: see https://bucket.s3.amazonaws.com/site.tar.gz?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=deadbeef&x=1 now`;
    const safe = safeText(text, [KEY]);
    expect(safe).not.toContain(KEY);
    expect(safe).not.toContain('deadbeef');
    expect(safe).not.toContain('AKIA');
    expect(safe).toContain('mint_****2345');
    expect(safe).toContain('X-Amz-Signature=REDACTED');
    expect(safe.endsWith(' now')).toBe(true);
  });
});

describe('describeFailure', () => {
  it.each([
    ['a usage error', new UsageError('bad'), false, /^fix the arguments and call t again; nothing was sent$/],
    ['a settings error', new ConfigError('no key'), false, /server's own settings/],
    [
      'a 429',
      new RateLimitError('slow down', Date.UTC(2026, 10, 24, 12)),
      true,
      /try again after 2026-11-24T12:00:00.000Z/,
    ],
    ['a 401', new ApiError('refused', 401), false, /admin key was refused/],
    ['a 404', new ApiError('missing', 404), false, /check the id/],
    ['a 5xx of a read', new ApiError('down', 502), false, /try t again in a few minutes/],
    ['a 5xx of a start', new ApiError('down', 502), true, /may have reached the API.*before calling again/],
    ['a dropped connection of a read', new NetworkError('reset'), false, /could not be reached; try t again shortly/],
    ['a dropped connection of a start', new NetworkError('reset'), true, /may have reached the API/],
    [
      'an unreadable 2xx of a start: the API accepted it',
      new ApiError('unexpected answer from the API', 201, { code: 'not_json' }),
      true,
      /may have reached the API.*before calling again/,
    ],
    [
      'a wait past its time',
      new WaitTimeoutError('too long'),
      false,
      /goes on on the server: call the matching status tool/,
    ],
  ])('%s', (_name, error, writes, next) => {
    const failure = describeFailure(error, 't', writes);
    expect(failure.message).toBe(error.message);
    expect(failure.next).toMatch(next);
  });
});
