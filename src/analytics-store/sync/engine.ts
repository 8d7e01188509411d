// The sync: reads every analytics endpoint into the database within a request budget, what the report
// needs first, resumable at any page. Windows: the report's periods whole (a week or a month of each
// aggregate it sums, in one answer's pages); an aggregate endpoint one UTC day at a time, from today
// back to `from`; an item endpoint one window of timestamps at a time, its watermark (the end of its newest
// complete window) moved only when a window's last page is stored, because the API does not promise
// any order within one. What may still change is read again: a day read before it had settled, the
// last hours before an item stream's watermark, and feedback (its status changes) over the re-read span.
// plan.ts decides which windows and in what order; this file reads them page by page and stores them.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ApiClient } from '../../api/client.js';
import type { Clock } from '../../clock.js';
import { ApiError, NetworkError, RateLimitError } from '../../errors.js';
import { restrictDatabaseFiles } from '../db.js';
import { DatabaseWriteError, writeProblemOf } from '../errors.js';
import { pageGuard, type PagePosition } from '../../paging/engine.js';
import type { BudgetStop, RequestBudget } from './budget.js';
import { DAY_MS, PASS_STREAM, plan, REACH_STREAM, reach, startPass, type Task, utcDay } from './plan.js';
import { markPass, readCheckpoints, withOneThread, writePage } from './store.js';
import type { Page, Stream, Window } from './stream.js';

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
