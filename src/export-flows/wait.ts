// Waiting for an export job on either flow, with the rules every face shares: the one polling loop
// (pollUntil: deadline, backoff on transient errors, a 404 ends it), a status the documents do not
// list ends it too (it cannot tell whether the job will finish), and `failed` is an error. What a
// person sees meanwhile is the face's (the CLI's live bar and plain lines: commands/export/follow.ts).
import type { AnyExportJob, ExportJobStatus, UnknownStatus } from '../api/types.js';
import type { Clock } from '../clock.js';
import { JobFailedError, WaitTimeoutError } from '../errors.js';
import { pollUntil } from '../wait.js';
import { UnknownExportStatusError } from './errors.js';

export interface ExportWaitOptions {
  jobId: string;
  /** One look at the job on its flow (FlowApi.get); the signal cuts off a poll in flight at the deadline. */
  fetch: (jobId: string, signal?: AbortSignal) => Promise<AnyExportJob>;
  intervalMs: number;
  timeoutMs: number;
  clock: Clock;
  random?: () => number;
  signal?: AbortSignal;
  /** Every look at the job, the last one included. */
  onJob?: (job: AnyExportJob, elapsedMs: number) => void;
  /** A transient failure the wait sits out. */
  onTransientError?: (error: unknown, retryInMs: number) => void;
  /** The error for a wait past its deadline (default: a WaitTimeoutError that says the job keeps running). */
  timeoutError?: (elapsedMs: number, last: AnyExportJob | undefined) => Error;
}

// A Record, not a list: a state added to the schema's enum fails to compile here until it is placed.
const KNOWN: Record<ExportJobStatus, true> = { queued: true, running: true, completed: true, failed: true };

export function isUnknownStatus(status: AnyExportJob['status']): status is UnknownStatus {
  return !Object.hasOwn(KNOWN, status);
}

export function isFinalStatus(status: AnyExportJob['status']): boolean {
  return status === 'completed' || status === 'failed' || isUnknownStatus(status);
}

/**
 * Resolves with the completed job; throws JobFailedError (the job's own reason), UnknownExportStatusError,
 * the timeout error, or the signal's reason.
 */
export async function waitForExportJob(opts: ExportWaitOptions): Promise<AnyExportJob> {
  const { jobId } = opts;
  const job = await pollUntil<AnyExportJob>({
    fetch: (signal) => opts.fetch(jobId, signal),
    isDone: (j) => isFinalStatus(j.status),
    onValue: opts.onJob,
    onTransientError: opts.onTransientError,
    timeoutError:
      opts.timeoutError ??
      ((elapsedMs) =>
        new WaitTimeoutError(
          `export ${jobId} did not finish within ${Math.round(elapsedMs / 1000)} s; it keeps running on the server`,
        )),
    intervalMs: opts.intervalMs,
    timeoutMs: opts.timeoutMs,
    clock: opts.clock,
    signal: opts.signal,
    random: opts.random,
  });
  if (isUnknownStatus(job.status)) throw new UnknownExportStatusError(jobId, job.status);
  if (job.status === 'failed')
    throw new JobFailedError(`export ${jobId} failed: ${job.error ?? 'the API gave no reason'}`);
  return job;
}
