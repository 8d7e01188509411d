// The sync: reads every analytics endpoint into the database within a request budget, what the report
// needs first, resumable at any page. Windows: the report's periods whole (a week or a month of each
// aggregate it sums, in one answer's pages); an aggregate endpoint one UTC day at a time, from today
// back to `from`; an item endpoint one window of timestamps at a time, its watermark (the end of its newest
// complete window) moved only when a window's last page is stored, because the API does not promise
// any order within one. What may still change is read again: a day read before it had settled, the
// last hours before an item stream's watermark, and feedback (its status changes) over the re-read span.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ApiClient } from '../../api/client.js';
import type { Clock } from '../../clock.js';
import { ApiError, NetworkError, RateLimitError } from '../../errors.js';
import { restrictDatabaseFiles } from '../db.js';
import { DatabaseWriteError, writeProblemOf } from '../errors.js';
import { pageGuard, type PagePosition } from '../../paging/engine.js';
import { DATA_TABLES, RANGE_OF, RANGE_TABLES } from '../schema.js';
import { reportPeriods } from '../report/period.js';
import { EARLIEST_DATA } from '../../queries/dates.js';
import type { BudgetStop, RequestBudget } from './budget.js';
import { markPass, markReach, readCheckpoints, withOneThread, writePage, type Checkpoint } from './store.js';
import { RANGE_STREAMS, STREAMS, type Page, type Stream, type Window } from './streams.js';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** A day read less than this after it ended is read again: the API may still be counting it. */
export const SETTLE_MS = 2 * 60 * 60 * 1000;
/** An item stream's new window starts this long before its watermark, for items that arrive late. */
export const ITEM_LOOKBACK_MS = 2 * 60 * 60 * 1000;
/** Feedback created in this span is read again on every sync, because its status may have changed. */
export const FEEDBACK_REREAD_MS = 30 * DAY_MS;
/** Tries of one page against a network error or a 5xx, each one counted against the budget. */
const PAGE_TRIES = 3;

export interface SyncEvent {
  table: Stream['table'];
  window: Window;
  rows: number;
  /** The window's last page was stored. */
  windowComplete: boolean;
  /** Fields of this page whose text held lone surrogates, stored as U+FFFD (for --debug). */
  repaired: Map<string, number>;
}

export interface SyncOptions {
  connection: DuckDBConnection;
  /** The database's file, for the words of a failed write. */
  path: string;
  api: ApiClient;
  projectId: string;
  /**
   * The first UTC day the sync reaches back to (epoch ms of its midnight), as given (--from); kept in
   * the database, so later runs without it reach as far. Neither given nor kept: DEFAULT_REACH_DAYS ago.
   */
  from?: number | undefined;
  clock: Clock;
  budget: RequestBudget;
  signal?: AbortSignal | undefined;
  onPage?: (event: SyncEvent) => void;
}

export interface SyncSummary {
  /** Every window up to date: nothing is left to read until something can change. */
  complete: boolean;
  requests: number;
  pages: number;
  rowsWritten: number;
  /** Windows still to read (or to finish) when the run stopped. */
  windowsLeft: number;
  /** Why the run stopped before it was complete; undefined when it is. */
  stop?: BudgetStop | undefined;
  /** Requests of the organization's hourly 100 left when the run ended, as counted on this machine. */
  requestsLeft: number;
  /** Days whose feedback by page held more pages than one answer can (the endpoint has no cursor). */
  truncated: string[];
}

