// Waiting for a deployment or preview build to end, for every face (both are followed with
// GET /v1/project/update-status): which statuses end it, which one the wait cannot place, and each
// look, each new log line (once, however the server resends the log) and each retry as events.
// Polling, deadlines and backoff are pollUntil's; the words a person reads are the face's.
import type { CallOptions } from '../api/client.js';
import type { UpdateStatus, UpdateStatusName, UnknownStatus } from '../api/types.js';
import type { Clock } from '../clock.js';
import { pollUntil } from '../wait.js';
import { BuildTimeoutError, UnknownStatusError } from './errors.js';
import { LogStream } from './log-stream.js';

/** A Record over the schema's enum: a state added there does not compile until this wait places it. */
const ENDS_BUILD: Record<UpdateStatusName, boolean> = {
  queued: false,
  in_progress: false,
  success: true,
  failure: true,
};

export type EndedBuildStatus = 'success' | 'failure';

export function isUnknownBuildStatus(status: UpdateStatus['status']): status is UnknownStatus {
  return !Object.hasOwn(ENDS_BUILD, status);
}

/** Success, failure, or a status this version does not know (which also ends a wait). */
export function isBuildOver(build: UpdateStatus): boolean {
  return isUnknownBuildStatus(build.status) || ENDS_BUILD[build.status];
}

export type BuildWaitEvent =
  /** A look at the build; `changed` when its status differs from the look before (the first look always is). */
  | { kind: 'status'; build: UpdateStatus; changed: boolean; elapsedMs: number }
  /** The log lines this look added, in order, each line delivered once over the whole wait. */
  | { kind: 'log'; lines: string[]; elapsedMs: number }
  /** A transient failure (5xx, dropped connection, 429) the wait sits out; the next look is in `retryInMs`. */
  | { kind: 'retry'; error: unknown; retryInMs: number; elapsedMs: number };

export interface BuildStatusSource {
  getUpdateStatus(statusId: string, call?: CallOptions): Promise<UpdateStatus>;
}

export interface FollowBuildOptions {
  api: BuildStatusSource;
  statusId: string;
  intervalMs: number;
  timeoutMs: number;
  clock: Clock;
  signal?: AbortSignal | undefined;
  random?: (() => number) | undefined;
  onEvent?: ((event: BuildWaitEvent) => void) | undefined;
}

export interface FollowedBuild {
  build: UpdateStatus & { status: EndedBuildStatus };
  /** The last `n` lines of the log as followed: what a failure message repeats. */
  logTail(n: number): string[];
}

/**
 * Polls until the build ends in success or failure and returns that last look (a failure is
 * returned, not thrown: what it means is the caller's). Throws BuildTimeoutError at the deadline,
 * UnknownStatusError on a status this version does not know (after its log lines were delivered),
 * the signal's reason on abort, and any failure that is not transient (a 404) as it came.
 */
export async function followBuild(opts: FollowBuildOptions): Promise<FollowedBuild> {
  const { api, statusId, onEvent, clock } = opts;
  const log = new LogStream();
  const started = clock.now();
  let previous: UpdateStatus['status'] | undefined;
  const build = await pollUntil<UpdateStatus>({
    // One try a poll: the loop sits out transient failures itself, with one event per retry.
    fetch: (signal) => api.getUpdateStatus(statusId, { signal, once: true }),
    isDone: isBuildOver,
    onValue: (look, elapsedMs) => {
      const changed = look.status !== previous;
      previous = look.status;
      onEvent?.({ kind: 'status', build: look, changed, elapsedMs });
      const lines = log.next(look.logs);
      if (lines.length > 0) onEvent?.({ kind: 'log', lines, elapsedMs });
    },
    onTransientError: (error, retryInMs) =>
      onEvent?.({ kind: 'retry', error, retryInMs, elapsedMs: clock.now() - started }),
    timeoutError: (elapsedMs, last) => new BuildTimeoutError(statusId, elapsedMs, last),
    intervalMs: opts.intervalMs,
    timeoutMs: opts.timeoutMs,
    clock,
    signal: opts.signal,
    random: opts.random,
  });
  if (isUnknownBuildStatus(build.status)) throw new UnknownStatusError(`build ${statusId}`, build);
  return { build: build as UpdateStatus & { status: EndedBuildStatus }, logTail: (n) => log.tail(n) };
}
