// Times as the sync stores them: DuckDB's TIMESTAMP keeps no offset, so every time is turned to UTC
// before it is stored, and an item's day is the UTC day of its time.

/** An ISO 8601 time that carries an offset other than Z: `2026-11-27T23:30:00-05:00`. */
const OFFSET_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?[+-]\d\d:?\d\d$/;

/**
 * A time as UTC: DuckDB's TIMESTAMP drops an offset (23:30-05:00 was stored as 23:30, on the wrong
 * day). Anything else goes as sent, for DuckDB to read (a time that is not one is stored as NULL).
 */
export const inUtc = <T>(time: T): T | string => {
  if (typeof time !== 'string' || !OFFSET_TIME.test(time)) return time;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? time : new Date(ms).toISOString();
};

/** The UTC day of a time: all before its `T`, so an expanded year (`-000001-06-01T...`, `+010000-...`) keeps its whole date. */
export const dayOf = (time: string | null | undefined): string | null => {
  const utc = inUtc(time);
  if (typeof utc !== 'string' || utc === '') return null;
  const t = utc.indexOf('T');
  return t > 0 ? utc.slice(0, t) : utc.slice(0, 10);
};
