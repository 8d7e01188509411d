import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchesPage, SearchTerm } from '../../src/api/types.js';
import { SANDBOX_FIXED_DATA_END, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from './helpers.js';

let sandbox: Sandbox;
const path = (query: Record<string, string>) =>
  `/v1/analytics/${sandbox.projectId}/searches?${new URLSearchParams(query)}`;
const list = (query: Record<string, string> = {}) => call<SearchesPage>(sandbox, 'GET', path(query));

beforeAll(async () => {
  // The tests below ask for dates in October 2026: pin the data there, whatever today is.
  sandbox = await startSandbox({ dataEndsAt: SANDBOX_FIXED_DATA_END });
});
afterAll(() => sandbox.close());

async function pageThrough(query: Record<string, string>): Promise<{ terms: SearchTerm[]; totals: number[] }> {
  const terms: SearchTerm[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  do {
    const res = await list(cursor ? { ...query, cursor } : query);
    expect(res.status).toBe(200);
    terms.push(...res.body.searches);
    totals.push(res.body.totalSearches);
    cursor = res.body.nextCursor;
  } while (cursor !== null);
  return { terms, totals };
}

const byHitsThenQuery = (a: SearchTerm, b: SearchTerm) =>
  b.hits - a.hits || (a.searchQuery < b.searchQuery ? -1 : a.searchQuery > b.searchQuery ? 1 : 0);

describe('search analytics', () => {
  it('returns the first page of 50 in hits order with every required field', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.searches).toHaveLength(50);
    expect(res.body.searches).toEqual([...res.body.searches].sort(byHitsThenQuery));
    for (const term of res.body.searches) {
      expect(Object.keys(term).sort()).toEqual(['ctr', 'hits', 'lastSearchedAt', 'searchQuery', 'topClickedPage']);
      expect(term.ctr).toBeGreaterThanOrEqual(0);
      expect(term.ctr).toBeLessThanOrEqual(1);
      expect(term.topClickedPage === null || /^\/[a-z]/.test(term.topClickedPage)).toBe(true);
      expect(new Date(term.lastSearchedAt).toISOString()).toBe(term.lastSearchedAt);
    }
    expect(res.body.nextCursor).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]+$/));
  });

  it('pages through every term exactly once, in the order of searchTerms(), with a stable total', async () => {
    const all = sandbox.searchTerms();
    expect(all).toHaveLength(3000);
    const { terms, totals } = await pageThrough({ limit: '100' });
    expect(terms).toEqual(all);
    expect(new Set(terms.map((t) => t.searchQuery)).size).toBe(3000);
    expect(new Set(totals)).toEqual(new Set([all.reduce((sum, t) => sum + t.hits, 0)]));
  });

  it('includes terms that break CSV, spreadsheets and terminals', () => {
    const queries = new Set(sandbox.searchTerms().map((t) => t.searchQuery));
    for (const tricky of [
      'comma, separated',
      'say "hello"',
      'multi\nline',
      'café au lait',
      '日本語 検索',
      'deploy 🚀',
      '=SUM(1,2)',
      '+cmd',
      '-1+2',
      '@import',
      '\tleading tab',
      '\rleading cr',
    ]) {
      expect(queries.has(tricky), JSON.stringify(tricky)).toBe(true);
    }
  });

  it('counts only events in [dateFrom, dateTo): dateTo is exclusive, and ranges add up', async () => {
    const october = await pageThrough({ dateFrom: '2026-10-01', dateTo: '2026-10-31', limit: '100' });
    const oct31 = await pageThrough({ dateFrom: '2026-10-31', dateTo: '2026-11-01', limit: '100' });
    const tail = await pageThrough({ dateFrom: '2026-10-01', dateTo: '2026-11-01', limit: '100' });
    const sum = (terms: SearchTerm[]) => terms.reduce((s, t) => s + t.hits, 0);
    expect(sum(october.terms) + sum(oct31.terms)).toBe(sum(tail.terms));
    expect(october.totals[0]).toBe(sum(october.terms));
    expect(
      october.terms.every((t) => t.lastSearchedAt < '2026-10-31T00:00:00.000Z' && t.lastSearchedAt >= '2026-10-01'),
    ).toBe(true);
    expect(oct31.terms.every((t) => t.lastSearchedAt.startsWith('2026-10-31'))).toBe(true);
    expect(october.terms.every((t) => t.hits > 0)).toBe(true);
    // Filtering really changes the data: fewer hits, fewer terms, a different order.
    expect(sum(october.terms)).toBeLessThan(sum(sandbox.searchTerms()));
    expect(october.terms.length).toBeLessThan(3000);
    expect(october.terms.map((t) => t.searchQuery)).not.toEqual(
      sandbox
        .searchTerms()
        .slice(0, october.terms.length)
        .map((t) => t.searchQuery),
    );
  });

  it('accepts ISO 8601 date-times as well as dates', async () => {
    const dates = await list({ dateFrom: '2026-10-01', dateTo: '2026-10-02' });
    const times = await list({ dateFrom: '2026-10-01T00:00:00Z', dateTo: '2026-10-01T20:00:00-04:00' });
    expect(times.status).toBe(200);
    expect(times.body.totalSearches).toBe(dates.body.totalSearches);
    const half = await list({ dateFrom: '2026-10-01T00:00:00.000Z', dateTo: '2026-10-01T12:00:00.000Z' });
    expect(half.body.totalSearches).toBeGreaterThan(0);
    expect(half.body.totalSearches).toBeLessThan(dates.body.totalSearches);
  });

  it('gives an empty last page for a range without searches', async () => {
    const res = await list({ dateFrom: '2020-01-01', dateTo: '2020-02-01' });
    expect(res.body).toEqual({ searches: [], totalSearches: 0, nextCursor: null });
  });

  it('treats a cursor for the same filter written differently as the same filter', async () => {
    const first = await list({ dateFrom: '2026-10-01', limit: '5' });
    const next = await list({ dateFrom: '2026-10-01T00:00:00Z', limit: '5', cursor: first.body.nextCursor! });
    expect(next.status).toBe(200);
  });

  it.each([
    ['limit 0', { limit: '0' }],
    ['limit 101', { limit: '101' }],
    ['a fractional limit', { limit: '1.5' }],
    ['a non-numeric limit', { limit: 'ten' }],
    ['an unparseable dateFrom', { dateFrom: 'yesterday' }],
    ['an impossible date', { dateTo: '2026-02-30' }],
    ['dateFrom equal to dateTo', { dateFrom: '2026-10-01', dateTo: '2026-10-01' }],
    ['dateFrom after dateTo', { dateFrom: '2026-10-02', dateTo: '2026-10-01' }],
    ['a garbled cursor', { cursor: 'not-a-cursor' }],
    ['a cursor with bad characters', { cursor: '!!!' }],
  ])('rejects %s with 400 and an AnalyticsErrorResponse', async (_name, query) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String), details: [{ message: expect.any(String) }] });
  });

  it('rejects a tampered cursor and one reused with different filters', async () => {
    const first = await list({ dateFrom: '2026-10-01', limit: '5' });
    const cursor = first.body.nextCursor!;
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const tampered = Buffer.from(JSON.stringify({ ...decoded, o: 0 })).toString('base64url');
    expect((await list({ dateFrom: '2026-10-01', cursor: tampered })).status).toBe(400);
    const other = await list({ dateFrom: '2026-09-01', cursor });
    expect(other.status).toBe(400);
    expect((other.body as unknown as { details: Array<{ message: string }> }).details[0]!.message).toContain(
      'different',
    );
    expect((await list({ cursor })).status).toBe(400);
  });

  it('answers an unknown project with 404', async () => {
    expect((await call(sandbox, 'GET', '/v1/analytics/proj_other/searches')).status).toBe(404);
  });

  it('is deterministic from the seed', async () => {
    const [same, other] = await Promise.all([
      startSandbox({ seed: 1, dataEndsAt: SANDBOX_FIXED_DATA_END }),
      startSandbox({ seed: 2, dataEndsAt: SANDBOX_FIXED_DATA_END }),
    ]);
    try {
      expect(same.searchTerms()).toEqual(sandbox.searchTerms());
      expect(other.searchTerms()).not.toEqual(sandbox.searchTerms());
    } finally {
      await Promise.all([same.close(), other.close()]);
    }
  });
});
