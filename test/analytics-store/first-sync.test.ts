// An analyst's first hour: one `analytics sync` of 100 requests on the sandbox's site (600 pages, 21
// days reached back) and then `analytics report`, in process with a fake clock. The report must be
// whole (the last complete week against the one before), its numbers those the API gives for each
// week, and the requests counted at the server within the budget. A later run reads daily detail.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runCli as runInProcessCli } from '../../src/cli/run.js';
import { reportPeriods } from '../../src/analytics-store/report/period.js';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { captureIO } from '../helpers/io.js';
import { FakeClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/cli.js';

const DAY = 86_400_000;
// A Wednesday afternoon: this week is unfinished, the last complete week ended on Sunday.
const clock = new FakeClock(Date.UTC(2026, 10, 25, 15, 0, 0));
const dir = tempDir();
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ now: clock.now, analytics: { pages: 600 } });
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

const analyticsRequests = () => sandbox.requests.filter((r) => r.path.startsWith('/v1/analytics/')).length;

async function cli(args: string[], state = 'state'): Promise<{ code: number; stdout: string; stderr: string }> {
  const captured = captureIO();
  const env = {
    MINTLIFY_API_URL: sandbox.baseUrl,
    MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
    MINTLIFY_PROJECT_ID: sandbox.projectId,
    HOME: dir.path,
    XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    XDG_STATE_HOME: join(dir.path, state),
  };
  const code = await runInProcessCli(args, {
    io: captured.io,
    env,
    clock,
    signal: new AbortController().signal,
    random: Math.random,
    secrets: new Set(),
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

/** The API's own totals of views over a range, read straight from the sandbox (every page). */
async function viewsOver(from: string, to: string): Promise<{ human: number; ai: number; total: number }> {
  const sum = { human: 0, ai: 0, total: 0 };
  for (let offset = 0; ; offset += 250) {
    const url = `${sandbox.baseUrl}/v1/analytics/${sandbox.projectId}/views?dateFrom=${from}&dateTo=${to}&limit=250&offset=${offset}`;
    const page = (await (await fetch(url, { headers: { authorization: `Bearer ${sandbox.apiKey}` } })).json()) as {
      views: Array<{ human: number; ai: number; total: number }>;
      hasMore: boolean;
    };
    for (const v of page.views) {
      sum.human += v.human;
      sum.ai += v.ai;
      sum.total += v.total;
    }
    if (!page.hasMore) return sum;
  }
}

describe('the first sync fills the report first', () => {
  const db = join(dir.path, 'first.duckdb');
  const from = new Date(Date.UTC(2026, 10, 25) - 21 * DAY).toISOString().slice(0, 10);

  it('one run of 100 requests gives a whole report of the last complete week against the one before', {
    timeout: 60_000,
  }, async () => {
    const sync = await cli(['analytics', 'sync', '--db', db, '--from', from, '--max-requests', '100', '--json']);
    expect(sync.code).toBe(0);
    const summary = JSON.parse(sync.stdout) as { requests: number };
    expect(analyticsRequests()).toBe(summary.requests);
    expect(summary.requests).toBeLessThanOrEqual(100);

    const report = await cli(['analytics', 'report', '--db', db, '--json']);
    expect(report.code).toBe(0);
    const body = JSON.parse(report.stdout);
    const { current, previous } = reportPeriods('week', new Date(clock.now()));
    expect(body.daysSynced).toEqual({ current: 7, previous: 7, ofDays: { current: 7, previous: 7 }, partial: [] });
    const sent = analyticsRequests();
    const [thisWeek, weekBefore] = [
      await viewsOver(current.from, current.to),
      await viewsOver(previous.from, previous.to),
    ];
    sandbox.requests.length = sent; // the checks' own requests are not the sync's
    expect(thisWeek.total).toBeGreaterThan(0);
    expect({ current: body.views.total.current, previous: body.views.total.previous }).toEqual({
      current: thisWeek.total,
      previous: weekBefore.total,
    });
    expect(body.views.human.current).toBe(thisWeek.human);
    expect(body.searches.total.current).toBeGreaterThan(0);
    expect(body.searches.total.previous).toBeGreaterThan(0);
    expect(body.unanswered.total.current + body.unanswered.total.previous).toBeGreaterThan(0);
    expect(body.visitorsCounted).toEqual({ current: 'period', previous: 'period' });
    const md = (await cli(['analytics', 'report', '--db', db])).stdout;
    expect(md).not.toContain('Not synced whole yet');
    expect(md).toContain('unique visitors per page over the whole week');
  });

  it('the runs after it read daily detail; a day read too is never summed with its week', {
    timeout: 120_000,
  }, async () => {
    const before = (await cli(['analytics', 'report', '--db', db, '--json'])).stdout;
    for (let run = 0; run < 6; run++) {
      clock.advance(61 * 60 * 1000); // the next hour's budget
      const r = await cli(['analytics', 'sync', '--db', db, '--max-requests', '100', '--json']);
      expect(r.code).toBe(0);
      if ((JSON.parse(r.stdout) as { complete: boolean }).complete) break;
    }
    const { current } = reportPeriods('week', new Date(clock.now()));
    const opened = await openAnalyticsDb(db);
    try {
      const days = await opened.connection.runAndReadAll(
        `SELECT count(DISTINCT date)::INTEGER AS n FROM views WHERE date >= '${current.from}' AND date < '${current.to}'`,
      );
      expect(days.getRowObjectsJson()[0]?.n).toBe(7);
    } finally {
      opened.close();
    }
    const after = JSON.parse((await cli(['analytics', 'report', '--db', db, '--json'])).stdout);
    expect(after.views).toEqual(JSON.parse(before).views);
    expect(after.searches.total).toEqual(JSON.parse(before).searches.total);
  });
});

describe("the issue's first hour: runs of 45 and 50 requests", () => {
  it('leave a whole report of the last complete week against the one before', async () => {
    const db = join(dir.path, 'two-runs.duckdb');
    const from = new Date(Date.UTC(2026, 10, 25) - 21 * DAY).toISOString().slice(0, 10);
    for (const max of ['45', '50']) {
      const r = await cli(['analytics', 'sync', '--db', db, '--from', from, '--max-requests', max], 'state-two-runs');
      expect(r.code).toBe(0);
    }
    const body = JSON.parse((await cli(['analytics', 'report', '--db', db, '--json'], 'state-two-runs')).stdout);
    expect(body.daysSynced).toEqual({ current: 7, previous: 7, ofDays: { current: 7, previous: 7 }, partial: [] });
    expect(body.views.total.previous).toBeGreaterThan(0);
  }, 60_000);
});
