// The one polling loop behind every --wait (agent and export). A long wait must not die of one bad
// answer: transient failures (5xx, dropped connections, 429) are waited out with backoff; only a
// definite answer (404, 401/403), the --timeout or Ctrl-C ends it.
import type { Clock } from './clock.js';
import { isTransient } from './errors.js';
import { backoffDelay } from './api/backoff.js';

export interface PollOptions<T> {
  /** One look at the job; `signal` aborts it when the wait is over (deadline or Ctrl-C). */
  fetch: (signal: AbortSignal) => Promise<T>;
  isDone: (value: T) => boolean;
  /** Every successful look, done or not. */
  onValue?: (value: T, elapsedMs: number) => void;
  /** A transient failure that the loop will sit out. */
  onTransientError?: (error: unknown, retryInMs: number) => void;
  /** Builds the error thrown when the timeout passes (it says how to resume). */
  timeoutError: (elapsedMs: number, last: T | undefined) => Error;
  intervalMs: number;
  timeoutMs: number;
  clock: Clock;
  signal?: AbortSignal;
  random?: () => number;
  /** Each interval grows by this factor up to maxIntervalMs: quick answers for short jobs, few calls for long ones. */
  growth?: number;
  maxIntervalMs?: number;
  /** Jitter as a fraction of the interval, so many CI jobs do not poll in lockstep. */
  jitter?: number;
}

export const DEFAULT_MAX_INTERVAL_MS = 30_000;
/**
 * How long the last look, taken at the deadline, may take. A request in flight is cut off at the
 * deadline plus this much, so a trickling or silent API cannot stretch --timeout (exit 5 within a second).
 */
export const LAST_LOOK_GRACE_MS = 500;

export async function pollUntil<T>(opts: PollOptions<T>): Promise<T> {
  const { clock, signal } = opts;
  const random = opts.random ?? Math.random;
  const growth = opts.growth ?? 1.2;
  const maxInterval = Math.max(opts.intervalMs, opts.maxIntervalMs ?? DEFAULT_MAX_INTERVAL_MS);
  const jitter = opts.jitter ?? 0.1;
  const started = clock.now();
  const deadline = started + opts.timeoutMs;
  let interval = opts.intervalMs;
  let failures = 0;
  let last: T | undefined;
  const deadlinePassed = clock.timeout(opts.timeoutMs + LAST_LOOK_GRACE_MS);
  const requestSignal = signal ? AbortSignal.any([signal, deadlinePassed]) : deadlinePassed;

  for (;;) {
    let delay: number;
    try {
      last = await opts.fetch(requestSignal);
      failures = 0;
      opts.onValue?.(last, clock.now() - started);
      if (opts.isDone(last)) return last;
      delay = interval * (1 + jitter * (2 * random() - 1));
      interval = Math.min(maxInterval, interval * growth);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (deadlinePassed.aborted) throw opts.timeoutError(clock.now() - started, last);
      if (!isTransient(error)) throw error;
      failures++;
      const retryAt = (error as { retryAt?: number }).retryAt;
      delay =
        retryAt !== undefined
          ? Math.max(0, retryAt - clock.now())
          : backoffDelay(failures, opts.intervalMs, maxInterval, random);
      opts.onTransientError?.(error, delay);
    }
    const remaining = deadline - clock.now();
    if (remaining <= 0) throw opts.timeoutError(clock.now() - started, last);
    // Never sleep past the deadline: look one last time at it instead.
    await clock.sleep(Math.min(delay, remaining), signal);
  }
}
