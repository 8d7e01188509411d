import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SearchesPage, SearchTerm } from '../../src/api/types.js';
import { SANDBOX_FIXED_DATA_END, type Sandbox } from '../../src/sandbox/index.js';
import { useSandbox } from '../helpers/sandbox.js';
import { resumeLine, runCli, runPrintedCommand, tempDir, type CliResult } from '../helpers/cli.js';
import { expectedCsv, expectedJson, expectedNdjson, expectedTsv } from '../helpers/searches.js';

const SMALL = 40; // the tricky terms and a few ordinary ones: one page of 100
const MANY = 250; // three pages of 100

const smallBox = useSandbox({ searchTermCount: SMALL, dataEndsAt: SANDBOX_FIXED_DATA_END });
const manyBox = useSandbox({ searchTermCount: MANY, dataEndsAt: SANDBOX_FIXED_DATA_END });
// The cases take a sandbox as a value: the two started ones, once useSandbox has started them.
let small: Sandbox;
let many: Sandbox;
beforeAll(() => {
  [small, many] = [smallBox.sandbox, manyBox.sandbox];
});

const envFor = (sb: Sandbox) => ({
  MINTLIFY_API_URL: sb.baseUrl,
  MINTLIFY_ADMIN_API_KEY: sb.apiKey,
  MINTLIFY_PROJECT_ID: sb.projectId,
  XDG_CONFIG_HOME: join(smallBox.home, 'xdg'),
  HOME: smallBox.home,
});
const cli = (sb: Sandbox, args: string[], cwd?: string) =>
  runCli(['searches', 'list', ...args], { env: envFor(sb), cwd });

