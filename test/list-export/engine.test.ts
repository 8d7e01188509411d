// The list-export engine on its own, as any face would run it: a real API client against a loopback
// server, a real file as the output, and no CLI. What it hands back (what was written, how it ended,
// where to carry on) is all a face needs to write its own words (the CLI's are in test/e2e).
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { createDispatcher } from '../../src/api/http.js';
import type { SearchesPage, SearchTerm } from '../../src/api/types.js';
import { ApiError, MintAdminError } from '../../src/errors.js';
import { exportList, type ListSpec } from '../../src/list-export/engine.js';
import type { ListExportOptions } from '../../src/list-export/options.js';
import { SEARCH_COLUMNS } from '../../src/output/cells.js';
import { fileTarget } from '../../src/output/target.js';
import { SEARCHES } from '../../src/paging/endpoints.js';
import { tempDir } from '../helpers/cli.js';
import { SkippingClock } from '../helpers/clock.js';
import { expectedNdjson, term } from '../helpers/searches.js';
import { json, startServer, type Handler } from '../helpers/server.js';

const PROJECT = 'proj_1';
const ROUTE = `GET /v1/analytics/${PROJECT}/searches`;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The server's answer to each cursor ('' = the first page). */
function byCursor(pages: Record<string, Handler>): Handler {
  return (req: IncomingMessage, res) => {
    const cursor = new URL(req.url ?? '', 'http://x').searchParams.get('cursor') ?? '';
    const page = pages[cursor] ?? json(500, { error: `test server: no page for cursor ${cursor}` });
    page(req as never, res);
  };
}

const terms = (prefix: string, n: number): SearchTerm[] =>
  Array.from({ length: n }, (_, i) => term({ searchQuery: `${prefix}${i}`, hits: 100 - i }));
const A = terms('a', 3);
const B = terms('b', 2);

const SPEC: ListSpec<SearchesPage, SearchTerm> = {
  noun: SEARCHES.noun,
  style: SEARCHES.style,
  itemsKey: SEARCHES.itemsKey,
  columns: SEARCH_COLUMNS,
  fetch: (api, projectId, { offset: _none, ...query }) => SEARCHES.fetch(api, projectId, query),
  summary: (last, next) => ({ totalSearches: last?.totalSearches ?? 0, nextCursor: next?.cursor ?? null }),
};

async function run(pages: Record<string, Handler>, format: ListExportOptions['format']) {
  const server = await startServer({ [ROUTE]: byCursor(pages) });
  const dir = tempDir();
  cleanups.push(() => server.close(), dir.cleanup);
  const api = new ApiClient({
    baseUrl: server.url,
    apiKey: 'mint_enginetestkey0123456789',
    userAgent: 'mint-admin/test',
    dispatcher: createDispatcher({}),
    clock: new SkippingClock(),
    random: () => 0.5,
    debug: () => undefined,
  });
  const output = join(dir.path, `out.${format}`);
  const opts: ListExportOptions = {
    dateFrom: undefined,
    dateTo: undefined,
    limit: 100,
    cursor: undefined,
    all: true,
    format,
    output,
    csvRaw: false,
    header: true,
  };
  const seen: number[] = [];
  const outcome = await exportList(SPEC, opts, {
    api,
    projectId: PROJECT,
    target: await fileTarget(output),
    terminal: { stdoutIsTTY: false, columns: undefined, color: false },
    onPage: (sofar) => seen.push(sofar.items),
  });
  return { ...outcome, output, seen, requests: server.requests.length };
}

describe('exportList, with no face around it', () => {
  it('writes every page and says it is done, with nowhere further to go', async () => {
    const r = await run(
      {
        '': json(200, { searches: A, totalSearches: 9, nextCursor: 'c1' }),
        c1: json(200, { searches: B, totalSearches: 9, nextCursor: null }),
      },
      'ndjson',
    );
    expect(r.end).toEqual({ how: 'done' });
    expect(r.result).toMatchObject({ pages: 2, items: 5, requests: 2, next: null });
    expect(r.seen).toEqual([3, 5]);
    expect(readFileSync(r.output, 'utf8')).toBe(expectedNdjson([...A, ...B]));
  });

  it('stopped by a fault after a page: the error, a whole document, and the cursor to carry on from', async () => {
    const r = await run(
      {
        '': json(200, { searches: A, totalSearches: 9, nextCursor: 'c1' }),
        c1: json(200, { searches: B, totalSearches: 9, nextCursor: 'c1' }),
      },
      'json',
    );
    expect(r.end).toMatchObject({ how: 'stopped', resumable: true });
    const error = (r.end as { error: unknown }).error;
    expect(error).toBeInstanceOf(MintAdminError);
    expect((error as Error).message).toContain('the API sent a cursor it had sent before after 1 page');
    expect(r.result).toMatchObject({ pages: 1, items: 3, requests: 2, next: { cursor: 'c1' } });
    expect(JSON.parse(readFileSync(r.output, 'utf8'))).toEqual({ searches: A, totalSearches: 9, nextCursor: 'c1' });
  });

  it('stopped before the first page: not resumable (the run itself is the way to carry on), no file made', async () => {
    const r = await run({ '': json(400, { error: 'bad query' }) }, 'csv');
    expect(r.end).toMatchObject({ how: 'stopped', resumable: false });
    expect((r.end as { error: unknown }).error).toBeInstanceOf(ApiError);
    expect(r.result).toMatchObject({ pages: 0, items: 0, requests: 1 });
    expect(existsSync(r.output)).toBe(false);
  });
});
