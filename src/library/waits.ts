// The CLI's waits for scripts: an agent job to its pull request, a deployment or preview build to its
// end. The same engine as `agent get --wait` and `deploy|preview status --wait` (src/waits/): the
// deadline, backoff through transient failures, a status this version does not know ends the wait,
// an AbortSignal stops it at once. What the CLI prints arrives here as events; every bad ending is a
// typed error carrying what was last seen, so a script decides without parsing a message.
import type { AgentJob, UpdateStatus } from '../api/types.js';
import { systemClock, type Clock } from '../clock.js';
import { checkProjectId } from '../config/validators.js';
import { checkWaitLength } from '../duration.js';
import { UsageError } from '../errors.js';
import { checkExactId } from '../ids.js';
import { followAgentJob, type AgentJobWaitEvent } from '../waits/agent-job.js';
import { followBuild, type BuildWaitEvent } from '../waits/build.js';
import { AgentJobFailedError, BuildFailedError } from '../waits/errors.js';
import type { AdminClient } from './client.js';

export type { AgentJobWaitEvent, BuildWaitEvent };

/** The CLI's defaults for --timeout and --interval. */
const DEFAULT_TIMEOUT_MS = 30 * 60_000;
const DEFAULT_INTERVAL_MS = 5000;
/** Log lines a BuildFailedError carries: the CLI repeats as many in its failure message. */
const FAILURE_LOG_LINES = 5;

interface CommonWaitOptions {
  client: AdminClient;
  /** Give up after this long (default 30 minutes); the job goes on on the server. */
  timeoutMs?: number;
  /** First pause between looks (default 5 s, at least 100 ms); it grows toward 30 s. */
  intervalMs?: number;
  /** Stops the wait at once, the request in flight included; the wait rejects with the signal's reason. */
  signal?: AbortSignal;
  /** For tests: time, and the jitter of the pauses. */
  clock?: Clock;
  random?: () => number;
}

export interface WaitForAgentJobOptions extends CommonWaitOptions {
  projectId: string;
  jobId: string;
  /** Every look at the job, and every transient failure sat out. */
  onEvent?: (event: AgentJobWaitEvent) => void;
}

export interface WaitForBuildOptions extends CommonWaitOptions {
  /** The `statusId` of `triggerUpdate()` or `triggerPreview()`. */
  statusId: string;
  /** Every look at the build, its new log lines (each line once), and every transient failure sat out. */
  onEvent?: (event: BuildWaitEvent) => void;
}

/**
 * Waits until the agent job is `completed` (its `prLink` is the pull request; null when the job
 * changed nothing) or `archived`. A `failed` job is an AgentJobFailedError carrying the job; the
 * deadline an AgentJobTimeoutError carrying the last job seen; a status this version does not know an
 * UnknownStatusError.
 */
export async function waitForAgentJob(
  options: WaitForAgentJobOptions,
): Promise<AgentJob & { status: 'completed' | 'archived' }> {
  const projectId = checkProjectId(options.projectId, 'projectId');
  const jobId = checkExactId('agent job id', options.jobId, 'the id createAgentJob returned');
  const job = await followAgentJob({
    api: options.client,
    projectId,
    jobId,
    ...pacing(options),
    signal: options.signal,
    onEvent: options.onEvent,
  });
  if (job.status === 'failed') throw new AgentJobFailedError(job);
  return job as AgentJob & { status: 'completed' | 'archived' };
}

/**
 * Waits until the deployment or preview build succeeds and returns its last status. `failure` is a
 * BuildFailedError carrying the build and its last log lines; the deadline a BuildTimeoutError
 * carrying the last status seen; a status this version does not know an UnknownStatusError.
 */
export async function waitForBuild(options: WaitForBuildOptions): Promise<UpdateStatus & { status: 'success' }> {
  const statusId = checkExactId('status id', options.statusId, 'the statusId triggerUpdate or triggerPreview returned');
  const { build, logTail } = await followBuild({
    api: options.client,
    statusId,
    ...pacing(options),
    signal: options.signal,
    onEvent: options.onEvent,
  });
  if (build.status === 'failure') throw new BuildFailedError(statusId, build, logTail(FAILURE_LOG_LINES));
  return build as UpdateStatus & { status: 'success' };
}

/** The deadline and pauses, checked before anything is sent. */
function pacing(options: CommonWaitOptions): {
  timeoutMs: number;
  intervalMs: number;
  clock: Clock;
  random: (() => number) | undefined;
} {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  // Beyond what a timer holds, a timeout fires at once and an interval not at all (a poll without pause).
  if (!(timeoutMs > 0)) throw new UsageError(`timeoutMs: ${timeoutMs} must be longer than zero (milliseconds)`);
  checkWaitLength(timeoutMs, `timeoutMs: ${timeoutMs}`);
  if (!(intervalMs >= 100)) throw new UsageError(`intervalMs: ${intervalMs} must be at least 100 (milliseconds)`);
  checkWaitLength(intervalMs, `intervalMs: ${intervalMs}`);
  return { timeoutMs, intervalMs, clock: options.clock ?? systemClock, random: options.random };
}
