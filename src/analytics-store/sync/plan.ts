// What a sync reads and in which order: the windows of every stream, planned from the checkpoints the
// database keeps, and how far back the sync reaches. engine.ts reads what this plans.
import type { DuckDBConnection } from '@duckdb/node-api';
import { EARLIEST_DATA } from '../../queries/dates.js';
import { reportPeriods } from '../report/period.js';
import { DATA_TABLES, RANGE_OF, RANGE_TABLES } from '../schema.js';
import { markPass, markReach, type Checkpoint } from './store.js';
import type { Stream, Window } from './stream.js';
import { RANGE_STREAMS, STREAMS } from './streams.js';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** A day read less than this after it ended is read again: the API may still be counting it. */
export const SETTLE_MS = 2 * 60 * 60 * 1000;
/** An item stream's new window starts this long before its watermark, for items that arrive late. */
export const ITEM_LOOKBACK_MS = 2 * 60 * 60 * 1000;
/** Feedback created in this span is read again on every sync, because its status may have changed. */
export const FEEDBACK_REREAD_MS = 30 * DAY_MS;

/** One window of one stream to read, from where its checkpoint stands. */
export interface Task {
  stream: Stream;
  window: Window;
  checkpoint: Checkpoint;
}

export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const startOfUtcDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/** The sync_state row that marks a pass: every window brought up to date, over one run or many. */
export const PASS_STREAM = '_pass';
/** The sync_state row that keeps the --from last given (its window_to), for the runs without one. */
export const REACH_STREAM = '_reach';
/** How far back a sync reaches when no --from was ever given. */
export const DEFAULT_REACH_DAYS = 30;

/**
 * What is left to read in this pass, in the order it is read: windows a run left unfinished, then what
 * `analytics report` needs (reportRanges), then windows never read (item streams' first, then each day
 * from today back), then what may have changed since it was read (a day read before it settled, items
 * since the watermark, feedback's status) and was not read again yet in this pass. So a short budget
 * fills the report first, then the backlog newest first, and the refreshes come once per pass, never
 * once per run.
 */
export function plan(checkpoints: Checkpoint[], from: number, now: number, passStart: number): Task[] {
  const byKey = new Map(checkpoints.map((c) => [`${c.stream}|${c.windowFrom}`, c]));
  const unfinished: Task[] = checkpoints
    .filter((c) => !c.complete && c.stream in RANGE_STREAMS)
    .map((c) => task(RANGE_STREAMS[c.stream as keyof typeof RANGE_STREAMS], c));
  const unread: Task[] = [];
  const refresh: Task[] = [];
  for (const table of DATA_TABLES) {
    const stream = STREAMS[table];
    if (stream.kind !== 'items') continue;
    const own = checkpoints.filter((c) => c.stream === table);
    const open = own.find((c) => !c.complete);
    if (open) {
      unfinished.push(task(stream, open));
      continue;
    }
    if (own.length === 0) {
      // Never read: from the reach, feedback too (only its re-reads are held to FEEDBACK_REREAD_MS).
      if (from < now) unread.push(task(stream, fresh(table, from, now)));
      continue;
    }
    const watermark = Math.max(...own.map((c) => c.windowTo));
    if (watermark >= passStart) continue; // read in this pass already
    const start =
      table === 'feedback' ? Math.max(from, now - FEEDBACK_REREAD_MS) : Math.max(from, watermark - ITEM_LOOKBACK_MS);
    if (start < now) refresh.push(task(stream, fresh(table, start, now)));
  }
  for (let day = startOfUtcDay(now); day >= from; day -= DAY_MS) {
    for (const table of DATA_TABLES) {
      const stream = STREAMS[table];
      if (stream.kind !== 'day') continue;
      const stored = byKey.get(`${table}|${day}`);
      if (!stored) unread.push(task(stream, fresh(table, day, day + DAY_MS)));
      else if (!stored.complete) unfinished.push(task(stream, stored));
      // A complete day not yet settled is read again from its first page (which replaces its rows).
      else if (stored.updatedAt < stored.windowTo + SETTLE_MS && stored.updatedAt < passStart)
        refresh.push(task(stream, fresh(table, day, day + DAY_MS)));
    }
  }
  return [...unfinished, ...reportRanges(byKey, from, now, passStart), ...unread, ...refresh];
}

