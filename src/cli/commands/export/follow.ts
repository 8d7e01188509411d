// Waiting for an export job: the engine's wait (export-flows/wait.ts) plus what a person or a CI log sees
// meanwhile. On a terminal, a live bar (`Exporting [#####-----] 58% · 120 pages · 1m05s`); elsewhere a
// plain line when something changed, at most every few seconds, and always on a change of status.
import type { Clock } from '../../../clock.js';
import type { AnyExportJob } from '../../../api/types.js';
import { unknownStatusError } from '../../unknown-status.js';
import { formatDuration } from '../../../duration.js';
import { InterruptedError, WaitTimeoutError, briefReason } from '../../../errors.js';
import { UnknownExportStatusError } from '../../../export-flows/errors.js';
import { isFinalStatus, waitForExportJob } from '../../../export-flows/wait.js';
import type { Activity, Reporter } from '../../../reporter.js';
import { waitCommand } from './api.js';
import { jsonText } from '../../../output/json-text.js';
import { progressBar } from '../../../output/progress.js';
import { countOf, pagesOf, progressOf } from './output.js';

export interface FollowDeps {
  clock: Clock;
  random: () => number;
  signal: AbortSignal;
  reporter: Reporter;
  /** With --json, a wait that ends early (timeout, failure, interruption) prints the last job seen here. */
  mode?: { json: boolean };
  io?: { stdout: NodeJS.WritableStream };
}

export interface FollowOptions {
  jobId: string;
  /** One look at the job on its flow (FlowApi.get); the signal cuts off a poll in flight at the deadline. */
  fetch: (jobId: string, signal?: AbortSignal) => Promise<AnyExportJob>;
  intervalMs: number;
  timeoutMs: number;
  /** The command that picks the wait up again, for the timeout and Ctrl-C messages. */
  resume?: string;
}

const BAR_WIDTH = 20;
/** How often the elapsed time on a live bar moves between polls. */
const LIVE_TICK_MS = 1000;

/** Resolves with the completed job; throws JobFailedError (4), WaitTimeoutError (5) or InterruptedError (130). */
export async function followExport(opts: FollowOptions, deps: FollowDeps): Promise<AnyExportJob> {
  const { jobId } = opts;
  const resume = opts.resume ?? waitCommand(jobId);
  const { clock, reporter } = deps;
  const activity = await reporter.activity(
    `Waiting for export ${jobId} (Ctrl-C stops waiting; the export keeps running)`,
  );
  const started = clock.now();
  let last: AnyExportJob | undefined;
  let lastKey = '';
  const ticker = reporter.live
    ? setInterval(() => last && activity.update(describeProgress(last, clock.now() - started)), LIVE_TICK_MS).unref()
    : undefined;
  try {
    const job = await waitForExportJob({
      jobId,
      fetch: opts.fetch,
      onJob: (j, elapsedMs) => {
        const key = `${j.status}|${progressOf(j)}|${pagesOf(j)}`;
        // Plain lines only when something moved; the live bar also shows the time passing. The final
        // state gets its own line from finish().
        const terminal = isFinalStatus(j.status);
        if (!terminal && (key !== lastKey || reporter.live)) {
          activity.update(describeProgress(j, elapsedMs), { milestone: j.status !== last?.status });
        }
        last = j;
        lastKey = key;
      },
      onTransientError: (error, retryInMs) => {
        const where = last ? describeProgress(last, clock.now() - started) : `Waiting for export ${jobId}`;
        activity.update(`${where} · ${briefReason(error)}; still waiting, next look in ${formatDuration(retryInMs)}`, {
          milestone: true,
        });
      },
      timeoutError: (elapsedMs, j) =>
        new WaitTimeoutError(
          `export ${jobId} did not finish within ${formatDuration(elapsedMs)}${j ? ` (last seen ${describeState(j)})` : ''}; it keeps running on the server: resume with \`${resume}\``,
        ),
      intervalMs: opts.intervalMs,
      timeoutMs: opts.timeoutMs,
      clock,
      signal: deps.signal,
      random: deps.random,
    });
    return finish(job, activity, clock.now() - started);
  } catch (caught) {
    activity.stop();
    // A status newer than this CLI ends the wait (exit 1): it cannot know whether the job will finish.
    const error =
      caught instanceof UnknownExportStatusError
        ? unknownStatusError(`export ${jobId}`, caught.status, `mint-admin export status ${jobId} --json`)
        : caught;
    // --json: a pipeline reads the last known job whatever ended the wait; the exit code says what did.
    if (deps.mode?.json && deps.io && last) deps.io.stdout.write(`${jsonText(last, 2)}\n`);
    if (deps.signal.aborted) {
      throw new InterruptedError(
        `interrupted: stopped waiting, but export ${jobId} keeps running on the server; resume with \`${resume}\``,
      );
    }
    throw error;
  } finally {
    if (ticker) clearInterval(ticker);
  }
}

function finish(job: AnyExportJob, activity: Activity, elapsedMs: number): AnyExportJob {
  const pages = pagesOf(job);
  activity.succeed(
    `Exported ${pages === undefined ? '' : `${countOf(pages, 'page')} `}in ${formatDuration(elapsedMs)}`,
  );
  return job;
}

/**
 * `Exporting [###########---------] 58% · 120 pages · 1m05s` on the jobs flow; the project flow reports
 * no progress, so there it is `Exporting · running · 1m05s` (no invented percentage).
 */
export function describeProgress(job: AnyExportJob, elapsedMs: number): string {
  const progress = progressOf(job);
  const pages = pagesOf(job);
  if (progress === undefined) return `Exporting · ${job.status} · ${formatDuration(elapsedMs)}`;
  const percent = clampPercent(progress);
  const detail = job.status === 'queued' || pages === undefined ? job.status : countOf(pages, 'page');
  return `Exporting ${progressBar(percent / 100, BAR_WIDTH)} ${percent}% · ${detail} · ${formatDuration(elapsedMs)}`;
}

/** `running, 58%, 120 pages` (just `running` on the project flow) */
export function describeState(job: AnyExportJob): string {
  const progress = progressOf(job);
  const pages = pagesOf(job);
  return [
    job.status,
    progress === undefined ? undefined : `${clampPercent(progress)}%`,
    pages === undefined ? undefined : countOf(pages, 'page'),
  ]
    .filter((part) => part !== undefined)
    .join(', ');
}

function clampPercent(value: number): number {
  return Number.isFinite(value) ? Math.min(100, Math.max(0, Math.round(value))) : 0;
}
