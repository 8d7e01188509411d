// `analytics report` through the CLI in process, on a real DuckDB database with known rows around the
// periods the real clock makes: each format, the month period, --json, a missing database.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { RANGE_TABLES } from '../../src/analytics-store/schema.js';
import { reportPeriods } from '../../src/analytics-store/report/period.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { EXPECTED, fillReportDatabase } from './report-fixture.js';

const dir = tempDir();
const week = join(dir.path, 'week.duckdb');
const month = join(dir.path, 'month.duckdb');
beforeAll(async () => {
  await fillReportDatabase(week, reportPeriods('week', new Date()));
  await fillReportDatabase(month, reportPeriods('month', new Date()));
});
afterAll(() => dir.cleanup());

const report = (...args: string[]) => runCli(['analytics', 'report', ...args], { env: { XDG_CONFIG_HOME: dir.path } });

describe('analytics report', () => {
  it('json (and --json): the report object, exact', async () => {
    const r = await report('--db', week, '--format', 'json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { current, previous } = reportPeriods('week', new Date());
    expect(JSON.parse(r.stdout)).toEqual({ period: 'week', current, previous, ...EXPECTED });
    expect(JSON.parse((await runCli(['--json', 'analytics', 'report', '--db', week])).stdout).searches).toEqual(
      EXPECTED.searches,
    );
  });

  it('md is the default; --period week names the last complete ISO week', async () => {
    const r = await report('--db', week);
    expect(r.code).toBe(0);
    const { current } = reportPeriods('week', new Date());
    expect(r.stdout.split('\n')[0]).toBe(
      `## Docs analytics: week ${current.label} (${current.from} to ${new Date(Date.parse(current.to) - 86_400_000).toISOString().slice(0, 10)})`,
    );
    expect(r.stdout).toContain('| `install` | 40 | 10 | +30 |');
  });

  it('slack: one JSON object { text, blocks } on one line, for curl --data @-', async () => {
    const r = await report('--db', week, '--format', 'slack');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    const message = JSON.parse(r.stdout);
    expect(Object.keys(message)).toEqual(['text', 'blocks']);
    expect(message.blocks.length).toBeLessThanOrEqual(50);
  });

  it('--period month: the last calendar month against the one before', async () => {
    const r = await report('--db', month, '--period', 'month', '--json');
    const { current, previous } = reportPeriods('month', new Date());
    const body = JSON.parse(r.stdout);
    expect({ period: body.period, current: body.current, previous: body.previous }).toEqual({
      period: 'month',
      current,
      previous,
    });
    expect(body.searches).toEqual(EXPECTED.searches);
    expect(body.views).toEqual(EXPECTED.views);
  });

  it('bad flags are usage errors (exit 2)', async () => {
    expect((await report('--db', week, '--period', 'day')).code).toBe(2);
    expect((await report('--db', week, '--format', 'html')).code).toBe(2);
    const both = await runCli(['--json', 'analytics', 'report', '--db', week, '--format', 'md']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--json means --format json/);
  });

  it('a database with no rows yet: zeros, "None." and a valid Slack message', async () => {
    const empty = join(dir.path, 'empty.duckdb');
    (await openAnalyticsDb(empty)).close();
    const json = JSON.parse((await report('--db', empty, '--json')).stdout);
    expect(json.views.total).toEqual({ current: 0, previous: 0, change: 0, changePercent: null });
    expect(json.searches.rising).toEqual([]);
    expect(json.daysSynced).toMatchObject({ current: 0, previous: 0 });
    expect(json.daysSynced.ofDays.current).toBe(7);
    const md = (await report('--db', empty)).stdout;
    expect(md).toContain('**Rising**\n\nNone.\n');
    expect(md).toContain('| Views, total | 0 | 0 | 0 |');
    const slack = JSON.parse((await report('--db', empty, '--format', 'slack')).stdout);
    for (const block of slack.blocks) if (block.type === 'section') expect(block.text.text.length).toBeGreaterThan(0);
  });

  it('a database made before the range tables (0.3) is reported, and gets them at its next open for writing', async () => {
    const old = join(dir.path, 'old.duckdb');
    await fillReportDatabase(old, reportPeriods('week', new Date()));
    const db = await openAnalyticsDb(old);
    for (const table of RANGE_TABLES) await db.connection.run(`DROP TABLE ${table}`);
    db.close();
    const r = await report('--db', old, '--json');
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).searches).toEqual(EXPECTED.searches);
    const again = await openAnalyticsDb(old);
    const tables = (
      await again.connection.runAndReadAll(
        `SELECT table_name AS t FROM information_schema.tables WHERE table_name LIKE '%_by_range'`,
      )
    ).getRowObjectsJson();
    again.close();
    expect(tables).toHaveLength(RANGE_TABLES.length);
  });

  it('no database: names analytics sync (exit 2)', async () => {
    const r = await report('--db', join(dir.path, 'none.duckdb'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no analytics database at .*none\.duckdb: run `mint-admin analytics sync` first/);
  });
});
