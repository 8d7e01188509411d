// contentGaps: the `analytics gaps` engine for scripts, against a loopback server: the ranked gaps,
// a budget that cuts the report short (its requests counted at the server), a 429 returned with the
// report rather than thrown, and a bad query that sends nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient, contentGaps, RateLimitError, UsageError } from '../../src/index.js';
import { FakeClock } from '../helpers/clock.js';
import { json, startServer, type Handler } from '../helpers/server.js';

const PROJECT = 'proj_gaps';
const base = `/v1/analytics/${PROJECT}`;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
let client: AdminClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
});

/** Search terms 10 to a page, each searched 50 times and never clicked, with always a next page. */
const searchPages: Handler = (req, res) => {
  const cursor = new URL(req.url ?? '', 'http://x').searchParams.get('cursor');
  const n = cursor === null ? 0 : Number(cursor.slice(1));
  const searches = Array.from({ length: 10 }, (_, i) => ({
    searchQuery: `term ${n}-${i}`,
    hits: 50 - n,
    ctr: 0,
    topClickedPage: null,
    lastSearchedAt: '2026-01-01T00:00:00Z',
  }));
  json(200, { searches, totalSearches: 1_000_000, nextCursor: `p${n + 1}` })(req, res);
};

async function start(overrides: Record<string, Handler> = {}): Promise<AdminClient> {
  server = await startServer({
    [`GET ${base}/feedback/by-page`]: json(200, {
      feedback: [{ path: '/guides/deploy', thumbsUp: 1, thumbsDown: 9, code: 0, total: 10 }],
      hasMore: false,
    }),
    [`GET ${base}/views`]: json(200, {
      totals: { human: 900, ai: 0, total: 900 },
      views: [{ path: '/guides/deploy', human: 900, ai: 0, total: 900 }],
      hasMore: false,
    }),
    [`GET ${base}/assistant`]: json(200, { conversations: [], nextCursor: null, hasMore: false }),
    [`GET ${base}/searches`]: searchPages,
    ...overrides,
  });
  client = new AdminClient({ apiKey: 'mint_test_key', baseUrl: server.url, clock: new FakeClock() });
  return client;
}

describe('contentGaps', () => {
  it('ranks the gaps and, cut short by maxRequests, says so with the requests the server saw', async () => {
    const { report, rateLimit } = await contentGaps(await start(), PROJECT, { maxRequests: 5 });
    expect(rateLimit).toBeUndefined();
    expect(server!.requests).toHaveLength(5);
    expect(report.requests).toEqual({ used: 5, max: 5 });
    expect(report.partial).toBe(true);
    expect(report.sources.searches).toEqual({
      requests: 2,
      rows: 20,
      incomplete: 'stopped at the request budget after 2 requests',
    });
    // 9 thumbs down x 3 x (1 + log10(1 + 900 / 100)) = 54, above the 50 unclicked searches of a term.
    expect(report.gaps.slice(0, 2).map((g) => [g.kind, g.evidence, g.score])).toEqual([
      ['page', '/guides/deploy', 54],
      ['search', 'term 0-0', 50],
    ]);
    expect(report.gaps).toHaveLength(21);
  });

  it('a 429 is returned with the report, not thrown: the refused request counted, nothing sent after it', async () => {
    const made = await start({
      [`GET ${base}/views`]: json(429, { error: 'rate limited' }, { 'retry-after': '3600' }),
    });
    const { report, rateLimit } = await contentGaps(made, PROJECT);
    expect(rateLimit).toBeInstanceOf(RateLimitError);
    expect(server!.requests.map((r) => r.url.split('?')[0])).toEqual([`${base}/feedback/by-page`, `${base}/views`]);
    expect(report.requests).toEqual({ used: 2, max: 25 });
    expect(report.sources.views.incomplete).toBe('stopped by the analytics rate limit (429)');
    expect(report.sources.searches.incomplete).toBe('not read: the analytics rate limit was reached');
    expect(report.gaps.map((g) => g.evidence)).toEqual(['/guides/deploy']);
  });

  it.each([
    [
      'a budget below one request per source',
      { maxRequests: 3 },
      'maxRequests: 3 is not a budget; give a whole number from 4 to 100',
    ],
    ['a budget past the hourly 100', { maxRequests: 101 }, 'maxRequests: 101 is not a budget'],
    ['dates the wrong way round', { dateFrom: '2026-11-10', dateTo: '2026-11-01' }, 'dateFrom must be before dateTo'],
    ['a date that is not one', { dateFrom: 'last week' }, 'dateFrom'],
  ])('%s is a UsageError with nothing sent', async (_name, query, message) => {
    const made = await start();
    const call = contentGaps(made, PROJECT, query);
    await expect(call).rejects.toThrow(UsageError);
    await expect(call).rejects.toThrow(message);
    expect(server!.requests).toEqual([]);
  });
});
