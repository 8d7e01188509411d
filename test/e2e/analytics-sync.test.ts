// `analytics sync` through the CLI against the sandbox and the real DuckDB: exact rows and distinct
// keys after one sync and after many small-budget runs (equal), requests counted at the server never
// over the budget and equal to the fewest the page sizes allow, a second sync reading only what can
// change, the hourly ledger shared with other commands, two syncs at once, and Parquet read back.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { DAY_MS, DEFAULT_REACH_DAYS, SETTLE_MS, startOfUtcDay } from '../../src/analytics-store/sync/plan.js';
import { HELP_DEFAULT_DAYS } from '../../src/cli/commands/analytics/sync.js';
import { ledgerPath } from '../../src/budget/ledger-file.js';
import { DATA_TABLES } from '../../src/analytics-store/schema.js';
import { expectedSync, readDay, storedCounts } from '../analytics-store/expected.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox(
  { searchTermCount: 400, analytics: { pages: 60, feedback: 300, conversations: 1500 } },
  { homePerTest: true },
);
const DAYS = 3;
const fromDay = () => new Date(startOfUtcDay(Date.now()) - DAYS * DAY_MS).toISOString().slice(0, 10);
const analyticsRequests = () => t.sandbox.requests.filter((r) => r.path.startsWith('/v1/analytics/')).length;

async function sync(db: string, ...args: string[]) {
  const before = analyticsRequests();
  const r = await runCli(['analytics', 'sync', '--db', db, '--from', fromDay(), '--json', ...args], { env: t.env() });
  const summary = r.stdout ? (JSON.parse(r.stdout) as Record<string, unknown>) : {};
  return { ...r, summary, sent: analyticsRequests() - before };
}

