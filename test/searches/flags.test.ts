import { describe, expect, it } from 'vitest';
import { checkDateRange, parseDateFlag as parseAt, readDate } from '../../src/queries/dates.js';
import { parseListFlags, type SearchesListFlags } from '../../src/cli/commands/list-options.js';
import { resumeCommand } from '../../src/cli/commands/searches-list.js';
import { shellQuote } from '../../src/cli/shell.js';
import { footer } from '../../src/cli/commands/searches-list.js';
import { UsageError } from '../../src/errors.js';

/** The fake clock's now for every date read here: 2026-11-28T10:00:00Z. */
const NOW = Date.UTC(2026, 10, 28, 10);
const parseDateFlag = (text: string, flag: string) => parseAt(text, flag, NOW);

/** Epoch ms of a UTC date whose year Date.UTC would misread (0-99 as 1900-1999). */
function utc(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getTime();
}

describe('dates: years are four digits and mean what they say; durations count back from now', () => {
  it.each([
    ['7d', NOW - 7 * 86_400_000],
    ['12h', NOW - 12 * 3_600_000],
    ['2w', NOW - 14 * 86_400_000],
    ['30m', NOW - 30 * 60_000],
    ['0d', NOW],
  ])('%s is that long before now, sent as the instant it names', (text, time) => {
    expect(readDate(text, '--from', NOW)).toEqual({ time, text: new Date(time).toISOString() });
  });

  it('a calendar date is sent as written', () => {
    expect(readDate('2026-11-16', '--from', NOW)).toEqual({ time: Date.UTC(2026, 10, 16), text: '2026-11-16' });
  });

  it.each([
    ['0050-06-15', utc(50, 6, 15)],
    ['0099-01-01', utc(99, 1, 1)],
    ['0000-02-29', utc(0, 2, 29)],
    ['0100-01-01', utc(100, 1, 1)],
  ])('%s is the year it says, and refused: before the API can hold data (a usage error that says so)', (text) => {
    expect(() => parseDateFlag(text, '--from')).toThrow(UsageError);
    expect(() => parseDateFlag(text, '--from')).toThrow(
      `--from: "${text}" is before 2020-01-01, earlier than the Admin API holds any data`,
    );
  });

  it.each(['0001-02-29', '7y', '7 d', '-7d', '7D', '1.5d', '9999999999d'])('refuses %j', (text) => {
    expect(() => parseDateFlag(text, '--from')).toThrow(UsageError);
  });

  it('a duration reaching back past the floor is refused as too early, not as "not a date"', () => {
    expect(() => parseDateFlag('999999w', '--from')).toThrow('"999999w" is before 2020-01-01');
  });
});

describe('parseDateFlag', () => {
  it.each([
    ['2026-11-16', Date.UTC(2026, 10, 16)],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    ['2026-11-16T09:30', Date.UTC(2026, 10, 16, 9, 30)],
    ['2026-11-16T09:30:15Z', Date.UTC(2026, 10, 16, 9, 30, 15)],
    ['2026-11-16T09:30:15.25z', Date.UTC(2026, 10, 16, 9, 30, 15, 250)],
    ['2026-11-16T09:30:00+01:00', Date.UTC(2026, 10, 16, 8, 30)],
    ['2026-11-16T09:30:00-0530', Date.UTC(2026, 10, 16, 15, 0)],
  ])('reads %s', (text, time) => expect(parseDateFlag(text, '--from')).toBe(time));

  it.each([
    ['a day that is not in the month', '2026-02-30'],
    ['February 29 of a common year', '2026-02-29'],
    ['month 13', '2026-13-01'],
    ['month 0', '2026-00-10'],
    ['day 0', '2026-11-00'],
    ['hour 24', '2026-11-16T24:00'],
    ['minute 60', '2026-11-16T10:60'],
    ['an offset of 25 hours', '2026-11-16T10:00+25:00'],
    ['an hours-only offset the API does not read', '2026-11-16T10:00+01'],
    ['a date without dashes', '20261116'],
    ['a single-digit month', '2026-1-05'],
    ['a space instead of T', '2026-11-16 10:00'],
    ['words', 'last week'],
    ['nothing', ''],
    ['February 29 of year 1', '0001-02-29'],
    ['a five-digit year', '20260-01-01'],
  ])('refuses %s (%j)', (_n, text) => {
    expect(() => parseDateFlag(text, '--to')).toThrow(UsageError);
    expect(() => parseDateFlag(text, '--to')).toThrow(`--to: "${text}" is not a date`);
  });

  it.each([
    ['equal ends', 10, 10, true],
    ['from after to', 11, 10, true],
    ['from before to', 9, 10, false],
    ['only from', 9, undefined, false],
  ])('checks the range: %s', (_n, from, to, fails) => {
    const check = () => checkDateRange(from, to);
    if (fails) expect(check).toThrow('--from must be before --to (--to is exclusive');
    else expect(check).not.toThrow();
  });
});

