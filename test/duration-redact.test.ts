import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../src/duration.js';
import { UsageError } from '../src/errors.js';
import { maskKey, redactUrl, scrubSecrets } from '../src/redact.js';

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['250ms', 250],
    ['45', 45_000],
    ['0.5', 500],
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text, '--timeout')).toBe(ms));

  it.each(['', 'soon', '5 m', '1d', '-5s', 'm5'])('refuses %j naming the flag', (text) => {
    expect(() => parseDuration(text, '--timeout')).toThrow(UsageError);
    expect(() => parseDuration(text, '--timeout')).toThrow(/--timeout/);
  });

  it('takes the longest duration a timer can hold, 596h', () => {
    expect(parseDuration('596h', '--timeout')).toBe(2_145_600_000);
    expect(parseDuration('2145600', '--timeout')).toBe(2_145_600_000);
  });

  // Node's timers hold at most 2^31-1 ms (24.8 days); a longer one fires at once.
  it.each([
    ['597h', '597h'],
    ['596h and a millisecond', '596h1ms'],
    ['596h and a millisecond, in seconds', '2145600.001'],
    ['2^31 ms, in seconds', '2147484'],
    ['hours beyond any timer', '99999999999999999999999h'],
    ['seconds beyond any number (Infinity)', '9'.repeat(400)],
  ])('refuses %s as longer than a wait can be timed, naming the flag and the most', (_name, text) => {
    expect(() => parseDuration(text, '--interval')).toThrow(UsageError);
    expect(() => parseDuration(text, '--interval')).toThrow(
      `--interval: "${text}" is longer than a wait can be timed; the most is 596h (about 24.8 days)`,
    );
  });

  it('formats durations compactly', () => {
    expect([formatDuration(45_000), formatDuration(125_000), formatDuration(3_720_000)]).toEqual([
      '45s',
      '2m05s',
      '1h02m',
    ]);
  });
});

describe('secrets', () => {
  it('masks a key to its prefix and last four characters', () => {
    expect(maskKey('mint_abcdefghijklwxyz')).toBe('mint_****wxyz');
    expect(maskKey('mint_short')).toBe('mint_****');
  });
  it('redacts presigned signatures and credentials in URLs', () => {
    const url =
      'https://bucket.s3.amazonaws.com/se_1/bundle.tar.gz?X-Amz-Expires=900&X-Amz-Signature=deadbeef&X-Amz-Credential=AKIA%2Fx';
    const redacted = redactUrl(url);
    expect(redacted).not.toContain('deadbeef');
    expect(redacted).not.toContain('AKIA');
    expect(redacted).toContain('X-Amz-Expires=900');
  });
  it('scrubs a key out of free text', () => {
    expect(scrubSecrets('bad key mint_abcdefghijklwxyz given', ['mint_abcdefghijklwxyz'])).toBe(
      'bad key mint_****wxyz given',
    );
  });
  it('scrubs a key however the text around it was cased, wrapped, flattened or escaped', () => {
    const key = 'mint_abcdefghijklwxyz';
    const forms = [
      key.toUpperCase(),
      'mint_abcdefgh\nijklwxyz',
      'mint_abcdefgh\r\nijklwxyz',
      'mint_abcdefgh ijklwxyz',
      'MINT_ABCD\tEFGH\u200bIJKLWXYZ',
      // As JSON, a terminal or Markdown writes a split or escaped key.
      'mint_abcdefgh\\nijklwxyz',
      'mint_abcdefgh\\x00ijklwxyz',
      'mint\\_abcdefghijklwxyz',
    ];
    for (const form of forms)
      expect(scrubSecrets(`said: ${form}.`, [key]), JSON.stringify(form)).toBe('said: mint_****wxyz.');
    // A word that only shares the key's start is left alone.
    expect(scrubSecrets('mint_abcdefgh and more', [key])).toBe('mint_abcdefgh and more');
  });
});

describe('wait flags', async () => {
  const { parseWaitFlags } = await import('../src/cli/wait-flags.js');
  it('parses the defaults and explicit values', () => {
    expect(parseWaitFlags({ timeout: '30m', interval: '5s' })).toEqual({
      wait: false,
      timeoutMs: 1_800_000,
      intervalMs: 5000,
    });
    expect(parseWaitFlags({ wait: true, timeout: '90', interval: '250ms' })).toEqual({
      wait: true,
      timeoutMs: 90_000,
      intervalMs: 250,
    });
  });
  it.each([
    [{ timeout: '0', interval: '5s' }, /--timeout must be longer than zero/],
    [{ timeout: '5m', interval: '10ms' }, /--interval must be at least 100ms/],
    [{ timeout: 'forever', interval: '5s' }, /--timeout: "forever" is not a duration/],
    [{ timeout: '597h', interval: '5s' }, /^--timeout: "597h" is longer than a wait can be timed; the most is 596h/],
    [{ timeout: '5m', interval: '597h' }, /^--interval: "597h" is longer than a wait can be timed; the most is 596h/],
  ])('refuses %j', (flags, message) => expect(() => parseWaitFlags(flags)).toThrow(message));
});
