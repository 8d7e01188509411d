// The sandbox's analytics follow its clock: whatever the date, the last days have data, so the
// README's examples (which ask for the last week) print something. A test that asserts exact dates
// pins the data with `dataEndsAt`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchesPage } from '../../src/api/types.js';
import { startSandbox, SANDBOX_FIXED_DATA_END, type Sandbox } from '../../src/sandbox/index.js';
import { call } from './helpers.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2031, 4, 10, 15, 30); // a day far from the data the sandbox once had fixed
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    now: () => NOW,
    searchTermCount: 200,
    analytics: { pages: 50, feedback: 200, conversations: 200 },
  });
});
afterAll(() => sandbox.close());

const get = <T>(endpoint: string, query: Record<string, string>) =>
  call<T>(sandbox, 'GET', `/v1/analytics/${sandbox.projectId}/${endpoint}?${new URLSearchParams(query)}`);

describe('the sandbox data follows its clock', () => {
  it('has searches, views and feedback in the week before today, and none from today on', async () => {
    const lastWeek = { dateFrom: day(NOW - 7 * DAY), dateTo: day(NOW) };
    const searches = await get<SearchesPage>('searches', lastWeek);
    expect(searches.status).toBe(200);
    expect(searches.body.totalSearches).toBeGreaterThan(0);
    expect(searches.body.searches.every((t) => t.lastSearchedAt < `${day(NOW)}T00:00:00.000Z`)).toBe(true);
    const views = await get<{ totals: { human: number } }>('views', lastWeek);
    expect(views.body.totals.human).toBeGreaterThan(0);
    const feedback = await get<{ feedback: unknown[] }>('feedback', lastWeek);
    expect(feedback.body.feedback.length).toBeGreaterThan(0);
    const fromToday = await get<SearchesPage>('searches', { dateFrom: day(NOW) });
    expect(fromToday.body.totalSearches).toBe(0);
  });

  it('dataEndsAt pins the data, whatever the clock says', async () => {
    const pinned = await startSandbox({ now: () => NOW, dataEndsAt: SANDBOX_FIXED_DATA_END, searchTermCount: 20 });
    try {
      const terms = pinned.searchTerms();
      expect(terms.length).toBe(20);
      expect(terms.every((t) => t.lastSearchedAt < new Date(SANDBOX_FIXED_DATA_END).toISOString())).toBe(true);
      expect(terms.some((t) => t.lastSearchedAt >= new Date(SANDBOX_FIXED_DATA_END - DAY).toISOString())).toBe(true);
    } finally {
      await pinned.close();
    }
  });
});
