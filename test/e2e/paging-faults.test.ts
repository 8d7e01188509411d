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

const terms = (prefix: string, n: number): SearchTerm[] => Array.from({ length: n }, (_, i) => term({ searchQuery: `${prefix}${i}`, hits: 100 - i }));
const A = terms('a', 3);
const B = terms('b', 2);

async function run(pages: Record<string, unknown>, args: string[]) {
  const server = await startServer({ [ROUTE]: byCursor(pages) });
  const dir = tempDir();
  cleanups.push(() => server.close(), dir.cleanup);
  const env = { MINTLIFY_API_URL: server.url, MINTLIFY_ADMIN_API_KEY: KEY, MINTLIFY_PROJECT_ID: PROJECT, HOME: dir.path, XDG_CONFIG_HOME: join(dir.path, 'xdg') };
  const r = await runCli(['searches', 'list', '--all', ...args], { env, cwd: dir.path });
  return { ...r, requests: server.requests.length, dir: dir.path };
}

describe('searches list --all: pages that would loop forever stop with exit 1', () => {
  it.each<[string, Record<string, unknown>, number, string, string | null, SearchTerm[]?]>([
    [
      'a cursor that repeats',
      { '': { searches: A, totalSearches: 9, nextCursor: 'c1' }, c1: { searches: B, totalSearches: 9, nextCursor: 'c1' } },
      2,
      'the API sent a cursor it had sent before after 1 page',
      'c1',
    ],
    [
      'two cursors that point at each other',
      {
        '': { searches: A, totalSearches: 9, nextCursor: 'c1' },
        c1: { searches: B, totalSearches: 9, nextCursor: 'c2' },
        c2: { searches: B, totalSearches: 9, nextCursor: 'c1' },
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
      { '': { searches: A, totalSearches: 9, nextCursor: 'c1' }, c1: { searches: [], totalSearches: 9, nextCursor: 'c2' } },
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
  ])('%s: whole rows written, the request count bounded, the resume command printed', async (_name, pages, requests, problem, resumeCursor, written = A) => {
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
  });

  it('json to stdout: the partial document still parses, and names where to carry on', async () => {
    const r = await run({ '': { searches: A, totalSearches: 9, nextCursor: 'c1' }, c1: { searches: B, totalSearches: 9, nextCursor: 'c1' } }, ['--json']);
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
    const server = await startServer({ [`GET /v1/analytics/${PROJECT}/views`]: json(200, { totals: { human: 5, ai: 1, total: 6 }, views: rows, hasMore: true }) });
    const dir = tempDir();
    cleanups.push(() => server.close(), dir.cleanup);
    const env = { MINTLIFY_API_URL: server.url, MINTLIFY_ADMIN_API_KEY: KEY, MINTLIFY_PROJECT_ID: PROJECT, HOME: dir.path, XDG_CONFIG_HOME: join(dir.path, 'xdg') };
    const r = await runCli(['analytics', 'views', '--all', '--format', 'csv', '-o', 'views.csv'], { env, cwd: dir.path });
    expect(r.code).toBe(1);
    expect(server.requests.map((q) => new URL(q.url ?? '', 'http://x').searchParams.get('offset'))).toEqual([null, '2']);
    expect(r.stderr).toContain('error: unexpected answer from the API while listing pages: the API sent the same page again for a later offset (it may be ignoring offset) after 1 page;');
    expect(readFileSync(join(dir.path, 'views.csv'), 'utf8')).toBe('path,human,ai,total\r\n/a,3,1,4\r\n/b,2,0,2\r\n');
    expect(r.stderr).toContain('mint-admin analytics views --all --format csv --no-header --offset 2 >> views.csv');
  });
});
