// A query's date range (the CLI's --from / --to, the library's dateFrom / dateTo): checked here,
// before anything is sent, so a typo costs none of the 100 analytics requests an organization gets
// an hour. The text is sent on as the user wrote it; parsing is only
// to reject what is not a real instant and to compare the two ends.
import { UsageError } from '../errors.js';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * `YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time (`2026-11-16T09:30:00Z`, `...+01:00`; no
 * offset means UTC, as the API reads it). Returns epoch milliseconds; a date that is not on the
 * calendar (2026-02-30, 2026-13-01) or anything else is a UsageError naming the flag.
 */
export function parseDateFlag(text: string, flag: string): number {
  const m = DATE_ONLY.exec(text) ?? DATE_TIME.exec(text);
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = m ?? [];
  const time = m ? toEpoch({ year, month, day, hour, minute, second, fraction, zone }) : undefined;
  if (time === undefined) {
    throw new UsageError(
      `${flag}: "${text}" is not a date; use YYYY-MM-DD (e.g. 2026-11-16) or an ISO 8601 date-time (e.g. 2026-11-16T09:30:00Z)`,
    );
  }
  return time;
}

/** --from must come before --to, which is exclusive: an empty range would only waste a request. */
export function checkDateRange(from: number | undefined, to: number | undefined): void {
  if (from !== undefined && to !== undefined && from >= to) {
    throw new UsageError('--from must be before --to (--to is exclusive: a week is --from 2026-11-16 --to 2026-11-23)');
  }
}

function toEpoch(p: Record<string, string | undefined>): number | undefined {
  const [year, month, day, hour, minute, second] = [p.year, p.month, p.day, p.hour, p.minute, p.second].map(Number) as number[];
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth) return undefined;
  if (hour! > 23 || minute! > 59 || second! > 59) return undefined;
  const offset = offsetMinutes(p.zone ?? 'Z');
  if (offset === undefined) return undefined;
  const millis = Number((p.fraction || '.0').slice(1, 4).padEnd(3, '0'));
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second!, millis) - offset * 60_000;
}

function offsetMinutes(zone: string): number | undefined {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2));
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}
