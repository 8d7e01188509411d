// What md and slack share: numbers and changes as people read them, and the periods' names.
import { lastDay, type DateRange } from './period.js';
import type { Change, Report } from './types.js';

/** 1234 -> "1,234"; 12.25 -> "12.3": whole numbers stay whole (ctr-weighted sums may not be). */
export function count(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** "+200 (+20%)", "-3 (-50%)", "+5 (new)", "0". */
export function changeText(c: Pick<Change, 'change' | 'changePercent'>): string {
  if (c.change === 0) return '0';
  const sign = c.change > 0 ? '+' : '-';
  const percent =
    c.changePercent === null ? 'new' : `${c.changePercent > 0 ? '+' : ''}${c.changePercent.toLocaleString('en-US')}%`;
  return `${sign}${count(Math.abs(c.change))} (${percent})`;
}

/** "+30" or "-12" for a search's change, where the percentage adds little. */
export function signed(n: number): string {
  return n > 0 ? `+${count(n)}` : n < 0 ? `-${count(-n)}` : '0';
}

export function periodName(report: Report): { this: string; before: string } {
  return report.period === 'week'
    ? { this: 'this week', before: 'week before' }
    : { this: 'this month', before: 'month before' };
}

/** "2026-W47 (2026-11-16 to 2026-11-22)". */
export function rangeText(range: DateRange): string {
  return `${range.label} (${range.from} to ${lastDay(range)})`;
}

/** The traffic rows both formats show, in order. */
export function trafficRows(report: Report): Array<{ label: string; change: Change }> {
  return [
    { label: 'Views, people', change: report.views.human },
    { label: 'Views, AI agents', change: report.views.ai },
    { label: 'Views, total', change: report.views.total },
    { label: 'Visitors, people', change: report.visitors.human },
    { label: 'Visitors, AI agents', change: report.visitors.ai },
  ];
}

export const VISITORS_NOTE = 'visitors: unique visitors per page and day, summed';

/** How visitors were counted: per day and summed, or over the whole period where the sync read it at once. */
export function visitorsNote(report: Report): string {
  const { current, previous } = report.visitorsCounted;
  const name = periodName(report);
  if (current === 'day' && previous === 'day') return VISITORS_NOTE;
  const whole = `unique visitors per page over the whole ${report.period}`;
  if (current === 'period' && previous === 'period') return `visitors: ${whole}`;
  const daily = 'unique visitors per page and day, summed';
  const [thisOne, before] = current === 'period' ? [whole, daily] : [daily, whole];
  return `visitors: ${name.this} ${thisOne}, the ${name.before} ${before}; the two do not compare`;
}

/** When a period is not synced whole: which tables, how many days of each, and what to do (its numbers are partial until then). */
export function partialPeriods(report: Report): string | undefined {
  const name = periodName(report);
  const days = report.daysSynced;
  const tables = (which: 'current' | 'previous') =>
    days.partial
      .filter((t) => t[which] < days.ofDays[which])
      .map((t) => `${t.table.replace(/_/g, ' ')} ${t[which]} of ${days.ofDays[which]} days`)
      .join(', ');
  const partial = [
    ...(days.current < days.ofDays.current ? [`${name.this} (${tables('current')})`] : []),
    ...(days.previous < days.ofDays.previous ? [`the ${name.before} (${tables('previous')})`] : []),
  ];
  if (partial.length === 0) return undefined;
  return `Not synced whole yet: ${partial.join(' and ')}; ${partial.length === 1 ? 'its' : 'their'} numbers are partial until \`mint-admin analytics sync\` has read the rest.`;
}
