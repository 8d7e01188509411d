// Waiting for an export job: the shared polling loop (pollUntil) plus what a person or a CI log sees
// meanwhile. On a terminal, a live bar (`Exporting [#####-----] 58% · 120 pages · 1m05s`); elsewhere a
// plain line when something changed, at most every few seconds, and always on a change of status.
import type { Clock } from '../../clock.js';
import type { ExportJob, ExportJobStatus, UnknownStatus } from '../../api/types.js';
import { unknownStatusError } from '../../unknown-status.js';
import { formatDuration } from '../../duration.js';
import { InterruptedError, JobFailedError, WaitTimeoutError, briefReason } from '../../errors.js';
import type { Activity, Reporter } from '../../io.js';
import { pollUntil } from '../../wait.js';
import { waitCommand } from './api.js';
import { countOf } from './output.js';

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
  fetch: (jobId: string, signal?: AbortSignal) => Promise<ExportJob>;
  intervalMs: number;
  timeoutMs: number;
  /** The command that picks the wait up again, for the timeout and Ctrl-C messages. */
  resume?: string;
}

// A Record, not a list: a state added to the schema's enum fails to compile here until it is placed.
const KNOWN: Record<ExportJobStatus, true> = { queued: true, running: true, completed: true, failed: true };

/** A status newer than this CLI ends the wait (exit 1): it cannot know whether the job will finish. */
function isUnknown(status: ExportJob['status']): status is UnknownStatus {
  return !Object.hasOwn(KNOWN, status);
}

const BAR_WIDTH = 20;
/** How often the elapsed time on a live bar moves between polls. */
const LIVE_TICK_MS = 1000;

/** Resolves with the completed job; throws JobFailedError (4), WaitTimeoutError (5) or InterruptedError (130). */
export async function followExport(opts: FollowOptions, deps: FollowDeps): Promise<ExportJob> {
  const { jobId } = opts;
  const resume = opts.resume ?? waitCommand(jobId);
  const { clock, reporter } = deps;
  const activity = await reporter.activity(`Waiting for export ${jobId} (Ctrl-C stops waiting; the export keeps running)`);
  const started = clock.now();
  let last: ExportJob | undefined;
  let lastKey = '';
  const ticker = reporter.live
    ? setInterval(() => last && activity.update(describeProgress(last, clock.now() - started)), LIVE_TICK_MS).unref()
    : undefined;
  try {
    const job = await pollUntil<ExportJob>({
      fetch: (signal) => opts.fetch(jobId, signal),
      isDone: (j) => j.status === 'completed' || j.status === 'failed' || isUnknown(j.status),
      onValue: (j, elapsedMs) => {
        const key = `${j.status}|${j.progress}|${j.pageCount}`;
        // Plain lines only when something moved; the live bar also shows the time passing. The final
        // state gets its own line from finish().
        const terminal = j.status === 'completed' || j.status === 'failed' || isUnknown(j.status);
        if (!terminal && (key !== lastKey || reporter.live)) {
          activity.update(describeProgress(j, elapsedMs), { milestone: j.status !== last?.status });
        }
        last = j;
        lastKey = key;
      },
      onTransientError: (error, retryInMs) => {
        const where = last ? describeProgress(last, clock.now() - started) : `Waiting for export ${jobId}`;
        activity.update(`${where} · ${briefReason(error)}; still waiting, next look in ${formatDuration(retryInMs)}`, { milestone: true });
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
    if (isUnknown(job.status)) throw unknownStatusError(`export ${jobId}`, job.status, `mint-admin export status ${jobId} --json`);
    return finish(job, activity, clock.now() - started);
  } catch (error) {
    activity.stop();
    // --json: a pipeline reads the last known job whatever ended the wait; the exit code says what did.
    if (deps.mode?.json && deps.io && last) deps.io.stdout.write(`${JSON.stringify(last, null, 2)}\n`);
    if (deps.signal.aborted) {
      throw new InterruptedError(`interrupted: stopped waiting, but export ${jobId} keeps running on the server; resume with \`${resume}\``);
    }
    throw error;
  } finally {
    if (ticker) clearInterval(ticker);
  }
}

function finish(job: ExportJob, activity: Activity, elapsedMs: number): ExportJob {
  if (job.status === 'failed') {
    activity.stop();
    throw new JobFailedError(`export ${job.jobId} failed: ${job.error ?? 'the API gave no reason'}`);
  }
  activity.succeed(`Exported ${countOf(job.pageCount, 'page')} in ${formatDuration(elapsedMs)}`);
  return job;
}

/** `Exporting [###########---------] 58% · 120 pages · 1m05s` */
export function describeProgress(job: ExportJob, elapsedMs: number): string {
  const percent = clampPercent(job.progress);
  const detail = job.status === 'queued' ? 'queued' : countOf(job.pageCount, 'page');
  return `Exporting [${progressBar(percent)}] ${percent}% · ${detail} · ${formatDuration(elapsedMs)}`;
}

export function progressBar(percent: number, width = BAR_WIDTH): string {
  const filled = Math.round((clampPercent(percent) / 100) * width);
  return '#'.repeat(filled) + '-'.repeat(width - filled);
}

/** `running, 58%, 120 pages` */
export function describeState(job: ExportJob): string {
  return `${job.status}, ${clampPercent(job.progress)}%, ${countOf(job.pageCount, 'page')}`;
}

function clampPercent(value: number): number {
  return Number.isFinite(value) ? Math.min(100, Math.max(0, Math.round(value))) : 0;
}