const task = (stream: Stream, checkpoint: Checkpoint): Task => ({
  stream,
  window:
    stream.kind === 'items'
      ? { from: iso(checkpoint.windowFrom), to: iso(checkpoint.windowTo) }
      : { from: utcDay(checkpoint.windowFrom), to: utcDay(checkpoint.windowTo) },
  checkpoint,
});

/**
 * The periods `analytics report` compares, read whole at once (one range window per aggregate the
 * report sums): the last complete week and the one before, then the last two complete months. A day
 * window costs the pages of one day, a range window the pages of one answer over the whole period, so
 * a first sync gives a whole report within one hour's budget. A period is read this way only when it
 * lies within the reach (--from), and only for a table whose days of that period are not all read
 * already; a range read before it settled is read again once per pass, as a day is.
 */
function reportRanges(byKey: Map<string, Checkpoint>, from: number, now: number, passStart: number): Task[] {
  const tasks: Task[] = [];
  // A month that starts on the Monday a week starts on would have that week's checkpoint key (stream
  // and window_from): it is not read whole, rather than written over the week's checkpoint; its days
  // serve the report, as they do for any period not read whole.
  const planned = new Set<string>();
  const weeks = reportPeriods('week', new Date(now));
  const months = reportPeriods('month', new Date(now));
  for (const period of [weeks.current, weeks.previous, months.current, months.previous]) {
    const start = Date.parse(`${period.from}T00:00:00Z`);
    const end = Date.parse(`${period.to}T00:00:00Z`);
    if (start < from) continue;
    for (const table of RANGE_TABLES) {
      const stored = byKey.get(`${table}|${start}`);
      if (stored && stored.windowTo !== end) continue; // another range from the same day (a month starting on a Monday): read as its own
      if (stored?.complete && (stored.updatedAt >= stored.windowTo + SETTLE_MS || stored.updatedAt >= passStart))
        continue;
      if (!stored && daysRead(byKey, RANGE_OF[table], start, end)) continue;
      if (planned.has(`${table}|${start}`)) continue;
      planned.add(`${table}|${start}`);
      if (!stored || stored.complete) tasks.push(task(RANGE_STREAMS[table], fresh(table, start, end)));
    }
  }
  return tasks;
}

/** Every day of [start, end) read whole for `table`, and settled. */
function daysRead(byKey: Map<string, Checkpoint>, table: string, start: number, end: number): boolean {
  for (let day = start; day < end; day += DAY_MS) {
    const stored = byKey.get(`${table}|${day}`);
    if (!stored?.complete || stored.updatedAt < stored.windowTo + SETTLE_MS) return false;
  }
  return true;
}

function fresh(stream: string, windowFrom: number, windowTo: number): Checkpoint {
  return { stream, windowFrom, windowTo, cursor: null, pages: 0, rows: 0, complete: false, updatedAt: 0 };
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * How far back this run reads: the --from given (kept for the next runs), else the one kept, else
 * DEFAULT_REACH_DAYS ago. Without the keeping, a first sync of 40 days stopped by its budget left days
 * 31-40 unread for good: the runs after it, without --from, reached 30 days back and called it done.
 */
export async function reach(
  connection: DuckDBConnection,
  checkpoints: Checkpoint[],
  given: number | undefined,
  now: number,
): Promise<number> {
  const kept = checkpoints.find((c) => c.stream === REACH_STREAM)?.windowTo;
  // A reach kept by a version that read 0100 as the year 100 would plan a window for every day since:
  // no earlier than the API can hold data (a --from given now is refused before that, queries/dates.ts).
  if (given === undefined)
    return kept === undefined ? startOfUtcDay(now - DEFAULT_REACH_DAYS * DAY_MS) : Math.max(kept, EARLIEST_DATA);
  if (given !== kept) await markReach(connection, given, now);
  return given;
}

/** The start of the pass this run belongs to: the unfinished one, or a new one from now. */
export async function startPass(connection: DuckDBConnection, checkpoints: Checkpoint[], now: number): Promise<number> {
  const open = checkpoints.find((c) => c.stream === PASS_STREAM && !c.complete);
  if (open) return open.windowTo;
  await markPass(connection, now, false, now);
  return now;
}