describe('parseListFlags', () => {
  it('defaults to one table page of 50', () => {
    expect(parseListFlags({}, false, NOW)).toEqual({
      dateFrom: undefined,
      dateTo: undefined,
      limit: 50,
      cursor: undefined,
      all: false,
      format: 'table',
      output: undefined,
      csvRaw: false,
      header: true,
    });
  });

  it.each([
    ['--all asks for 100 a page', { all: true }, false, { all: true, limit: 100 }],
    ['--json means --format json', {}, true, { format: 'json' }],
    ['--json with --format json is fine', { format: 'json' }, true, { format: 'json' }],
    ['--limit 1', { limit: '1' }, false, { limit: 1 }],
    ['--limit 100', { limit: '100' }, false, { limit: 100 }],
    [
      'dates are sent as written',
      { from: '2026-11-16', to: '2026-11-23T00:00:00Z' },
      false,
      { dateFrom: '2026-11-16', dateTo: '2026-11-23T00:00:00Z' },
    ],
  ])('%s', (_n, flags: SearchesListFlags, json, expected) => {
    expect(parseListFlags(flags, json, NOW)).toMatchObject(expected);
  });

  it.each([
    ['limit 0', { limit: '0' }, false, '--limit: "0" is not a whole number from 1 to 100'],
    ['limit 101', { limit: '101' }, false, '--limit: "101" is not a whole number from 1 to 100'],
    ['limit 1.5', { limit: '1.5' }, false, '--limit: "1.5" is not a whole number from 1 to 100'],
    ['limit abc', { limit: 'abc' }, false, '--limit: "abc" is not a whole number from 1 to 100'],
    ['--limit with --all', { limit: '20', all: true }, false, '--all always asks for 100 terms a page'],
    [
      '--json with --format csv',
      { format: 'csv' },
      true,
      '--json means --format json; it cannot be combined with --format csv',
    ],
    ['an unknown format', { format: 'xml' }, false, '--format: "xml" is not one of table, json, ndjson, csv'],
    ['--csv-raw without csv', { csvRaw: true, format: 'ndjson' }, false, '--csv-raw only applies to --format csv'],
    [
      '--no-header with json',
      { header: false, format: 'json' },
      false,
      '--no-header only applies to --format csv and table',
    ],
    ['from after to', { from: '2026-11-23', to: '2026-11-16' }, false, '--from must be before --to'],
    ['an empty cursor', { cursor: ' ' }, false, '--cursor: give the cursor'],
  ])('refuses %s', (_n, flags: SearchesListFlags, json, message) => {
    expect(() => parseListFlags(flags, json, NOW)).toThrow(message);
  });
});

describe('resume command', () => {
  const base = parseListFlags({ from: '2026-11-16', to: '2026-11-23', all: true }, false, NOW);
  it.each([
    [
      'csv into a file: appended, without a second header',
      { ...base, format: 'csv' as const, output: 'my searches.csv' },
      "mint-admin --project p1 searches list --from 2026-11-16 --to 2026-11-23 --all --format csv --no-header --cursor c_1 >> 'my searches.csv'",
    ],
    [
      'csv raw to stdout',
      { ...base, format: 'csv' as const, csvRaw: true },
      'mint-admin --project p1 searches list --from 2026-11-16 --to 2026-11-23 --all --format csv --csv-raw --no-header --cursor c_1',
    ],
    [
      'ndjson into a file',
      { ...base, format: 'ndjson' as const, output: 'out.ndjson' },
      'mint-admin --project p1 searches list --from 2026-11-16 --to 2026-11-23 --all --format ndjson --cursor c_1 >> out.ndjson',
    ],
    [
      'json into a new file',
      { ...base, format: 'json' as const, output: '/nonexistent-dir/s.json' },
      'mint-admin --project p1 searches list --from 2026-11-16 --to 2026-11-23 --all --format json --cursor c_1 -o /nonexistent-dir/s.part2.json',
    ],
  ])('%s', (_n, opts, command) => {
    expect(resumeCommand(opts, { project: 'p1' }, 'c_1')).toBe(command);
  });

  it.each([
    ['plain', 'plain'],
    ['two words', "'two words'"],
    ["it's", "'it'\\''s'"],
    ['$HOME', "'$HOME'"],
  ])('quotes %j for a POSIX shell as %s', (arg, quoted) => expect(shellQuote(arg)).toBe(quoted));
});

describe('footer', () => {
  const opts = parseListFlags({}, false, NOW);
  const ranged = parseListFlags({ from: '2026-11-16', to: '2026-11-23' }, false, NOW);
  it.each([
    [
      'the whole list from the start',
      { pages: 1, terms: 42, totalSearches: 900, nextCursor: null },
      opts,
      'Showing 42 of 42 terms, 900 searches in total',
    ],
    [
      'a page with more after it',
      { pages: 1, terms: 50, totalSearches: 900, nextCursor: 'c2' },
      opts,
      'Showing 50 terms, 900 searches in total; more: --cursor c2',
    ],
    [
      'the last page, started at a cursor',
      { pages: 1, terms: 7, totalSearches: 900, nextCursor: null },
      { ...opts, cursor: 'c9' },
      'Showing 7 terms, the last of the list; 900 searches in total',
    ],
    [
      'a file',
      { pages: 3, terms: 250, totalSearches: 900, nextCursor: null },
      { ...opts, output: 'x.tsv' },
      'Wrote 250 of 250 terms to x.tsv, 900 searches in total',
    ],
    [
      'a date range',
      { pages: 1, terms: 42, totalSearches: 900, nextCursor: null },
      ranged,
      'Showing 42 of 42 terms, 900 searches in the date range',
    ],
    [
      'the last page of a date range',
      { pages: 1, terms: 7, totalSearches: 900, nextCursor: null },
      { ...ranged, cursor: 'c9' },
      'Showing 7 terms, the last of the range; 900 searches in the date range',
    ],
  ])('%s', (_n, result, o, line) => expect(footer(result, o)).toBe(line));
});
