// What a report's period is: the last COMPLETE ISO week (Monday to Sunday, UTC) or calendar month
// before now, against the one before it. A period still running would compare a partial week with a
// whole one; a weekly job on Monday morning reports the week that just ended.

export const PERIODS = ['week', 'month'] as const;
export type PeriodKind = (typeof PERIODS)[number];

/** Days as YYYY-MM-DD (UTC); `to` is exclusive: the first day after the period. */
export interface DateRange {
  from: string;
  to: string;
  /** "2026-W47" or "2026-11". */
  label: string;
}

export interface Periods {
  kind: PeriodKind;
  current: DateRange;
  previous: DateRange;
}

const DAY = 86_400_000;

/**
 * The last complete period before `now`, against the one before it; with `of` (epoch ms, from
 * `--of`), the period that holds that instant instead, against the one before it.
 */
export function reportPeriods(kind: PeriodKind, now: Date, of?: number): Periods {
  if (of !== undefined) return periodsHolding(kind, new Date(of));
  if (kind === 'week') {
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    // getUTCDay: Sunday 0 .. Saturday 6; days since this week's Monday.
    const sinceMonday = (now.getUTCDay() + 6) % 7;
    const thisMonday = today - sinceMonday * DAY;
    return { kind, current: week(thisMonday - 7 * DAY), previous: week(thisMonday - 14 * DAY) };
  }
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return { kind, current: calendarMonth(year, month - 1), previous: calendarMonth(year, month - 2) };
}

function periodsHolding(kind: PeriodKind, at: Date): Periods {
  if (kind === 'week') {
    const day0 = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
    const monday = day0 - ((at.getUTCDay() + 6) % 7) * DAY;
    return { kind, current: week(monday), previous: week(monday - 7 * DAY) };
  }
  return {
    kind,
    current: calendarMonth(at.getUTCFullYear(), at.getUTCMonth()),
    previous: calendarMonth(at.getUTCFullYear(), at.getUTCMonth() - 1),
  };
}

function week(monday: number): DateRange {
  return { from: day(monday), to: day(monday + 7 * DAY), label: isoWeekLabel(monday) };
}

function calendarMonth(year: number, month: number): DateRange {
  const first = Date.UTC(year, month, 1);
  const next = Date.UTC(year, month + 1, 1);
  return { from: day(first), to: day(next), label: day(first).slice(0, 7) };
}

/** ISO 8601 week of a Monday: the week belongs to the year of its Thursday. */
function isoWeekLabel(monday: number): string {
  const thursday = new Date(monday + 3 * DAY);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY)) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The last day of a range, for people: `to` is exclusive. */
export function lastDay(range: DateRange): string {
  return day(Date.parse(`${range.to}T00:00:00Z`) - DAY);
}