/** Every page the API itself serves for a query, fetched directly (and not counted afterwards). */
async function apiPages(sb: Sandbox, query: Record<string, string> = {}): Promise<SearchesPage[]> {
  const pages: SearchesPage[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ ...query, limit: '100', ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${sb.baseUrl}/v1/analytics/${sb.projectId}/searches?${params}`, {
      headers: { authorization: `Bearer ${sb.apiKey}` },
    });
    pages.push((await res.json()) as SearchesPage);
    cursor = pages.at(-1)!.nextCursor;
  } while (cursor);
  sb.requests.length = 0;
  return pages;
}
const allTerms = (pages: SearchesPage[]) => pages.flatMap((p) => p.searches);
const searchRequests = (sb: Sandbox) =>
  sb.requests.filter((r) => r.path.startsWith(`/v1/analytics/${sb.projectId}/searches`));
const queryOf = (path: string) => Object.fromEntries(new URL(path, 'http://x').searchParams);

const runShell = (command: string, sb: Sandbox, cwd: string): Promise<CliResult> =>
  runPrintedCommand(command, { cwd, env: envFor(sb) });

describe('searches list: every format of one page', () => {
  let page: SearchesPage;
  beforeAll(async () => {
    [page] = (await apiPages(small)) as [SearchesPage];
    expect(page.nextCursor).toBeNull();
    expect(page.searches.map((s) => s.searchQuery)).toEqual(
      expect.arrayContaining(['multi\nline', '=SUM(1,2)', '\tleading tab', 'say "hello"']),
    );
  });

  it.each<[string, string[], () => string]>([
    ['csv', ['--format', 'csv'], () => expectedCsv(page.searches)],
    ['csv --csv-raw', ['--format', 'csv', '--csv-raw'], () => expectedCsv(page.searches, { raw: true })],
    ['csv --no-header', ['--format', 'csv', '--no-header'], () => expectedCsv(page.searches, { header: false })],
    ['ndjson', ['--format', 'ndjson'], () => expectedNdjson(page.searches)],
    ['json', ['--format', 'json'], () => expectedJson(page)],
    ['--json', ['--json'], () => expectedJson(page)],
    ['table, piped', [], () => expectedTsv(page.searches)],
  ])('%s: the exact output, one request', async (_n, args, expected) => {
    const r = await cli(small, ['--limit', '100', ...args]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected());
    expect(r.stdout).not.toMatch(/\x1b\[/);
    expect(searchRequests(small).map((q) => queryOf(q.path))).toEqual([{ limit: '100' }]);
  });

  it('sends the default page size of 50', async () => {
    const r = await cli(small, ['--format', 'csv']);
    expect(searchRequests(small).map((q) => queryOf(q.path))).toEqual([{ limit: '50' }]);
    expect(r.stdout).toBe(expectedCsv(page.searches.slice(0, 50)));
  });

  it('tells on stderr what a table showed and how to get more', async () => {
    const firstTen = await cli(small, ['--limit', '10']);
    const cursor = /--cursor (\S+)$/.exec(firstTen.stderr.trim())?.[1];
    expect(firstTen.stderr).toBe(
      `Showing 10 terms, ${page.totalSearches} searches in total; more: --cursor ${cursor}\n`,
    );
    const rest = await cli(small, ['--limit', '100', '--cursor', cursor!]);
    expect(rest.stdout).toBe(expectedTsv(page.searches.slice(10)));
    expect(rest.stderr).toBe(
      `Showing ${SMALL - 10} terms, the last of the list; ${page.totalSearches} searches in total\n`,
    );
  });
});

describe('searches list --all', () => {
  let pages: SearchesPage[];
  beforeAll(async () => {
    pages = await apiPages(many);
  });

  it.each<[string, string[], (terms: SearchTerm[], total: number) => string]>([
    ['csv', ['--format', 'csv'], (t) => expectedCsv(t)],
    ['ndjson', ['--format', 'ndjson'], (t) => expectedNdjson(t)],
    ['json', ['--format', 'json'], (t, total) => expectedJson({ searches: t, totalSearches: total, nextCursor: null })],
    ['table', [], (t) => expectedTsv(t)],
  ])('%s: every term once, in hits order, in ceil(N/100) requests of 100', async (_n, args, expected) => {
    const terms = allTerms(pages);
    const r = await cli(many, ['--all', ...args]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected(terms, pages[0]!.totalSearches));
    expect(new Set(terms.map((t) => t.searchQuery)).size).toBe(MANY);
    expect(terms.every((t, i) => i === 0 || terms[i - 1]!.hits >= t.hits)).toBe(true);
    const sent = searchRequests(many).map((q) => queryOf(q.path));
    expect(sent).toHaveLength(Math.ceil(MANY / 100));
    expect(sent.every((q) => q.limit === '100')).toBe(true);
    expect(sent.map((q) => q.cursor)).toEqual([undefined, ...pages.slice(0, -1).map((p) => p.nextCursor)]);
  });

  it('filters by date, sends the dates as written, and --to is exclusive', async () => {
    const range = { dateFrom: '2026-10-01', dateTo: '2026-10-15T00:00:00Z' };
    const expected = allTerms(await apiPages(many, range));
    const r = await cli(many, ['--all', '--format', 'ndjson', '--from', range.dateFrom, '--to', range.dateTo]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expectedNdjson(expected));
    for (const q of searchRequests(many)) expect(queryOf(q.path)).toMatchObject(range);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(MANY);
    for (const t of expected) {
      expect(t.lastSearchedAt >= '2026-10-01T00:00:00.000Z').toBe(true);
      expect(t.lastSearchedAt < '2026-10-15T00:00:00.000Z').toBe(true);
    }
    // The day before and the day of --to: only the day before counts.
    const dayBefore = await cli(many, ['--all', '--format', 'ndjson', '--from', '2026-10-14', '--to', '2026-10-15']);
    const onTo = allTerms(await apiPages(many, { dateFrom: '2026-10-15', dateTo: '2026-10-16' }));
    const lastDay = dayBefore.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as SearchTerm);
    expect(lastDay.every((t) => t.lastSearchedAt.startsWith('2026-10-14'))).toBe(true);
    expect(onTo.every((t) => t.lastSearchedAt.startsWith('2026-10-15'))).toBe(true);
  });

  it('waits out a short Retry-After mid-way and finishes', async () => {
    many.faults.inject({ route: 'searches.list' }); // page 1 passes
    many.faults.inject({ route: 'searches.list', status: 429, retryAfter: 1 });
    const r = await cli(many, ['--all', '--format', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expectedCsv(allTerms(pages)));
    expect(r.stderr).toContain('rate limited (429); retrying in 1s');
    expect(searchRequests(many)).toHaveLength(Math.ceil(MANY / 100) + 1);
  });
});

describe('searches list --all stopped early', () => {
  let terms: SearchTerm[];
  let dir: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    terms = allTerms(await apiPages(many));
  });
  beforeEach(() => {
    dir = tempDir();
    return () => dir.cleanup();
  });

  it('csv -o: a long Retry-After exits 6 with whole rows, and the printed command completes the file', async () => {
    many.faults.inject({ route: 'searches.list' });
    many.faults.inject({ route: 'searches.list', status: 429, retryAfter: 3600 });
    const r = await cli(many, ['--all', '--format', 'csv', '-o', 'week 47.csv'], dir.path);
    expect(r.code).toBe(6);
    const file = join(dir.path, 'week 47.csv');
    expect(readFileSync(file, 'utf8')).toBe(expectedCsv(terms.slice(0, 100)));
    expect(r.stderr).toMatch(
      /^warning: stopped after 100 terms \(1 page\); what was written to week 47\.csv ends with a whole row\./m,
    );
    expect(r.stderr).toMatch(/\nerror: rate limited by the API.*; try again in 1h00m/);
    const resume = resumeLine(r.stderr);
    expect(resume).toMatch(/^mint-admin searches list --all --format csv --no-header --cursor \S+ >> 'week 47\.csv'$/);

    const again = await runShell(resume, many, dir.path);
    expect(again.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(expectedCsv(terms));
  });

  it('json to stdout: the partial document parses and names the cursor; the resumed one holds the rest', async () => {
    many.faults.inject({ route: 'searches.list', times: 2 });
    many.faults.inject({ route: 'searches.list', status: 429, retryAfter: 3600 });
    const r = await cli(many, ['--all', '--json']);
    expect(r.code).toBe(6);
    const partial = JSON.parse(r.stdout) as SearchesPage;
    expect(partial.searches).toEqual(terms.slice(0, 200));
    const resume = resumeLine(r.stderr);
    expect(resume).toBe(`mint-admin searches list --all --format json --cursor ${partial.nextCursor}`);
    const rest = JSON.parse((await runShell(resume, many, dir.path)).stdout) as SearchesPage;
    expect([...partial.searches, ...rest.searches]).toEqual(terms);
    expect(rest.nextCursor).toBeNull();
  });

  it('Ctrl-C: exit 130, whole ndjson lines, and a command that carries on', async () => {
    many.faults.inject({ route: 'searches.list' });
    many.faults.inject({ route: 'searches.list', delayMs: 10_000 });
    const r = await runCli(['searches', 'list', '--all', '--format', 'ndjson'], {
      env: envFor(many),
      onSpawn: (child) => {
        let seen = '';
        child.stdout!.on('data', (c: Buffer) => {
          seen += c.toString();
          if (seen.split('\n').length > 100) child.kill('SIGINT');
        });
      },
    });
    expect(r.code).toBe(130);
    expect(r.stdout).toBe(expectedNdjson(terms.slice(0, 100)));
    const rest = await runShell(resumeLine(r.stderr), many, dir.path);
    expect(r.stdout + rest.stdout).toBe(expectedNdjson(terms));
  });
});

describe('searches list into a pipe that closes', () => {
  it('stops quietly with exit 0 when the reader has had enough (| head)', async () => {
    const r = await runCli(['searches', 'list', '--all', '--format', 'ndjson'], {
      env: envFor(many),
      onSpawn: (child) => child.stdout!.once('data', () => child.stdout!.destroy()),
    });
    expect(r.stderr).toBe('fetching search terms\n'); // no error, no stack
    expect(r.code).toBe(0);
  });
});

describe('searches list: bad input sends nothing', () => {
  it.each([
    [
      'a day not in the month',
      ['--from', '2026-02-30'],
      'error: --from: "2026-02-30" is not a date; use YYYY-MM-DD (e.g. 2026-11-16), an ISO 8601 date-time (e.g. 2026-11-16T09:30:00Z) or a duration before now (7d, 12h, 2w, 30m)',
    ],
    [
      'month 13',
      ['--to', '2026-13-01'],
      'error: --to: "2026-13-01" is not a date; use YYYY-MM-DD (e.g. 2026-11-16), an ISO 8601 date-time (e.g. 2026-11-16T09:30:00Z) or a duration before now (7d, 12h, 2w, 30m)',
    ],
    [
      'garbage',
      ['--from', 'yesterday'],
      'error: --from: "yesterday" is not a date; use YYYY-MM-DD (e.g. 2026-11-16), an ISO 8601 date-time (e.g. 2026-11-16T09:30:00Z) or a duration before now (7d, 12h, 2w, 30m)',
    ],
    [
      'from equal to to',
      ['--from', '2026-11-16', '--to', '2026-11-16'],
      'error: --from must be before --to (--to is exclusive: a week is --from 2026-11-16 --to 2026-11-23)',
    ],
    [
      'from after to',
      ['--from', '2026-11-23', '--to', '2026-11-16'],
      'error: --from must be before --to (--to is exclusive: a week is --from 2026-11-16 --to 2026-11-23)',
    ],
    ['limit 0', ['--limit', '0'], 'error: --limit: "0" is not a whole number from 1 to 100'],
    ['limit 101', ['--limit', '101'], 'error: --limit: "101" is not a whole number from 1 to 100'],
    ['limit 1.5', ['--limit', '1.5'], 'error: --limit: "1.5" is not a whole number from 1 to 100'],
    ['limit abc', ['--limit', 'abc'], 'error: --limit: "abc" is not a whole number from 1 to 100'],
    [
      'an unknown format',
      ['--format', 'xml'],
      "error: option '--format <format>' argument 'xml' is invalid. Allowed choices are table, json, ndjson, csv.",
    ],
    [
      '--json with another format',
      ['--json', '--format', 'csv'],
      'error: --json means --format json; it cannot be combined with --format csv',
    ],
    ['--csv-raw without csv', ['--csv-raw'], 'error: --csv-raw only applies to --format csv'],
    [
      'an output directory that does not exist',
      ['-o', '/nonexistent-dir/x.csv'],
      'error: -o /nonexistent-dir/x.csv: cannot create a file in /nonexistent-dir (missing or not writable)',
    ],
  ])('%s: exit 2, one line, no request', async (_n, args, line) => {
    const r = await cli(small, args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(line);
    expect(small.requests).toHaveLength(0);
  });
});

describe('searches list --help', () => {
  it('says plainly that --to is exclusive, with a week as the example, and how piped values are escaped', async () => {
    const r = await runCli(['searches', 'list', '--help']);
    expect(r.code).toBe(0);
    // Help wraps to the width (80 in a pipe), so compare the words, not the line breaks.
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain(
      '--to is exclusive: --from 2026-11-16 --to 2026-11-23 is the seven days of 16..22 November.',
    );
    expect(text).toContain('inside a value a tab is \\t, a newline \\n');
    expect(r.stdout).toContain('Examples:');
  });
});

describe('searches list -o', () => {
  it('writes the file with the mode the umask gives, and nothing to stdout', async () => {
    const dir = tempDir();
    try {
      const r = await runShell(
        'umask 027 && exec mint-admin searches list --limit 100 --format csv -o out.csv',
        small,
        dir.path,
      );
      expect(r).toMatchObject({ code: 0, stdout: '' });
      const file = join(dir.path, 'out.csv');
      expect(statSync(file).mode & 0o777).toBe(0o640);
      const [page] = await apiPages(small);
      expect(readFileSync(file, 'utf8')).toBe(expectedCsv(page!.searches));
      expect(r.stderr).toBe(`Wrote ${SMALL} of ${SMALL} terms to out.csv, ${page!.totalSearches} searches in total\n`);
    } finally {
      dir.cleanup();
    }
  });
});
