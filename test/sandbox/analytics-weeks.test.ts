// The sandbox's analytics span enough weeks for a week-over-week report: six weeks back each differ
// from the week before, some pages rising and some falling, the same for the same seed.
import { describe, expect, it } from 'vitest';
import { AnalyticsService } from '../../src/sandbox/analytics.js';
import { SANDBOX_FIXED_DATA_END } from '../../src/sandbox/index.js';

const DAY = 86_400_000;
const week = (n: number) => ({
  dateFrom: new Date(SANDBOX_FIXED_DATA_END - (n + 1) * 7 * DAY).toISOString(),
  dateTo: new Date(SANDBOX_FIXED_DATA_END - n * 7 * DAY).toISOString(),
});
type Rows = Array<{ path: string; total: number }>;
const views = (service: AnalyticsService, n: number) => {
  const reply = service.traffic(new URLSearchParams({ ...week(n), limit: '250' }), 'views');
  return reply.body as { views: Rows; totals: { total: number } };
};

describe('sandbox analytics over weeks', () => {
  const service = new AnalyticsService({ pages: 40, feedback: 500, conversations: 800 }, 7, SANDBOX_FIXED_DATA_END);

  it('six weeks of views, each week unlike the one before, with pages rising and pages falling', () => {
    const weeks = [0, 1, 2, 3, 4, 5].map((n) => views(service, n));
    for (const w of weeks) expect(w.totals.total).toBeGreaterThan(0);
    for (let n = 0; n < 5; n++) expect(weeks[n]!.totals.total).not.toBe(weeks[n + 1]!.totals.total);
    const before = new Map(weeks[1]!.views.map((r) => [r.path, r.total]));
    const changes = weeks[0]!.views.map((r) => r.total - (before.get(r.path) ?? 0));
    expect(changes.some((c) => c > 0)).toBe(true);
    expect(changes.some((c) => c < 0)).toBe(true);
  });

  it('conversations and feedback fall in each of the six weeks', () => {
    for (let n = 0; n < 6; n++) {
      const { dateFrom, dateTo } = week(n);
      const [from, to] = [Date.parse(dateFrom), Date.parse(dateTo)];
      expect(service.data.conversations.filter((c) => c.timestamp >= from && c.timestamp < to).length).toBeGreaterThan(
        0,
      );
      expect(service.data.feedback.filter((f) => f.createdAt >= from && f.createdAt < to).length).toBeGreaterThan(0);
    }
  });

  it('is the same for the same seed', () => {
    const again = new AnalyticsService({ pages: 40, feedback: 500, conversations: 800 }, 7, SANDBOX_FIXED_DATA_END);
    expect(views(again, 2)).toEqual(views(service, 2));
  });
});
