// `analytics sync` against a server that answers wrongly: the sync must stop after a handful of
// requests, not spend its budget (and every later run's) walking a cursor that repeats.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startOfUtcDay } from '../../src/analytics-store/sync/plan.js';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox(
  { searchTermCount: 20, analytics: { pages: 5, feedback: 5, conversations: 5 } },
  { homePerTest: true },
);
const today = () => new Date(startOfUtcDay(Date.now())).toISOString().slice(0, 10);
const sent = (route: string) => t.sandbox.requests.filter((r) => r.path.split('?')[0]!.endsWith(route)).length;

const term = (q: string) => ({
  searchQuery: q,
  hits: 1,
  ctr: 0,
  topClickedPage: null,
  lastSearchedAt: new Date().toISOString(),
});
const searchesPage = (q: string, nextCursor: string | null) => ({
  searches: [term(q)],
  totalSearches: 1000,
  nextCursor,
});

async function sync(db: string, ...args: string[]) {
  return runCli(['analytics', 'sync', '--db', db, '--from', today(), '--json', ...args], { env: t.env() });
}

describe('analytics sync against a hostile server', () => {
  it.each([
    ['repeats its cursor', ['A', 'A', 'A', 'A', 'A', 'A']],
    ['alternates two cursors', ['A', 'B', 'A', 'B', 'A', 'B']],
  ])(
    'a server that %s is stopped within a few requests, exit 1, and the next run does not loop either',
    async (_name, cursors) => {
      const db = join(t.home, 'a.duckdb');
      for (let run = 0; run < 2; run++) {
        const before = sent('/searches');
        for (let i = 0; i < 60; i++)
          t.sandbox.faults.inject({
            route: 'searches.list',
            status: 200,
            body: searchesPage(`q${i}`, cursors[i % cursors.length]!),
          });
        const r = await sync(db, '--max-requests', '50');

        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/sent a cursor it had sent before/);
        const searches = sent('/searches') - before;
        expect(searches).toBeGreaterThanOrEqual(1);
        expect(searches).toBeLessThanOrEqual(3);
      }
    },
  );

  it('a server that ignores the offset (the same views page again, "more" each time) is stopped on the second page, exit 1', async () => {
    const db = join(t.home, 'v.duckdb');
    const page = {
      totals: { human: 9, ai: 0, total: 9 },
      views: [{ path: '/a', human: 9, ai: 0, total: 9 }],
      hasMore: true,
    };
    t.sandbox.faults.inject({ route: 'views.list', status: 200, body: page, times: 60 });
    const r = await sync(db, '--max-requests', '50');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the same page again for a later offset/);
    expect(sent('/views')).toBe(2);
  });

  it('a time with a UTC offset is stored as the UTC instant it names, on its UTC day', async () => {
    const db = join(t.home, 'tz.duckdb');
    const conversation = {
      id: 'tz1',
      timestamp: '2026-11-27T23:30:00-05:00',
      query: 'q',
      response: 'r',
      sources: [],
      resolutionStatus: 'unanswered',
      queryCategory: null,
      pageUrl: null,
    };
    t.sandbox.faults.inject({
      route: 'assistant.list',
      status: 200,
      body: { conversations: [conversation], nextCursor: null, hasMore: false },
    });
    const r = await sync(db, '--max-requests', '50');
    expect(r.code).toBe(0);
    const q = await runCli(
      [
        'analytics',
        'query',
        '--db',
        db,
        '--format',
        'csv',
        "SELECT date, strftime(timestamp, '%Y-%m-%d %H:%M:%S') AS at FROM conversations WHERE id = 'tz1'",
      ],
      { env: t.env() },
    );
    expect(q.stdout).toBe('date,at\r\n2026-11-28,2026-11-28 04:30:00\r\n');
  });

  it('a number past a double (1e400) is a bad answer from the API, exit 1, not a disk-full failure; nothing of the page stored', async () => {
    const db = join(t.home, 'n.duckdb');
    const body =
      '{"searches":[{"searchQuery":"x","hits":1e400,"ctr":0.5,"topClickedPage":null,"lastSearchedAt":"2026-11-27T10:00:00Z"}],"totalSearches":1,"nextCursor":null}';
    t.sandbox.faults.inject({ route: 'searches.list', status: 200, body, times: 5 });
    const r = await sync(db, '--max-requests', '50');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /unexpected answer from the API to [^\n]*searches[^\n]*: searches\.0\.hits is not a finite number/,
    );
    expect(r.stderr).not.toMatch(/make room|could not be written/);
    const q = await runCli(
      ['analytics', 'query', '--db', db, "SELECT count(*) AS n FROM searches WHERE search_query = 'x'"],
      { env: t.env() },
    );
    expect(q.stdout).toBe('n\n0\n');
  });

  it('reader text holding a lone surrogate (an emoji cut in half) is stored with U+FFFD in its place, the endpoints after it are read, and --debug says so', async () => {
    const db = join(t.home, 'u.duckdb');
    const now = new Date().toISOString();
    // Raw bodies: a JSON escape of half a surrogate pair, as a server sends it.
    const searches = `{"searches":[{"searchQuery":"cut \\ud83d here","hits":1,"ctr":0,"topClickedPage":null,"lastSearchedAt":"${now}"}],"totalSearches":1,"nextCursor":null}`;
    const feedback = `{"feedback":[{"id":"f-cut","path":"/a","comment":"tail \\ude00","createdAt":"${now}","source":"thumbs_only","status":"pending"}],"nextCursor":null,"hasMore":false}`;
    const assistant = `{"conversations":[{"id":"c-cut","timestamp":"${now}","query":"\\ud83d","response":"r \\udfff\\ud800","sources":[],"resolutionStatus":"answered","queryCategory":null,"pageUrl":null}],"nextCursor":null,"hasMore":false}`;
    for (const [route, body] of [
      ['searches.list', searches],
      ['feedback.list', feedback],
      ['assistant.list', assistant],
    ] as const)
      t.sandbox.faults.inject({ route, status: 200, body });
    const r = await sync(db, '--max-requests', '50', '--debug');
    expect(r.stderr).not.toMatch(/make room|could not be written/);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/lone UTF-16 surrogates? [^\n]*U\+FFFD/);
    expect(sent('/views')).toBeGreaterThan(0);
    const q = await runCli(
      [
        'analytics',
        'query',
        '--db',
        db,
        '--format',
        'json',
        "SELECT (SELECT search_query FROM searches WHERE search_query LIKE 'cut %') AS s, (SELECT comment FROM feedback WHERE id = 'f-cut') AS f, (SELECT query || '|' || response FROM conversations WHERE id = 'c-cut') AS c",
      ],
      { env: t.env() },
    );
    expect(JSON.parse(q.stdout).rows).toEqual([{ s: 'cut \ufffd here', f: 'tail \ufffd', c: '\ufffd|r \ufffd\ufffd' }]);
  });

  it('without --debug the repair is silent (stderr holds no per-page detail)', async () => {
    const db = join(t.home, 'u2.duckdb');
    const body = `{"searches":[{"searchQuery":"x\\ud83d","hits":1,"ctr":0,"topClickedPage":null,"lastSearchedAt":"${new Date().toISOString()}"}],"totalSearches":1,"nextCursor":null}`;
    t.sandbox.faults.inject({ route: 'searches.list', status: 200, body });
    const r = await sync(db, '--max-requests', '50');
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/surrogate/);
  });

  it('a time in year -1 (ISO 8601 expanded years) is stored on its own day, not with a NULL date', async () => {
    const db = join(t.home, 'y.duckdb');
    const conv = {
      id: 'c-bc',
      timestamp: '-000001-06-01T10:00:00Z',
      query: 'q',
      response: 'r',
      sources: [],
      resolutionStatus: 'answered',
      queryCategory: null,
      pageUrl: null,
    };
    t.sandbox.faults.inject({
      route: 'assistant.list',
      status: 200,
      body: { conversations: [conv], nextCursor: null, hasMore: false },
    });
    const r = await sync(db, '--max-requests', '50');
    expect(r.code).toBe(0);
    const q = await runCli(
      [
        'analytics',
        'query',
        '--db',
        db,
        '--format',
        'csv',
        "SELECT coalesce(date::VARCHAR, 'null') AS d, date = timestamp::DATE AS same FROM conversations WHERE id = 'c-bc'",
      ],
      { env: t.env() },
    );
    expect(q.stdout).toBe('d,same\r\n0002-06-01 (BC),1\r\n');
  });

  it('a malformed time from the server is stored as NULL, not a failed write that would stop every later run at the same page', async () => {
    const db = join(t.home, 'd.duckdb');
    t.sandbox.faults.inject({
      route: 'searches.list',
      status: 200,
      body: { searches: [{ ...term('odd'), lastSearchedAt: 'yesterday' }], totalSearches: 1, nextCursor: null },
    });
    const conv = {
      id: 'c-odd',
      timestamp: 'garbage',
      query: 'q',
      response: 'r',
      sources: [],
      resolutionStatus: 'answered',
      queryCategory: null,
      pageUrl: null,
    };
    t.sandbox.faults.inject({
      route: 'assistant.list',
      status: 200,
      body: { conversations: [conv], nextCursor: null, hasMore: false },
    });
    const r = await sync(db, '--max-requests', '50');
    expect(r.code).toBe(0);
    const q = await runCli(
      [
        'analytics',
        'query',
        '--db',
        db,
        "SELECT (SELECT last_searched_at FROM searches WHERE search_query = 'odd') AS s, (SELECT coalesce(timestamp::VARCHAR, 'null') || ' ' || coalesce(date::VARCHAR, 'null') FROM conversations WHERE id = 'c-odd') AS c",
      ],
      { env: t.env() },
    );
    expect(q.stdout).toBe('s\tc\n\tnull null\n');
  });
});
