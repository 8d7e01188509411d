// `analytics gaps` reports the requests it sent, as the server counted them, however the report ends:
// cut short by --max-requests, stopped early once search terms are too rare (on pages smaller than
// the API's largest, where a count estimated from the rows was short), or cut by a 429 (the refused
// request was sent too).
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { json, startServer, type Handler } from '../helpers/server.js';

const PROJECT = 'proj_budget';
const base = `/v1/analytics/${PROJECT}`;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
afterEach(async () => server?.close());

/** Search terms 10 to a page whatever the limit asked; from page `rareFrom` on, searched once each. */
function searchPages(rareFrom = Infinity): Handler {
  return (req: IncomingMessage, res) => {
    const cursor = new URL(req.url ?? '', 'http://x').searchParams.get('cursor');
    const n = cursor === null ? 0 : Number(cursor.slice(1));
    const searches = Array.from({ length: 10 }, (_, i) => ({
      searchQuery: `term ${n}-${i}`,
      hits: n >= rareFrom ? 1 : 50,
      ctr: 0,
      topClickedPage: null,
      lastSearchedAt: '2026-01-01T00:00:00Z',
    }));
    json(200, { searches, totalSearches: 1_000_000, nextCursor: `p${n + 1}` })(
      req as IncomingMessage & { body: string },
      res,
    );
  };
}

const routes = (overrides: Record<string, Handler> = {}): Record<string, Handler> => ({
  [`GET ${base}/feedback/by-page`]: json(200, { feedback: [], hasMore: false }),
  [`GET ${base}/views`]: json(200, {
    totals: { human: 10, ai: 0, total: 10 },
    views: [{ path: '/a', human: 10, ai: 0, total: 10 }],
    hasMore: false,
  }),
  [`GET ${base}/assistant`]: json(200, { conversations: [], nextCursor: null, hasMore: false }),
  [`GET ${base}/searches`]: searchPages(),
  ...overrides,
});

interface Report {
  requests: { used: number; max: number };
  partial: boolean;
  sources: Record<string, { requests: number; rows: number; incomplete: string | null }>;
}

async function gaps(args: string[]) {
  const r = await runCli(['analytics', 'gaps', '--format', 'json', ...args], {
    env: { MINTLIFY_API_URL: server!.url, MINTLIFY_ADMIN_API_KEY: 'mint_test_key', MINTLIFY_PROJECT_ID: PROJECT },
  });
  return { ...r, report: JSON.parse(r.stdout) as Report };
}

const sentTo = (path: string) => server!.requests.filter((r) => r.url.split('?')[0] === `${base}${path}`).length;

describe('analytics gaps counts the requests it sent', () => {
  it('cut short by --max-requests: every request the budget allowed, each counted where it went', async () => {
    server = await startServer(routes());
    const { code, report, stderr } = await gaps(['--max-requests', '6']);
    expect(code).toBe(0);
    expect(server.requests).toHaveLength(6);
    expect(report.requests).toEqual({ used: 6, max: 6 });
    expect(report.partial).toBe(true);
    expect(report.sources.searches).toEqual({
      requests: 3,
      rows: 30,
      incomplete: 'stopped at the request budget after 3 requests',
    });
    expect(report.sources.searches!.requests).toBe(sentTo('/searches'));
    expect(stderr).toMatch(
      /^warning: partial report: search terms: stopped at the request budget after 3 requests; 6 of 6 analytics requests used/m,
    );
    expect(server.unexpected).toEqual([]);
  });

  it('stopped once search terms are too rare, on pages of 10: the two search requests sent, not one per 100 rows', async () => {
    server = await startServer(routes({ [`GET ${base}/searches`]: searchPages(1) }));
    const { code, report } = await gaps([]);
    expect(code).toBe(0);
    expect(sentTo('/searches')).toBe(2);
    expect(report.sources.searches).toEqual({ requests: 2, rows: 20, incomplete: null });
    expect(report.requests.used).toBe(server.requests.length);
    expect(report.requests.used).toBe(5);
    expect(report.partial).toBe(false);
  });

  it('cut by a 429: the refused request counts, the sources after it send nothing, exit 6', async () => {
    server = await startServer(
      routes({ [`GET ${base}/assistant`]: json(429, { error: 'rate limited' }, { 'retry-after': '3600' }) }),
    );
    const { code, report } = await gaps([]);
    expect(code).toBe(6);
    expect(sentTo('/assistant')).toBe(1);
    expect(sentTo('/searches')).toBe(0);
    expect(report.sources.conversations).toEqual({
      requests: 1,
      rows: 0,
      incomplete: 'stopped by the analytics rate limit (429)',
    });
    expect(report.requests.used).toBe(server.requests.length);
    expect(report.requests.used).toBe(3);
  });
});