describe('analytics sync', () => {
  it('one sync stores every row once, in the fewest requests the page sizes allow; a second sync right after reads only what can change', async () => {
    const db = join(t.home, 'one.duckdb');
    const expected = await expectedSync(t.sandbox, Date.parse(fromDay()), Date.now());
    // Some windows take more than one page, so paging within a window is exercised too.
    expect(expected.requests).toBeGreaterThan(5 * (DAYS + 1) + 2);
    const r = await sync(db, '--max-requests', '100');
    expect(r.code).toBe(0);
    expect(r.summary).toMatchObject({ complete: true, stoppedBy: null, requests: expected.requests });
    expect(r.sent).toBe(expected.requests);
    const stored = await storedCounts(db);
    expect(stored.rows).toEqual(expected.rows);
    expect(stored.distinct).toEqual(expected.rows);
    expect(r.stderr).toMatch(/^synced: \d+ rows in \d+ pages, \d+ analytics requests; up to date/m);

    // In the first hours after midnight UTC yesterday has not settled either: it is read again whole.
    const today = startOfUtcDay(Date.now());
    const yesterday = Date.now() - today < SETTLE_MS ? await readDay(t.sandbox, today - DAY_MS) : 0;
    const again = await sync(db, '--max-requests', '100');
    expect(again.code).toBe(0);
    // Today's five aggregate windows, the conversations since the watermark, and feedback (its status may change).
    expect(again.sent).toBe(5 + 1 + Math.ceil(expected.rows.feedback! / 100) + yesterday);
    expect((await storedCounts(db)).rows).toEqual(expected.rows);
  });

  it('many small-budget runs end with the same rows as one; no run sends more than its --max-requests', async () => {
    const db = join(t.home, 'small.duckdb');
    const expected = await expectedSync(t.sandbox, Date.parse(fromDay()), Date.now());
    const runs: number[] = [];
    for (let run = 0; run < 30; run++) {
      const r = await sync(db, '--max-requests', '4');
      expect(r.code).toBe(0);
      expect(r.sent).toBeLessThanOrEqual(4);
      runs.push(r.sent);
      if (r.summary.complete) break;
      expect(r.summary.stoppedBy).toBe('run-budget');
      expect(r.stderr).toMatch(
        /stopped: --max-requests 4 spent; .* windows left to read; \d+ of the hour's 100 requests left; the next run can continue now/,
      );
    }
    expect((await storedCounts(db)).rows).toEqual(expected.rows);
    expect((await storedCounts(db)).distinct).toEqual(expected.rows);
    // Each page was fetched once: resuming never re-fetches a stored page.
    expect(runs.reduce((a, b) => a + b, 0)).toBe(expected.requests);
  });

  it('a --from past the default, stopped by its budget, is kept: later runs without it read back as far, feedback too', async () => {
    const db = join(t.home, 'reach.duckdb');
    const reach = startOfUtcDay(Date.now()) - (DEFAULT_REACH_DAYS + 3) * DAY_MS;
    const expected = await expectedSync(t.sandbox, reach, Date.now());
    const first = await runCli(
      [
        'analytics',
        'sync',
        '--db',
        db,
        '--from',
        new Date(reach).toISOString().slice(0, 10),
        '--max-requests',
        '20',
        '--json',
      ],
      { env: t.env() },
    );
    expect(JSON.parse(first.stdout)).toMatchObject({ complete: false, stoppedBy: 'run-budget' });
    const ledger = ledgerPath({ HOME: t.home }, t.sandbox.baseUrl, t.sandbox.apiKey);
    let last: Record<string, unknown> = {};
    for (let run = 0; run < 5 && last.complete !== true; run++) {
      // The hour's 100 would stop these runs for an hour: the runs, not the ledger, are under test here.
      rmSync(ledger, { force: true });
      const r = await runCli(['analytics', 'sync', '--db', db, '--max-requests', '100', '--json'], { env: t.env() });
      expect(r.code).toBe(0);
      last = JSON.parse(r.stdout) as Record<string, unknown>;
    }
    expect(last.complete).toBe(true);
    expect((await storedCounts(db)).rows).toEqual(expected.rows);
    const open = await openAnalyticsDb(db);
    try {
      const oldest = (
        await open.connection.runAndReadAll(`SELECT strftime(min(date), '%Y-%m-%d') AS day FROM searches`)
      ).getRowObjectsJson()[0]!;
      expect(oldest.day).toBe(new Date(reach).toISOString().slice(0, 10));
    } finally {
      open.close();
    }
  }, 90_000); // Up to six syncs, each checkpointing its writes: past 30 s on a loaded 2-core machine.

  it('the help says the default reach the engine uses', () => {
    expect(HELP_DEFAULT_DAYS).toBe(DEFAULT_REACH_DAYS);
  });

  it('a cursor the API no longer takes (400) restarts that window from its first page, once, and loses nothing', async () => {
    const db = join(t.home, 'stale.duckdb');
    const expected = await expectedSync(t.sandbox, Date.parse(fromDay()), Date.now());
    // Stop mid-window: the item streams' first pages and today's, then a searches day of several pages.
    for (let run = 0; run < 30; run++) {
      const r = await sync(db, '--max-requests', '1');
      expect(r.code).toBe(0);
      const open = await openAnalyticsDb(db);
      try {
        const left = (
          await open.connection.runAndReadAll(
            `SELECT count(*)::INT AS n FROM sync_state WHERE NOT complete AND cursor IS NOT NULL AND stream <> '_pass'`,
          )
        ).getRowObjectsJson()[0]!;
        if (Number(left.n) > 0) {
          await open.connection.run(
            `UPDATE sync_state SET cursor = 'expired' WHERE NOT complete AND cursor IS NOT NULL AND stream <> '_pass'`,
          );
          break;
        }
      } finally {
        open.close();
      }
    }
    const r = await sync(db, '--max-requests', '100');
    expect(r.code).toBe(0);
    expect(r.summary).toMatchObject({ complete: true });
    const stored = await storedCounts(db);
    expect(stored.rows).toEqual(expected.rows);
    expect(stored.distinct).toEqual(expected.rows);
  });

  it('keeps the local hour under 100: requests other commands sent count, and the run says when it can go on', async () => {
    const db = join(t.home, 'ledger.duckdb');
    const path = ledgerPath({ HOME: t.home }, t.sandbox.baseUrl, t.sandbox.apiKey);
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    const now = Date.now();
    writeFileSync(path, Array.from({ length: 97 }, (_, i) => `${now - 49 * 60 * 1000 + i}\n`).join(''), {
      mode: 0o600,
    });
    const r = await sync(db, '--max-requests', '50');
    expect(r.code).toBe(0);
    expect(r.sent).toBe(3);
    expect(r.summary).toMatchObject({ complete: false, stoppedBy: 'hourly-budget', requests: 3, requestsLeft: 0 });
    expect(Date.parse(String(r.summary.nextRunAt))).toBe(now - 49 * 60 * 1000 + 60 * 60 * 1000);
    // 11 minutes ahead when planted: a slow machine may take seconds before the run words it.
    expect(r.stderr).toMatch(
      /the organization's 100 analytics requests of the last hour are spent .* the next run can continue at \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 1\dm/,
    );
  });

  it('stops on a 429 with the time it gave, exit 0, and records the Retry-After for the next command', async () => {
    const db = join(t.home, 'limited.duckdb');
    t.sandbox.faults.inject({ route: 'searches.list', status: 429, retryAfter: 1200 });
    const r = await sync(db, '--max-requests', '50');
    expect(r.code).toBe(0);
    expect(r.summary).toMatchObject({ complete: false, stoppedBy: 'rate-limited' });
    const next = await sync(db, '--max-requests', '50');
    expect(next.sent).toBe(0);
    expect(next.summary).toMatchObject({ stoppedBy: 'rate-limited' });
  });

  it('two syncs of one database at once: the second waits for the first or refuses, and every row is stored once', async () => {
    const db = join(t.home, 'two.duckdb');
    const expected = await expectedSync(t.sandbox, Date.parse(fromDay()), Date.now());
    const [a, b] = await Promise.all([sync(db, '--max-requests', '100'), sync(db, '--max-requests', '100')]);
    for (const r of [a, b]) {
      if (r.code !== 0) expect(r.stderr).toMatch(/in use by another process \(pid \d+\)/);
    }
    expect([a.code, b.code]).toContain(0);
    expect((await storedCounts(db)).rows).toEqual(expected.rows);
  });

  it('--parquet writes Hive-partitioned tables that DuckDB reads back with the same counts', async () => {
    const db = join(t.home, 'pq.duckdb');
    const out = join(t.home, 'parquet');
    const r = await sync(db, '--max-requests', '100', '--parquet', out);
    expect(r.code).toBe(0);
    const stored = await storedCounts(db);
    const reader = await openAnalyticsDb(join(tempDir().path, 'reader.duckdb'));
    try {
      for (const table of DATA_TABLES) {
        const glob = join(out, table, '*', '*.parquet');
        const rows = stored.rows[table]!;
        if (rows === 0) continue;
        const n = (
          await reader.connection.runAndReadAll(
            `SELECT count(*)::DOUBLE AS n, count(DISTINCT date)::DOUBLE AS days FROM read_parquet('${glob}', hive_partitioning = true)`,
          )
        ).getRowObjectsJson()[0]!;
        expect([table, Number(n.n)]).toEqual([table, rows]);
      }
      const dirs = (
        await reader.connection.runAndReadAll(
          `SELECT DISTINCT regexp_extract(file, 'views/(date=[0-9-]+)/', 1) AS d FROM glob('${join(out, 'views', '*', '*.parquet')}')`,
        )
      ).getRowObjectsJson();
      for (const d of dirs) expect(String(d.d)).toMatch(/^date=\d{4}-\d\d-\d\d$/);
    } finally {
      reader.close();
    }
  });

  it('refuses bad flags before anything is sent', async () => {
    for (const args of [
      ['--max-requests', '0'],
      ['--max-requests', '101'],
      ['--from', '2026-13-01'],
      ['--db', ' '],
    ]) {
      const r = await runCli(['analytics', 'sync', ...args], { env: t.env() });
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 2]);
    }
    expect(analyticsRequests()).toBe(0);
  });
});
