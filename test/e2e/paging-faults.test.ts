// `searches list --all` against a server whose pages would make a naive loop run forever: the built
// CLI, a loopback server, and a count of the requests it got.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchTerm } from '../../src/api/types.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { expectedCsv, term } from '../helpers/searches.js';
import { json, startServer, type Handler } from '../helpers/server.js';

const KEY = 'mint_pagingtestkey0123456789';
const PROJECT = 'proj_1';
const ROUTE = `GET /v1/analytics/${PROJECT}/searches`;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** The server's answer to each cursor ('' = the first page); a cursor it does not know is a test bug. */
function byCursor(pages: Record<string, unknown>): Handler {
  return (req: IncomingMessage, res) => {
    const cursor = new URL(req.url ?? '', 'http://x').searchParams.get('cursor') ?? '';
    const page = pages[cursor];
    if (page === undefined) return json(500, { error: `test server: no page for cursor ${cursor}` })(req as never, res);
    return json(200, page)(req as never, res);
  };
}

const terms = (prefix: string, n: number): SearchTerm[] =>
  Array.from({ length: n }, (_, i) => term({ searchQuery: `${prefix}${i}`, hits: 100 - i }));
const A = terms('a', 3);
const B = terms('b', 2);

async function run(pages: Record<string, unknown>, args: string[]) {
  const server = await startServer({ [ROUTE]: byCursor(pages) });
  const dir = tempDir();
  cleanups.push(() => server.close(), dir.cleanup);
  const env = {
    MINTLIFY_API_URL: server.url,
    MINTLIFY_ADMIN_API_KEY: KEY,
    MINTLIFY_PROJECT_ID: PROJECT,
    HOME: dir.path,
    XDG_CONFIG_HOME: join(dir.path, 'xdg'),
  };
  const r = await runCli(['searches', 'list', '--all', ...args], { env, cwd: dir.path });
  return { ...r, requests: server.requests.length, dir: dir.path };
}

describe('searches list --all: pages that would loop forever stop with exit 1', () => {
  it.each<[string, Record<string, unknown>, number, string | { boundary: string }, string | null, SearchTerm[]?]>([
    [
      'a cursor that repeats',
      {
        '': { searches: A, totalSearches: 9, nextCursor: 'c1' },
        c1: { searches: B, totalSearches: 9, nextCursor: 'c1' },
      },
      2,
      'the API sent a cursor it had sent before after 1 page',
      'c1',
    ],
    [
      'two cursors that point at each other',
      {
        '': { searches: A, totalSearches: 9, nextCursor: 'c1' },
        c1: { searches: B, totalSearches: 9, nextCursor: 'c2' },
        // Rows of their own, so the cursor is what repeats (a repeated page is a case of its own).
        c2: { searches: terms('c', 2), totalSearches: 9, nextCursor: 'c1' },
      },
      3,
      'the API sent a cursor it had sent before after 2 pages',
      'c2',
      [...A, ...B],
    ],
    [
      'a missing cursor',
      { '': { searches: A, totalSearches: 9, nextCursor: 'c1' }, c1: { searches: B, totalSearches: 9 } },
      2,
      // The boundary catches this one: nextCursor is required (null on the last page) by the schema.
      { boundary: 'to GET /v1/analytics/{projectId}/searches: nextCursor is missing' },
      'c1',
    ],
    [
      'an empty page that claims more',
      {
        '': { searches: A, totalSearches: 9, nextCursor: 'c1' },
        c1: { searches: [], totalSearches: 9, nextCursor: 'c2' },
      },
      2,
      'the API sent an empty page while saying there are more after 1 page',
      'c1',
    ],
    [
      'an empty first page that claims more',
      { '': { searches: [], totalSearches: 9, nextCursor: 'c1' } },
      1,
      'the API sent an empty page while saying there are more on the first page',
      null,
    ],
  ])(
    '%s: whole rows written, the request count bounded, the resume command printed',
    async (_name, pages, requests, problem, resumeCursor, written = A) => {
      const r = await run(pages, ['--format', 'csv', '-o', 'out.csv']);
      expect(r.code).toBe(1);
      expect(r.requests).toBe(requests);
      expect(r.stderr).toContain(
        typeof problem === 'string'
          ? `error: unexpected answer from the API while listing search terms: ${problem}; stopped rather than loop (try again later, or report it to Mintlify support if it persists)\n`
          : `error: unexpected answer from the API ${problem.boundary}\n`,
      );
      if (resumeCursor === null) {
        expect(r.stderr).not.toContain('To carry on');
        return;
      }
      expect(readFileSync(join(r.dir, 'out.csv'), 'utf8')).toBe(expectedCsv(written));
      const pagesWritten = requests - 1;
      expect(r.stderr).toContain(
        `warning: stopped after ${written.length} terms (${pagesWritten} ${pagesWritten === 1 ? 'page' : 'pages'}); what was written to out.csv ends with a whole row.\nTo carry on from the next term (it appends the rest to out.csv), run:\n  mint-admin searches list --all --format csv --no-header --cursor ${resumeCursor} >> out.csv\n`,
      );
    },
  );

  it('json to stdout: the partial document still parses, and names where to carry on', async () => {
    const r = await run(
      {
        '': { searches: A, totalSearches: 9, nextCursor: 'c1' },
        c1: { searches: B, totalSearches: 9, nextCursor: 'c1' },
      },
      ['--json'],
    );
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ searches: A, totalSearches: 9, nextCursor: 'c1' });
    expect(r.stderr).toContain('  mint-admin searches list --all --format json --cursor c1\n');
  });
});

