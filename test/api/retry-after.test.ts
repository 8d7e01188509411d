import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/api/http.js';
import { MAX_RETRY_AFTER_MS } from '../../src/api/limits.js';
import { retryWhen } from '../../src/duration.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('parseRetryAfter: only a non-negative integer or a future HTTP date counts', () => {
  it.each([
    ['7', 7000],
    ['0', 0],
    [' 30 ', 30_000],
    ['Sun, 22 Nov 2026 12:00:10 GMT', 10_000],
    ['Sunday, 22-Nov-26 12:01:00 GMT', 60_000],
    ['Sun Nov 22 12:00:05 2026', 5000],
    [['12', '99'], 12_000],
    ['3600', 3_600_000],
  ])('%j -> %i ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  // Every documented limit is per hour at most, so a longer wait is a server's mistake: waiting it out
  // would stop every later sync for years, and past year 275760 no Date can even hold the time.
  it.each([['3601'], ['315360000'], ['99999999999999'], ['100000000000000000000'], ['Fri, 22 Nov 2036 12:00:00 GMT']])(
    '%j -> held to the hour (MAX_RETRY_AFTER_MS)',
    (value) => {
      expect(parseRetryAfter(value, NOW)).toBe(MAX_RETRY_AFTER_MS);
      expect(MAX_RETRY_AFTER_MS).toBe(3_600_000);
    },
  );

  it.each([
    ['-5'],
    ['1.5'],
    ['1e3'],
    ['soon'],
    ['12abc'],
    [''],
    ['2026-11-22T12:00:10Z'],
    ['Wed, 21 Oct 2015 07:28:00 GMT'],
    ['Sun, 22 Nov 2026 12:00:00 GMT'],
    [undefined],
  ])('%j -> absent (the backoff applies)', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});

describe('retryWhen', () => {
  it.each([
    [NOW + 90_000, 'try again in 1m30s (after 2026-11-22T12:01:30.000Z)'],
    [NOW + 3 * 86_400_000, 'try again in 3 days (after 2026-11-25T12:00:00.000Z)'],
    [NOW + 1e23, 'try again in 1157407407407407 days'],
  ])('%i -> %s', (at, text) => {
    expect(retryWhen(at, NOW)).toBe(text);
  });
});
