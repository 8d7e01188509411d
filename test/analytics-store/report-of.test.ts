// `analytics report --of <date>`: the week or month (--period) that holds the date, against the one
// before; the date is read as every other date is (a duration before now works, on the run's clock).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportPeriods } from '../../src/analytics-store/report/period.js';
import { runInProcess } from '../helpers/in-process.js';
import { FakeClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/cli.js';
import { EXPECTED, fillReportDatabase } from './report-fixture.js';

const NOW = Date.UTC(2026, 10, 25, 9); // Wednesday 2026-11-25
const dir = tempDir();
const weekDb = join(dir.path, 'week.duckdb');
const monthDb = join(dir.path, 'month.duckdb');
// Filled around the periods that hold 2026-10-07: week 2026-W41 against W40, October against September.
beforeAll(async () => {
  await fillReportDatabase(weekDb, reportPeriods('week', new Date(NOW), Date.UTC(2026, 9, 7)));
  await fillReportDatabase(monthDb, reportPeriods('month', new Date(NOW), Date.UTC(2026, 9, 7)));
});
afterAll(() => dir.cleanup());

const report = (...args: string[]) =>
  runInProcess(['analytics', 'report', '--format', 'json', ...args], {
    env: { XDG_CONFIG_HOME: dir.path },
    clock: new FakeClock(NOW),
  });

describe('analytics report --of', () => {
  it('reportPeriods: the week that holds a date (Monday to Sunday), and the month, each against the one before', () => {
    const at = Date.UTC(2026, 9, 7, 15); // Wednesday 2026-10-07
    expect(reportPeriods('week', new Date(NOW), at)).toEqual({
      kind: 'week',
      current: { from: '2026-10-05', to: '2026-10-12', label: '2026-W41' },
      previous: { from: '2026-09-28', to: '2026-10-05', label: '2026-W40' },
    });
    expect(reportPeriods('month', new Date(NOW), at)).toEqual({
      kind: 'month',
      current: { from: '2026-10-01', to: '2026-11-01', label: '2026-10' },
      previous: { from: '2026-09-01', to: '2026-10-01', label: '2026-09' },
    });
    // A Sunday belongs to the week that began the Monday before it.
    expect(reportPeriods('week', new Date(NOW), Date.UTC(2026, 9, 11, 23)).current.from).toBe('2026-10-05');
  });

  it('--of 2026-10-07: the report of the week that holds it, exact', async () => {
    const r = await report('--db', weekDb, '--of', '2026-10-07');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { current, previous } = reportPeriods('week', new Date(NOW), Date.UTC(2026, 9, 7));
    expect(JSON.parse(r.stdout)).toEqual({ period: 'week', current, previous, ...EXPECTED });
  });

  it('--of 7w --period month: a duration before now on the run clock (2026-10-07 09:00) picks October', async () => {
    const r = await report('--db', monthDb, '--period', 'month', '--of', '7w');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      period: 'month',
      current: { label: '2026-10' },
      previous: { label: '2026-09' },
    });
    expect(JSON.parse(r.stdout).searches).toEqual(EXPECTED.searches);
  });

  it.each([
    ['2026-02-30', '--of: "2026-02-30" is not a date'],
    ['0050-06-15', '--of: "0050-06-15" is before 2020-01-01'],
    ['2026-11-26', '--of: 2026-11-26 has not begun yet'],
  ])('--of %s is a usage error (exit 2)', async (of, message) => {
    const r = await report('--db', weekDb, '--of', of);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
