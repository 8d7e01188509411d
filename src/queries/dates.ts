// Every date a user gives (the CLI's --from / --to / --of, the library's and MCP's dateFrom /
// dateTo) is read here, once, by the same rules, before anything is sent: a typo costs none of the
// 100 analytics requests an organization gets an hour. A calendar date or ISO 8601 date-time is sent
// on as the user wrote it; a duration before now (`7d`) is sent as the instant it names, so every page
// of a listing and a printed resume command mean the same range.
import { UsageError } from '../errors.js';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const BEFORE_NOW = /^(\d{1,9})([mhdw])$/;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * The first day the Admin API can hold analytics for. Mintlify's analytics began years later; the
 * floor is round and well before them. A date before it is a typo (0100 for 2010, 0050 for 2050),
 * and an `analytics sync --from` that far back would plan a window for every day since.
 */
export const EARLIEST_DATA_DAY = '2020-01-01';
/** EARLIEST_DATA_DAY as epoch ms. */
export const EARLIEST_DATA = Date.UTC(2020, 0, 1);

/** A date as given and as it goes to the API. */
export interface DateInput {
  /** Epoch milliseconds. */
  time: number;
  /** The text to send: as written for a calendar date or date-time; the ISO instant for a duration before now. */
  text: string;
}

const FORMS =
  'use YYYY-MM-DD (e.g. 2026-11-16), an ISO 8601 date-time (e.g. 2026-11-16T09:30:00Z) or a duration before now (7d, 12h, 2w, 30m)';

/**
 * `YYYY-MM-DD` (midnight UTC), an ISO 8601 date-time (`2026-11-16T09:30:00Z`, `...+01:00`; no offset
 * means UTC, as the API reads it), or a duration before `now` (`7d`, `12h`, `2w`, `30m`). Years are
 * four digits and mean what they say. Anything else, a day not on the calendar (2026-02-30), or a
 * date before the API can hold data is a UsageError naming `name` (the flag or the field).
 */
export function readDate(text: string, name: string, now: number): DateInput {
  const relative = BEFORE_NOW.exec(text);
  if (relative) {
    const time = now - Number(relative[1]) * UNIT_MS[relative[2]!]!;
    checkReach(time, text, name);
    return { time, text: new Date(time).toISOString() };
  }
  const m = DATE_ONLY.exec(text) ?? DATE_TIME.exec(text);
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = m ?? [];
  const time = m ? toEpoch({ year, month, day, hour, minute, second, fraction, zone }) : undefined;
  if (time === undefined) throw new UsageError(`${name}: "${text}" is not a date; ${FORMS}`);
  checkReach(time, text, name);
  return { time, text };
}

/** `readDate(...).time`, for a caller that sends nothing on (the sync's reach). */
export function parseDateFlag(text: string, flag: string, now: number): number {
  return readDate(text, flag, now).time;
}

export interface DateRange {
  from?: DateInput | undefined;
  to?: DateInput | undefined;
}

/** Both ends of a range, each read by readDate, and --from before --to. `names` are the flags or fields. */
export function readDateRange(
  given: { from?: string | undefined; to?: string | undefined },
  now: number,
  names: { from: string; to: string } = FLAGS,
): DateRange {
  const from = given.from === undefined ? undefined : readDate(given.from, names.from, now);
  const to = given.to === undefined ? undefined : readDate(given.to, names.to, now);
  checkDateRange(from?.time, to?.time, names);
  return { from, to };
}

const FLAGS = { from: '--from', to: '--to' };

/** The start must come before the end, which is exclusive: an empty range would only waste a request. */
export function checkDateRange(
  from: number | undefined,
  to: number | undefined,
  names: { from: string; to: string } = FLAGS,
): void {
  if (from !== undefined && to !== undefined && from >= to) {
    // Flags are written as a command line, fields as a list: "--from 2026-11-16 --to ...", "dateFrom 2026-11-16, dateTo ...".
    const between = names.from.startsWith('--') ? ' ' : ', ';
    throw new UsageError(
      `${names.from} must be before ${names.to} (${names.to} is exclusive: a week is ${names.from} 2026-11-16${between}${names.to} 2026-11-23)`,
    );
  }
}

function checkReach(time: number, text: string, name: string): void {
  if (time < EARLIEST_DATA)
    throw new UsageError(
      `${name}: "${text}" is before ${EARLIEST_DATA_DAY}, earlier than the Admin API holds any data (years are four digits: 0050 is the year 50)`,
    );
}

function toEpoch(p: Record<string, string | undefined>): number | undefined {
  const [year, month, day, hour, minute, second] = [p.year, p.month, p.day, p.hour, p.minute, p.second].map(
    Number,
  ) as number[];
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysIn(year!, month!)) return undefined;
  if (hour! > 23 || minute! > 59 || second! > 59) return undefined;
  const offset = offsetMinutes(p.zone ?? 'Z');
  if (offset === undefined) return undefined;
  const millis = Number((p.fraction || '.0').slice(1, 4).padEnd(3, '0'));
  // Not Date.UTC: it reads the years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day!);
  date.setUTCHours(hour!, minute!, second!, millis);
  return date.getTime() - offset * 60_000;
}

/** The proleptic Gregorian calendar's days in a month (year 0 is a leap year, as ISO 8601 counts). */
function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function offsetMinutes(zone: string): number | undefined {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2));
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}