describe('analytics views --all: an API that ignores offset', () => {
  it('stops with exit 1 at the first page sent again, with the rows before it written once and the command to carry on', async () => {
    const rows = [
      { path: '/a', human: 3, ai: 1, total: 4 },
      { path: '/b', human: 2, ai: 0, total: 2 },
    ];
    // Whatever offset is asked for, the first page again, "with more to come": a naive loop never ends.
    const server = await startServer({
      [`GET /v1/analytics/${PROJECT}/views`]: json(200, {
        totals: { human: 5, ai: 1, total: 6 },
        views: rows,
        hasMore: true,
      }),
    });
    const dir = tempDir();
    cleanups.push(() => server.close(), dir.cleanup);
    const env = {
      MINTLIFY_API_URL: server.url,
      MINTLIFY_ADMIN_API_KEY: KEY,
      MINTLIFY_PROJECT_ID: PROJECT,
      HOME: dir.path,
      XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    };
    const r = await runCli(['analytics', 'views', '--all', '--format', 'csv', '-o', 'views.csv'], {
      env,
      cwd: dir.path,
    });
    expect(r.code).toBe(1);
    expect(server.requests.map((q) => new URL(q.url ?? '', 'http://x').searchParams.get('offset'))).toEqual([
      null,
      '2',
    ]);
    expect(r.stderr).toContain(
      'error: unexpected answer from the API while listing pages: the API sent the same page again for a later offset (it may be ignoring offset) after 1 page;',
    );
    expect(readFileSync(join(dir.path, 'views.csv'), 'utf8')).toBe('path,human,ai,total\r\n/a,3,1,4\r\n/b,2,0,2\r\n');
    expect(r.stderr).toContain('mint-admin analytics views --all --format csv --no-header --offset 2 >> views.csv');
  });
});

/**
 * A server that answers request n (0-based) with page(n), whatever is asked; past RUNAWAY requests it
 * ends the listing, so a CLI that does not stop itself still finishes and the count shows it.
 */
const RUNAWAY = 60;
function perRequest(page: (n: number) => Record<string, unknown>, last: Record<string, unknown>): Handler {
  let n = 0;
  return (req, res) => json(200, n >= RUNAWAY ? last : page(n++))(req, res);
}

