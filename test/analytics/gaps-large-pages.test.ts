// `analytics gaps` against pages longer than a call can take arguments: each page's rows were added
// with push(...rows), which overflows the stack past ~120,000 (issue 28).
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { json, startServer } from '../helpers/server.js';

const MANY = 150_000;
const PROJECT = 'proj_large';
let server: Awaited<ReturnType<typeof startServer>> | undefined;
afterEach(async () => server?.close());

describe('analytics gaps with very long pages', () => {
  it('reads a views page and a searches page of 150,000 rows each', async () => {
    const views = Array.from({ length: MANY }, (_, i) => ({ path: `/p${i}`, human: 1, ai: 0, total: 1 }));
    const searches = Array.from({ length: MANY }, (_, i) => ({
      searchQuery: `q${i}`,
      hits: 10,
      ctr: 0,
      topClickedPage: null,
      lastSearchedAt: '2026-01-01T00:00:00Z',
    }));
    server = await startServer({
      [`GET /v1/analytics/${PROJECT}/views`]: json(200, {
        totals: { human: MANY, ai: 0, total: MANY },
        views,
        hasMore: false,
      }),
      [`GET /v1/analytics/${PROJECT}/feedback/by-page`]: json(200, { feedback: [], hasMore: false }),
      [`GET /v1/analytics/${PROJECT}/assistant`]: json(200, { conversations: [], nextCursor: null, hasMore: false }),
      [`GET /v1/analytics/${PROJECT}/searches`]: json(200, { searches, totalSearches: MANY * 10, nextCursor: null }),
    });
    const r = await runCli(['analytics', 'gaps', '--format', 'json'], {
      env: { MINTLIFY_API_URL: server.url, MINTLIFY_ADMIN_API_KEY: 'mint_test_key', MINTLIFY_PROJECT_ID: PROJECT },
    });
    expect(r.stderr).not.toMatch(/Maximum call stack/);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).gaps.length).toBeGreaterThan(0);
    expect(server.unexpected).toEqual([]);
  }, 60_000);
});
