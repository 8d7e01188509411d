// Dates as users give them, at the seam they meet: the CLI in-process with a fake clock against the
// sandbox. A duration before now (7d, 12h, 2w, 30m) is that long before the run's clock, UTC, in every
// command that takes a date; years are four digits and mean what they say; a date before the API can
// hold data is a usage error (exit 2) that says so, sent nowhere, and costs no planning.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { FakeClock } from '../helpers/clock.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox(
  { searchTermCount: 20, analytics: { pages: 5, feedback: 5, conversations: 5 } },
  { homePerTest: true },
);
const NOW = Date.UTC(2026, 10, 22, 12); // Sunday 2026-11-22 12:00 UTC
const run = (...args: string[]) => runInProcess(args, { env: t.env(), clock: new FakeClock(NOW) });
/** The query of every request to a route, in order. */
const sent = (route: string) =>
  t.sandbox.requests
    .map((r) => new URL(r.path, 'http://x'))
    .filter((u) => u.pathname.endsWith(`/${route}`))
    .map((u) => Object.fromEntries(u.searchParams));

describe('a duration before now, in every command that takes a date', () => {
  it.each([
    ['searches list', ['searches', 'list'], 'searches'],
    ['analytics views', ['analytics', 'views'], 'views'],
    ['analytics visitors', ['analytics', 'visitors'], 'visitors'],
    ['analytics feedback', ['analytics', 'feedback'], 'feedback'],
    ['analytics conversations', ['analytics', 'conversations'], 'assistant'],
    ['analytics callers', ['analytics', 'callers'], 'caller-stats'],
  ])('%s --from 2w --to 12h sends the instants they name', async (_name, command, route) => {
    const r = await run(...command, '--from', '2w', '--to', '12h', '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(sent(route)[0]).toMatchObject({ dateFrom: '2026-11-08T12:00:00.000Z', dateTo: '2026-11-22T00:00:00.000Z' });
  });

  it('analytics gaps --from 7d: every source it reads gets the same instant', async () => {
    const r = await run('analytics', 'gaps', '--from', '7d', '--max-requests', '8', '--json');
    expect(r.code).toBe(0);
    const froms = ['searches', 'views', 'assistant'].flatMap((route) => sent(route).map((q) => q.dateFrom));
    expect(froms.length).toBeGreaterThan(0);
    expect(new Set(froms)).toEqual(new Set(['2026-11-15T12:00:00.000Z']));
  });

  it('analytics sync --from 3d reaches back to the start of that UTC day', async () => {
    const db = join(t.home, 'a.duckdb');
    const r = await run('analytics', 'sync', '--db', db, '--from', '3d', '--max-requests', '100', '--json');
    expect(r.code).toBe(0);
    const days = sent('views')
      .map((q) => q.dateFrom)
      .sort();
    expect(days[0]).toBe('2026-11-19');
  });

  it('a resume command names the instant, not the duration (it means the same range later)', async () => {
    const term = { searchQuery: 'a', hits: 3, ctr: 0, topClickedPage: null, lastSearchedAt: '2026-11-20T10:00:00Z' };
    t.sandbox.faults.inject({
      route: 'searches.list',
      status: 200,
      body: { searches: [term], totalSearches: 9, nextCursor: 'c1' },
    });
    t.sandbox.faults.inject({ route: 'searches.list', status: 429, retryAfter: 7200, times: 10 });
    const r = await run('searches', 'list', '--from', '7d', '--all', '--format', 'csv');
    expect(r.code).toBe(6); // rate limited
    expect(r.stderr).toContain('mint-admin searches list --from 2026-11-15T12:00:00.000Z --all');
    expect(r.stderr).not.toContain('7d');
  });
});

describe('years are four digits and mean what they say', () => {
  it.each([
    [['searches', 'list', '--from', '0050-06-15'], '--from: "0050-06-15" is before 2020-01-01'],
    [['searches', 'list', '--from', '1960-01-01', '--to', '0099-01-01'], '--from: "1960-01-01" is before 2020-01-01'],
    [['analytics', 'views', '--to', '0099-01-01'], '--to: "0099-01-01" is before 2020-01-01'],
    [['analytics', 'gaps', '--from', '0000-02-29'], '--from: "0000-02-29" is before 2020-01-01'],
  ])('%j is a usage error that says the API holds nothing that early; nothing is sent', async (args, message) => {
    const r = await run(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(t.sandbox.requests).toEqual([]);
  });

  it('analytics sync --from 0100-01-01 (a typo) is exit 2 before the database is even opened: nothing planned, nothing kept', async () => {
    const db = join(t.home, 'typo.duckdb');
    const r = await run('analytics', 'sync', '--db', db, '--from', '0100-01-01');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--from: "0100-01-01" is before 2020-01-01, earlier than the Admin API holds any data/);
    expect(t.sandbox.requests).toEqual([]);
    const again = await run('analytics', 'sync', '--db', db, '--max-requests', '1', '--json');
    expect(again.code).toBe(0);
    expect(sent('views').every((q) => (q.dateFrom ?? '') >= '2026-10-23')).toBe(true);
  });
});

describe('a far --from kept by an earlier version costs no more planning than the earliest the API holds', () => {
  it('a database whose kept reach is 0100-01-01 syncs with a bounded plan, from 2020-01-01 at the earliest', async () => {
    const db = join(t.home, 'kept.duckdb');
    expect((await run('analytics', 'sync', '--db', db, '--from', '1d', '--max-requests', '100')).code).toBe(0);
    // What a version that read 0100 as the year 100 kept (it planned a window for every day since).
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(db);
    const connection = await instance.connect();
    await connection.run("UPDATE sync_state SET window_to = TIMESTAMP '0100-01-01 00:00:00' WHERE stream = '_reach'");
    connection.closeSync();
    instance.closeSync();
    const r = await run('analytics', 'sync', '--db', db, '--max-requests', '1', '--json');
    expect(r.code).toBe(0);
    const { windowsLeft } = JSON.parse(r.stdout) as { windowsLeft: number };
    // Five day streams from 2020-01-01 to 2026-11-22 (about 2,520 days each), and a few item windows.
    expect(windowsLeft).toBeGreaterThan(2_500);
    expect(windowsLeft).toBeLessThan(5 * 2_530 + 10);
  });
});