const traffic = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ path: `/${prefix}${i}`, human: 2, ai: 1, total: 3 }));
const feedbackItem = (id: string) => ({
  id,
  path: '/p',
  comment: 'ok',
  createdAt: null,
  source: 'thumbs_only',
  status: 'pending',
});
const conversation = (id: string) => ({
  id,
  timestamp: '2026-11-01T00:00:00Z',
  query: 'q',
  response: 'r',
  sources: [],
  resolutionStatus: 'answered',
  queryCategory: null,
  pageUrl: null,
});
const totals = (total: number) => ({ human: total, ai: 0, total });

describe('every paging shape: a page seen anywhere before in the listing stops it (exit 1) in a handful of requests', () => {
  it.each<[string, string[], string, (n: number) => Record<string, unknown>, Record<string, unknown>, string]>([
    [
      'views (offset + hasMore): pages X, Y, X, Y, ...',
      ['analytics', 'views'],
      'views',
      (n) => ({ totals: totals(1_000_000), views: traffic(n % 2 ? 'y' : 'x', 3), hasMore: true }),
      { totals: totals(1_000_000), views: [], hasMore: false },
      'listing pages: the API sent the same page again for a later offset (it may be ignoring offset) after 2 pages',
    ],
    [
      'visitors (offset + hasMore): pages X, Y, X, Y, ...',
      ['analytics', 'visitors'],
      'visitors',
      (n) => ({ totals: totals(1_000_000), visitors: traffic(n % 2 ? 'y' : 'x', 3), hasMore: true }),
      { totals: totals(1_000_000), visitors: [], hasMore: false },
      'listing pages: the API sent the same page again for a later offset (it may be ignoring offset) after 2 pages',
    ],
    [
      'searches (cursor + nextCursor): pages X, Y, X, Y, ... each under a new cursor',
      ['searches', 'list'],
      'searches',
      (n) => ({ searches: n % 2 ? B : A, totalSearches: 1_000_000, nextCursor: `c${n}` }),
      { searches: [], totalSearches: 1_000_000, nextCursor: null },
      'listing search terms: the API sent a page it had sent before, for a new cursor after 2 pages',
    ],
    [
      'feedback (cursor + hasMore): pages X, Y, X, Y, ... each under a new cursor',
      ['analytics', 'feedback'],
      'feedback',
      (n) => ({ feedback: [feedbackItem(n % 2 ? 'y' : 'x')], nextCursor: `c${n}`, hasMore: true }),
      { feedback: [], nextCursor: null, hasMore: false },
      'listing feedback entries: the API sent a page it had sent before, for a new cursor after 2 pages',
    ],
    [
      'conversations (cursor + hasMore): a cursor from two pages back',
      ['analytics', 'conversations'],
      'assistant',
      (n) => ({ conversations: [conversation(`id${n}`)], nextCursor: `c${n % 2}`, hasMore: true }),
      { conversations: [], nextCursor: null, hasMore: false },
      'listing conversations: the API sent a cursor it had sent before after 2 pages',
    ],
  ])('%s', async (_name, command, route, page, last, problem) => {
    const server = await startServer({ [`GET /v1/analytics/${PROJECT}/${route}`]: perRequest(page, last) });
    const dir = tempDir();
    cleanups.push(() => server.close(), dir.cleanup);
    const env = {
      MINTLIFY_API_URL: server.url,
      MINTLIFY_ADMIN_API_KEY: KEY,
      MINTLIFY_PROJECT_ID: PROJECT,
      HOME: dir.path,
      XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    };
    const r = await runCli([...command, '--all', '--format', 'csv', '-o', 'out.csv'], { env, cwd: dir.path });
    expect(server.requests).toHaveLength(3);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error: unexpected answer from the API while ${problem};`);
  });
});

describe('a listing cannot run past the total the API reports', () => {
  it.each<[string, string[], string, (n: number) => Record<string, unknown>, Record<string, unknown>, string]>([
    [
      'views: fresh rows on every page, 30 views in total',
      ['analytics', 'views'],
      'views',
      (n) => ({ totals: totals(30), views: traffic(`p${n}.`, 10), hasMore: true }),
      { totals: totals(30), views: [], hasMore: false },
      "listing pages: the API said there are more after 40 pages, more than the 30 in its own total (and a page's slack) after 3 pages",
    ],
    [
      'searches: fresh terms under fresh cursors, 30 searches in total',
      ['searches', 'list'],
      'searches',
      (n) => ({ searches: terms(`t${n}.`, 10), totalSearches: 30, nextCursor: `c${n}` }),
      { searches: [], totalSearches: 30, nextCursor: null },
      "listing search terms: the API said there are more after 40 search terms, more than the 30 in its own total (and a page's slack) after 3 pages",
    ],
  ])('%s', async (_name, command, route, page, last, problem) => {
    const server = await startServer({ [`GET /v1/analytics/${PROJECT}/${route}`]: perRequest(page, last) });
    const dir = tempDir();
    cleanups.push(() => server.close(), dir.cleanup);
    const env = {
      MINTLIFY_API_URL: server.url,
      MINTLIFY_ADMIN_API_KEY: KEY,
      MINTLIFY_PROJECT_ID: PROJECT,
      HOME: dir.path,
      XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    };
    const r = await runCli([...command, '--all', '--format', 'csv', '-o', 'out.csv'], { env, cwd: dir.path });
    // ceil(30 / 10) pages the total allows, and one page of slack for rows that arrive during the walk.
    expect(server.requests).toHaveLength(4);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error: unexpected answer from the API while ${problem};`);
  });
});

