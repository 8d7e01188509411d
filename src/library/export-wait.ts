// Waiting for a jobs-flow export: AdminClient.waitForExport, and the pacing every export wait of the
// library checks before anything is sent.
import type { ExportJob, ExportJobStatus } from '../api/types.js';
import type { CallOptions } from '../api/client.js';
import type { Clock } from '../clock.js';
import { checkWaitLength } from '../duration.js';
import { UsageError, WaitTimeoutError } from '../errors.js';
import { ExportJobNotFoundError, isNotFound } from '../export-flows/errors.js';
import { pollUntil } from '../wait.js';

export interface WaitOptions extends CallOptions {
  /** Give up after this long (default 30 minutes) with a WaitTimeoutError; the job keeps running. */
  timeoutMs?: number;
  /** First pause between looks (default 2 s); it grows toward 30 s. */
  intervalMs?: number;
  /** Every look at the job. */
  onProgress?: (job: ExportJob) => void;
}

// A Record, not a list: a state added to the schema's enum fails to compile here until it is placed.
const STILL_RUNNING: Record<ExportJobStatus, boolean> = {
  queued: true,
  running: true,
  completed: false,
  failed: false,
};

/**
 * Polls one jobs-flow export through the CLI's one polling loop until it is `completed` or `failed`
 * (or reports a status this version does not know); see AdminClient.waitForExport.
 */
export function pollExportJob(
  getExport: (jobId: string, call: CallOptions) => Promise<ExportJob>,
  jobId: string,
  options: WaitOptions,
  clock: Clock,
  random: () => number,
): Promise<ExportJob> {
  const { timeoutMs, intervalMs } = exportWaitPacing(options);
  return pollUntil({
    fetch: () =>
      getExport(jobId, options).catch((error: unknown) => {
        if (!isNotFound(error)) throw error;
        throw new ExportJobNotFoundError(
          jobId,
          error.serverMessage,
          error.details,
          'waitForExport follows jobs-flow exports only: for a project-flow job use waitForStaticExport(client, jobId, { projectId })',
        );
      }),
    // A status this version does not know ends the wait too: it cannot tell whether the job will finish.
    isDone: (job) => !Object.hasOwn(STILL_RUNNING, job.status) || !STILL_RUNNING[job.status as ExportJobStatus],
    onValue: (job) => options.onProgress?.(job),
    timeoutError: () =>
      new WaitTimeoutError(
        `export ${jobId} did not finish within ${Math.round(timeoutMs / 1000)} s; it keeps running on the server`,
      ),
    intervalMs,
    timeoutMs,
    clock,
    random,
    signal: options.signal,
  });
}

/** An export wait's deadline and first pause (defaults 30 minutes and 2 s), checked before anything is sent. */
export function exportWaitPacing(options: { timeoutMs?: number | undefined; intervalMs?: number | undefined }): {
  timeoutMs: number;
  intervalMs: number;
} {
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  const intervalMs = options.intervalMs ?? 2000;
  // Beyond what a timer holds, a timeout fires at once and an interval not at all (a poll without
  // pause); no pause at all is the same flood.
  checkWaitLength(timeoutMs, `timeoutMs: ${timeoutMs}`);
  if (!(intervalMs >= 100)) throw new UsageError(`intervalMs: ${intervalMs} must be at least 100 (milliseconds)`);
  checkWaitLength(intervalMs, `intervalMs: ${intervalMs}`);
  return { timeoutMs, intervalMs };
}