interface Task {
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

export async function runSync(opts: SyncOptions): Promise<SyncSummary> {
  return withOneThread(opts.connection, () => syncWindows(opts));
}

async function syncWindows(opts: SyncOptions): Promise<SyncSummary> {
  const { connection, api, projectId, clock, budget, signal } = opts;
  const checkpoints = await readCheckpoints(connection);
  const pass = await startPass(connection, checkpoints, clock.now());
  const from = await reach(connection, checkpoints, opts.from, clock.now());
  const tasks = plan(
    checkpoints.filter((c) => c.stream !== PASS_STREAM && c.stream !== REACH_STREAM),
    from,
    clock.now(),
    pass,
  );
  const summary: SyncSummary = {
    complete: false,
    requests: 0,
    pages: 0,
    rowsWritten: 0,
    windowsLeft: tasks.length,
    requestsLeft: 0,
    truncated: [],
  };
  const started = budget.spent;
  const restarted = new Set<Task>();
  try {
    for (const task of tasks) {
      let checkpoint = task.checkpoint;
      let first = checkpoint.pages === 0 || (checkpoint.cursor === null && !checkpoint.complete);
      if (first) checkpoint = { ...checkpoint, pages: 0, rows: 0 };
      let guard = guardOf(task.stream, checkpoint.cursor);
      for (;;) {
        if (signal?.aborted) throw signal.reason;
        const stop = budget.check(clock.now());
        if (stop) {
          summary.stop = stop;
          return summary;
        }
        let page: Awaited<ReturnType<typeof fetchPage>>;
        try {
          page = await fetchPage(task, checkpoint.cursor);
        } catch (error) {
          // A cursor kept from an earlier run that the API no longer takes (it may expire): the window
          // starts again from its first page, once; its rows are keyed, so nothing is stored twice.
          if (
            !(error instanceof ApiError && error.status === 400 && checkpoint.cursor !== null && !restarted.has(task))
          )
            throw error;
          restarted.add(task);
          checkpoint = { ...checkpoint, cursor: null, pages: 0, rows: 0 };
          first = true;
          guard = guardOf(task.stream, null);
          continue;
        }
        if ('stop' in page) {
          summary.stop = page.stop;
          return summary;
        }
        // A page the guards find suspect (a cursor or page sent before, "more" with nothing) stops the
        // run before it is stored: its checkpoint stays at the last good page.
        const next = guard ? guard(page.answer, checkpoint.cursor) : page.next;
        const complete = next === null;
        checkpoint = {
          ...checkpoint,
          cursor: next,
          pages: checkpoint.pages + 1,
          rows: checkpoint.rows + page.rows.length,
          complete,
          updatedAt: clock.now(),
        };
        let written: Awaited<ReturnType<typeof writePage>>;
        try {
          written = await writePage(connection, { stream: task.stream, checkpoint, rows: page.rows, first });
        } catch (error) {
          throw new DatabaseWriteError(opts.path, writeProblemOf(error), error);
        }
        restrictDatabaseFiles(opts.path);
        first = false;
        summary.pages++;
        summary.rowsWritten += page.rows.length;
        if (page.truncated)
          summary.truncated.push(
            task.stream.kind === 'range'
              ? `${task.window.from} to ${utcDay(Date.parse(`${task.window.to}T00:00:00Z`) - DAY_MS)}`
              : task.window.from,
          );
        opts.onPage?.({
          table: task.stream.table,
          window: task.window,
          rows: page.rows.length,
          windowComplete: complete,
          repaired: written.repaired,
        });
        if (complete) break;
      }
      summary.windowsLeft--;
    }
    await markPass(connection, pass, true, clock.now());
    summary.complete = true;
    return summary;
  } finally {
    summary.requests = budget.spent - started;
    summary.requestsLeft = budget.left(clock.now());
  }

  async function fetchPage(
    task: Task,
    position: string | null,
  ): Promise<Awaited<ReturnType<Stream['fetch']>> | { stop: BudgetStop }> {
    for (let attempt = 1; ; attempt++) {
      budget.spend();
      try {
        return await task.stream.fetch(api, projectId, task.window, position, { once: true, signal });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (error instanceof RateLimitError)
          return { stop: { reason: 'rate-limited', nextAt: error.retryAt ?? clock.now() + 60 * 60 * 1000 } };
        const transient =
          error instanceof NetworkError ||
          (error instanceof ApiError && error.status !== undefined && error.status >= 500);
        if (!transient || attempt >= PAGE_TRIES) throw error;
        const stop = budget.check(clock.now());
        if (stop) return { stop };
        await clock.sleep(1000 * 2 ** (attempt - 1), signal);
      }
    }
  }
}

/**
 * The paging guards over one window's pages (src/paging/engine.ts), from the position the window
 * starts at; a stream of one page a window has none. Positions are the checkpoint's text: a cursor,
 * or an offset as a number's digits.
 */
function guardOf(
  stream: Stream,
  start: string | null,
): ((answer: Page['answer'], at: string | null) => string | null) | undefined {
  const paging = stream.paging;
  if (!paging) return undefined;
  const offsets = paging.style === 'offset+hasMore';
  const position = (at: string | null): PagePosition =>
    offsets ? { offset: at === null ? 0 : Number(at) } : at === null ? {} : { cursor: at };
  const check = pageGuard(paging, position(start));
  return (answer, at) => {
    if (!answer) throw new Error(`the ${stream.table} stream returned no answer for its paging guards`);
    const next = check(answer.page, answer.items, position(at));
    if (next === null) return null;
    return offsets ? String(next.offset ?? 0) : (next.cursor ?? null);
  };
}

/** The start of the pass this run belongs to: the unfinished one, or a new one from now. */
/**
 * How far back this run reads: the --from given (kept for the next runs), else the one kept, else
 * DEFAULT_REACH_DAYS ago. Without the keeping, a first sync of 40 days stopped by its budget left days
 * 31-40 unread for good: the runs after it, without --from, reached 30 days back and called it done.
 */
async function reach(
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

async function startPass(connection: DuckDBConnection, checkpoints: Checkpoint[], now: number): Promise<number> {
  const open = checkpoints.find((c) => c.stream === PASS_STREAM && !c.complete);
  if (open) return open.windowTo;
  await markPass(connection, now, false, now);
  return now;
}