// totalSearches counts search events (the sum of hits), not terms: it bounds the terms only where
// every term was searched at least once, and a listing asked for one page is never stopped by it.
// The published document's own example answer is the first case (what Prism serves).
describe('a reported total that does not bound the terms stops nothing', () => {
  const zeroHits = (q: string) => term({ searchQuery: q, hits: 0 });
  async function serve(pages: Record<string, unknown>, args: string[]) {
    const server = await startServer({ [ROUTE]: byCursor(pages) });
    const dir = tempDir();
    cleanups.push(() => server.close(), dir.cleanup);
    const env = {
      MINTLIFY_API_URL: server.url,
      MINTLIFY_ADMIN_API_KEY: KEY,
      MINTLIFY_PROJECT_ID: PROJECT,
      HOME: dir.path,
      XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    };
    return runCli(['searches', 'list', ...args], { env });
  }

  it('one page (no --all): totalSearches 0 with a next cursor prints the page and the cursor, exit 0', async () => {
    const r = await serve({ '': { searches: [zeroHits('string')], totalSearches: 0, nextCursor: 'string' } }, [
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ searches: [zeroHits('string')], totalSearches: 0, nextCursor: 'string' });
  });

  it('one page (no --all) is not stopped by the total even when every term has hits', async () => {
    const r = await serve({ '': { searches: A, totalSearches: 1, nextCursor: 'c1' } }, ['--format', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expectedCsv(A));
  });

  it('--all: terms with no hits are listed past a total of 0 to the last page', async () => {
    const pages = {
      '': { searches: [zeroHits('z0'), zeroHits('z1')], totalSearches: 0, nextCursor: 'c1' },
      c1: { searches: [zeroHits('z2'), zeroHits('z3')], totalSearches: 0, nextCursor: 'c2' },
      c2: { searches: [zeroHits('z4')], totalSearches: 0, nextCursor: null },
    };
    const r = await serve(pages, ['--all', '--format', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expectedCsv(['z0', 'z1', 'z2', 'z3', 'z4'].map(zeroHits)));
  });
});
