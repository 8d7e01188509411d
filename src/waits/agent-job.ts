// Waiting for an agent job to end, for every face: which statuses end it, which one the wait cannot
// place, and what each look and each retry was, as events. Polling, deadlines and backoff are
// pollUntil's; the words a person reads are the face's.
import type { CallOptions } from '../api/client.js';
import type { AgentJob, AgentJobStatus, UnknownStatus } from '../api/types.js';
import type { Clock } from '../clock.js';
import { pollUntil } from '../wait.js';
import { AgentJobTimeoutError, UnknownStatusError } from './errors.js';

const FINISHED: ReadonlySet<AgentJobStatus> = new Set(['completed', 'archived', 'failed']);
// A Record, not a list: a state added to the schema's enum fails to compile here until it is placed.
const KNOWN: Record<AgentJobStatus, true> = { active: true, completed: true, archived: true, failed: true };

/** The statuses a wait ends on (besides an unknown one, which ends it with an error). */
export type FinishedAgentJobStatus = 'completed' | 'archived' | 'failed';

/** A status newer than this version: whether the job will ever finish is unknowable, so a wait ends on it. */
export function isUnknownAgentStatus(status: AgentJob['status']): status is UnknownStatus {
  return !Object.hasOwn(KNOWN, status);
}

export function isFinishedAgentStatus(status: AgentJob['status']): status is FinishedAgentJobStatus {
  return FINISHED.has(status as AgentJobStatus);
}

export type AgentJobWaitEvent =
  /** A look at the job; `changed` when its status differs from the look before (or the one known at the start). */
  | { kind: 'status'; job: AgentJob; changed: boolean; elapsedMs: number }
  /** A transient failure (5xx, dropped connection, 429) the wait sits out; the next look is in `retryInMs`. */
  | { kind: 'retry'; error: unknown; retryInMs: number; elapsedMs: number };

export interface AgentJobSource {
  getAgentJob(projectId: string, jobId: string, call?: CallOptions): Promise<AgentJob>;
}

export interface FollowAgentJobOptions {
  api: AgentJobSource;
  projectId: string;
  jobId: string;
  intervalMs: number;
  timeoutMs: number;
  clock: Clock;
  signal?: AbortSignal | undefined;
  random?: (() => number) | undefined;
  /** The status already known (from the create or message call), so the first look is not a change. */
  knownStatus?: AgentJob['status'] | undefined;
  onEvent?: ((event: AgentJobWaitEvent) => void) | undefined;
}

/**
 * Polls until the job is completed, archived or failed, and returns that last look (a failed job is
 * returned, not thrown: what failure means is the caller's). Throws AgentJobTimeoutError at the
 * deadline, UnknownStatusError on a status this version does not know, the signal's reason on abort,
 * and any failure that is not transient (a 404, a 401) as it came.
 */
export async function followAgentJob(
  opts: FollowAgentJobOptions,
): Promise<AgentJob & { status: FinishedAgentJobStatus }> {
  const { api, projectId, jobId, onEvent } = opts;
  let previous = opts.knownStatus;
  const started = opts.clock.now();
  const job = await pollUntil({
    // One try a poll: the loop sits out transient failures itself, with one event per retry.
    fetch: (signal) => api.getAgentJob(projectId, jobId, { signal, once: true }),
    isDone: (look) => isFinishedAgentStatus(look.status) || isUnknownAgentStatus(look.status),
    onValue: (look, elapsedMs) => {
      const changed = look.status !== previous;
      previous = look.status;
      onEvent?.({ kind: 'status', job: look, changed, elapsedMs });
    },
    onTransientError: (error, retryInMs) =>
      onEvent?.({ kind: 'retry', error, retryInMs, elapsedMs: opts.clock.now() - started }),
    timeoutError: (elapsedMs, last) => new AgentJobTimeoutError(jobId, elapsedMs, last),
    intervalMs: opts.intervalMs,
    timeoutMs: opts.timeoutMs,
    clock: opts.clock,
    signal: opts.signal,
    random: opts.random,
  });
  if (!isFinishedAgentStatus(job.status)) throw new UnknownStatusError(`agent job ${jobId}`, job);
  return job as AgentJob & { status: FinishedAgentJobStatus };
}
