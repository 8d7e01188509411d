// End to end: `analytics sync` fills a database from the sandbox (whose traffic changes week to week)
// for the two periods a weekly report compares, then `analytics report` reads it: every day of both
// weeks held, the report's numbers equal to the same sums asked of the database with `analytics
// query`, and each format written.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportPeriods } from '../../src/analytics-store/report/period.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({ searchTermCount: 40, analytics: { pages: 12, feedback: 40, conversations: 150 } });

describe('analytics sync, then analytics report', () => {
  const periods = reportPeriods('week', new Date());
  let db: string;
  const env = () => t.env();
  const query = async (sql: string) => {
    const r = await runCli(['analytics', 'query', sql, '--db', db, '--json'], { env: env() });
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout).rows[0] as Record<string, number>;
  };

  beforeAll(async () => {
    db = join(t.home, 'analytics.duckdb');
    // Two weeks and a few days at a few requests a day each: more than one hour's 100, so several
    // runs, each with a ledger of its own (as hours apart would be).
    for (let run = 0; run < 6; run++) {
      const state = tempDir();
      const r = await runCli(
        ['analytics', 'sync', '--db', db, '--from', periods.previous.from, '--max-requests', '100', '--json'],
        { env: { ...env(), XDG_STATE_HOME: state.path } },
      );
      state.cleanup();
      expect(r.code, r.stderr).toBe(0);
      if (JSON.parse(r.stdout).complete) return;
    }
    throw new Error('the sync did not complete in 6 runs');
  }, 60_000);

  it('reports both weeks whole, with the numbers the database holds', async () => {
    const r = await runCli(['analytics', 'report', '--db', db, '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.current).toEqual(periods.current);
    expect(report.daysSynced).toEqual({ current: 7, previous: 7, ofDays: { current: 7, previous: 7 }, partial: [] });

    const inWeek = (range: { from: string; to: string }) =>
      `date >= DATE '${range.from}' AND date < DATE '${range.to}'`;
    // Both weeks were read whole at once (the report's ranges come first): the report sums those rows,
    // not the days' (which the API rounds day by day), and never both.
    const wholeWeek = (range: { from: string; to: string }) =>
      `date_from = DATE '${range.from}' AND date_to = DATE '${range.to}'`;
    const views = await query(
      `SELECT sum(human) AS human, sum(ai) AS ai, sum(total) AS total FROM views_by_range WHERE ${wholeWeek(periods.current)}`,
    );
    const viewsBefore = await query(
      `SELECT sum(total) AS total FROM views_by_range WHERE ${wholeWeek(periods.previous)}`,
    );
    expect(views.total).toBeGreaterThan(0);
    expect(report.views.human.current).toBe(views.human);
    const viewDays = await query(`SELECT sum(total) AS total FROM views WHERE ${inWeek(periods.current)}`);
    expect(Math.abs(Number(viewDays.total) - Number(views.total))).toBeLessThanOrEqual(7); // the same views, rounded per day
    expect(report.views.ai.current).toBe(views.ai);
    expect(report.views.total).toMatchObject({ current: views.total, previous: viewsBefore.total });
    // The sandbox's traffic changes week to week: there is a trend to report.
    expect(report.views.total.change).not.toBe(0);

    const searches = await query(`SELECT sum(hits) AS hits FROM searches_by_range WHERE ${wholeWeek(periods.current)}`);
    const searchDays = await query(`SELECT sum(hits) AS hits FROM searches WHERE ${inWeek(periods.current)}`);
    expect(searchDays.hits).toBe(searches.hits);
    expect(report.searches.total.current).toBe(searches.hits);
    const unanswered = await query(
      `SELECT count(*) AS n FROM conversations WHERE resolution_status = 'unanswered' AND ${inWeek(periods.current)}`,
    );
    expect(report.unanswered.total.current).toBe(unanswered.n);
    const thumbsDown = await query(
      `SELECT max(d) AS top FROM (SELECT sum(thumbs_down) AS d FROM feedback_by_page_by_range WHERE ${wholeWeek(periods.current)} GROUP BY path)`,
    );
    expect(report.thumbsDown[0]?.current ?? 0).toBe(thumbsDown.top ?? 0);
  });

  it('md and slack from the same database', async () => {
    const md = await runCli(['analytics', 'report', '--db', db], { env: env() });
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(new RegExp(`^## Docs analytics: week ${periods.current.label} `));
    expect(md.stdout).toContain('Days synced: 7 of 7 this week, 7 of 7 the week before.');
    expect(md.stdout).not.toContain('Not synced whole yet');
    const slack = await runCli(['analytics', 'report', '--db', db, '--format', 'slack'], { env: env() });
    expect(slack.code).toBe(0);
    const message = JSON.parse(slack.stdout);
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    for (const block of message.blocks)
      if (block.type === 'section') expect(block.text.text.length).toBeLessThanOrEqual(3000);
  });
});
