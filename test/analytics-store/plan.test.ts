// The order a sync reads in: what a run left unfinished, then what was never read (items, then today,
// yesterday, ...: a short budget fills this week before last month), then what may have changed, once
// per pass. Pure: checkpoints in, windows out.
import { describe, expect, it } from 'vitest';
import { DAY_MS, plan, SETTLE_MS } from '../../src/analytics-store/sync/plan.js';
import type { Checkpoint } from '../../src/analytics-store/sync/store.js';

const NOW = Date.UTC(2026, 10, 24, 15, 0, 0);
const TODAY = Date.UTC(2026, 10, 24);
const FROM = TODAY - 3 * DAY_MS;
const names = (tasks: ReturnType<typeof plan>) => tasks.map((t) => `${t.stream.table} ${t.window.from.slice(0, 10)}`);
const done = (stream: string, from: number, to: number, updatedAt: number): Checkpoint => ({
  stream,
  windowFrom: from,
  windowTo: to,
  cursor: null,
  pages: 1,
  rows: 1,
  complete: true,
  updatedAt,
});
const DAY_STREAMS = ['searches', 'views', 'visitors', 'feedback_by_page', 'caller_stats'];

describe('plan', () => {
  it('from nothing: the item streams, then every day from today back, each day all its endpoints', () => {
    const tasks = names(plan([], FROM, NOW, NOW));
    expect(tasks.slice(0, 2)).toEqual(['conversations 2026-11-21', 'feedback 2026-11-21']);
    expect(tasks.slice(2, 7)).toEqual(DAY_STREAMS.map((s) => `${s} 2026-11-24`));
    expect(tasks.slice(7, 12)).toEqual(DAY_STREAMS.map((s) => `${s} 2026-11-23`));
    expect(tasks).toHaveLength(2 + 4 * 5);
  });

  it('a window left mid-way comes first, at its cursor', () => {
    const half: Checkpoint = {
      stream: 'searches',
      windowFrom: TODAY - 2 * DAY_MS,
      windowTo: TODAY - DAY_MS,
      cursor: 'c2',
      pages: 1,
      rows: 100,
      complete: false,
      updatedAt: NOW - 1000,
    };
    const [first] = plan([half], FROM, NOW, NOW - 5000);
    expect(first?.checkpoint).toBe(half);
    expect(first?.window).toEqual({ from: '2026-11-22', to: '2026-11-23' });
  });

  it('what may have changed is read again once per pass: a day read before it settled, items since the watermark', () => {
    const earlier = NOW - 60_000;
    const all: Checkpoint[] = [
      done('conversations', FROM, earlier, earlier),
      done('feedback', FROM, earlier, earlier),
      ...[0, 1, 2, 3].flatMap((d) =>
        DAY_STREAMS.map((s) =>
          done(
            s,
            TODAY - d * DAY_MS,
            TODAY - (d - 1) * DAY_MS,
            d === 0 ? earlier : TODAY - (d - 1) * DAY_MS + SETTLE_MS,
          ),
        ),
      ),
    ];
    // A new pass (it began after those reads): today again, conversations from just before the
    // watermark, feedback over its whole re-read span.
    const again = plan(all, FROM, NOW, NOW);
    expect(again[0]?.window).toEqual({
      from: new Date(earlier - 2 * 3600_000).toISOString(),
      to: new Date(NOW).toISOString(),
    });
    expect(names(again)).toEqual([
      'conversations 2026-11-24',
      'feedback 2026-11-21',
      ...DAY_STREAMS.map((s) => `${s} 2026-11-24`),
    ]);
    // The same pass, those reads made in it already: nothing.
    expect(plan(all, FROM, NOW, earlier - 1)).toEqual([]);
  });

  describe('what the report needs comes first', () => {
    // NOW is Tuesday 2026-11-24: the last complete week is 11-16..11-22, the one before 11-09..11-15.
    const FAR = TODAY - 21 * DAY_MS;
    const RANGES = ['searches_by_range', 'views_by_range', 'visitors_by_range', 'feedback_by_page_by_range'];
    const windows = (tasks: ReturnType<typeof plan>) =>
      tasks.map((t) => `${t.stream.table} ${t.window.from}..${t.window.to}`);

    it('from nothing: each of the two complete weeks whole, per aggregate the report sums, then the items, then today', () => {
      const tasks = windows(plan([], FAR, NOW, NOW));
      expect(tasks.slice(0, 8)).toEqual([
        ...RANGES.map((r) => `${r} 2026-11-16..2026-11-23`),
        ...RANGES.map((r) => `${r} 2026-11-09..2026-11-16`),
      ]);
      expect(tasks[8]).toMatch(/^conversations /);
      expect(tasks[10]).toBe('searches 2026-11-24..2026-11-25');
    });

    it('not a week that starts before the reach (--from), nor a month', () => {
      const tasks = windows(plan([], TODAY - 10 * DAY_MS, NOW, NOW));
      expect(tasks.filter((t) => t.includes('_by_range'))).toEqual(RANGES.map((r) => `${r} 2026-11-16..2026-11-23`));
      // From October 1st on, October is in reach: the last complete month too.
      const far = windows(plan([], Date.UTC(2026, 9, 1), NOW, NOW));
      expect(far.filter((t) => t.includes('_by_range')).slice(8)).toEqual(
        RANGES.map((r) => `${r} 2026-10-01..2026-11-01`),
      );
    });

    it('a week whose days are all read and settled is not read again whole; a week read before it settled is, once a pass', () => {
      const week = Date.UTC(2026, 10, 16);
      const days = [0, 1, 2, 3, 4, 5, 6].map((d) =>
        done('views', week + d * DAY_MS, week + (d + 1) * DAY_MS, week + (d + 1) * DAY_MS + SETTLE_MS),
      );
      expect(windows(plan(days, FAR, NOW, NOW)).filter((t) => t.startsWith('views_by_range'))).toEqual([
        'views_by_range 2026-11-09..2026-11-16',
      ]);
      const early = done('views_by_range', week, week + 7 * DAY_MS, week + 7 * DAY_MS + 60_000);
      expect(
        windows(plan([early], FAR, NOW, NOW)).filter((t) => t.startsWith('views_by_range 2026-11-16')),
      ).toHaveLength(1);
      expect(
        windows(plan([early], FAR, NOW, early.updatedAt - 1)).filter((t) => t.startsWith('views_by_range 2026-11-16')),
      ).toHaveLength(0);
      const settled = { ...early, updatedAt: early.windowTo + SETTLE_MS };
      expect(
        windows(plan([settled], FAR, NOW, NOW)).filter((t) => t.startsWith('views_by_range 2026-11-16')),
      ).toHaveLength(0);
    });
  });
});
