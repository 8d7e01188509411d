import { describe, expect, it } from 'vitest';
import { pollUntil } from '../src/wait.js';
import { ApiError, InterruptedError, NetworkError, WaitTimeoutError } from '../src/errors.js';
import { FakeClock } from './helpers/clock.js';

/** A job that answers each poll from a script: a value, or an error to throw. */
function scripted<T>(steps: Array<T | Error>) {
  let i = 0;
  const calls = { count: 0 };
  const fetch = async () => {
    calls.count++;
    const step = steps[Math.min(i++, steps.length - 1)]!;
    if (step instanceof Error) throw step;
    return step;
  };
  return { fetch, calls };
}

const timeoutError = (elapsed: number) => new WaitTimeoutError(`timed out after ${elapsed} ms`);
const base = { intervalMs: 1000, timeoutMs: 60_000, timeoutError, random: () => 0.5 };

describe('pollUntil', () => {
  it('polls until the value is done, growing the interval gently', async () => {
    const clock = new FakeClock();
    const job = scripted(['active', 'active', 'active', 'done']);
    const result = await pollUntil({ ...base, clock, fetch: job.fetch, isDone: (s) => s === 'done' });
    expect(result).toBe('done');
    expect(job.calls.count).toBe(4);
    expect(clock.sleeps).toEqual([1000, 1200, 1440]);
  });

  it('never lets the interval pass its ceiling', async () => {
    const clock = new FakeClock();
    const job = scripted([...Array(30).fill('active'), 'done']);
    await pollUntil({
      ...base,
      timeoutMs: 3_600_000,
      maxIntervalMs: 5000,
      clock,
      fetch: job.fetch,
      isDone: (s) => s === 'done',
    });
    expect(Math.max(...clock.sleeps)).toBe(5000);
  });

  it('sits out 5xx, dropped connections and 429s and keeps waiting', async () => {
    const clock = new FakeClock();
    const transient: Error[] = [];
    const job = scripted<string | Error>([
      'active',
      new ApiError('bad gateway', 502),
      new NetworkError('dropped', 'ECONNRESET'),
      new ApiError('slow down', 429),
      'done',
    ]);
    const result = await pollUntil({
      ...base,
      clock,
      fetch: job.fetch as () => Promise<string>,
      isDone: (s) => s === 'done',
      onTransientError: (e) => transient.push(e as Error),
    });
    expect(result).toBe('done');
    expect(transient.map((e) => e.message)).toEqual(['bad gateway', 'dropped', 'slow down']);
  });

  it.each([
    ['a 404', new ApiError('not found', 404)],
    ['a 401', new ApiError('bad key', 401)],
    ['a 403', new ApiError('forbidden', 403)],
  ])('ends at once on %s', async (_n, error) => {
    const clock = new FakeClock();
    const job = scripted<string | Error>(['active', error]);
    await expect(
      pollUntil({ ...base, clock, fetch: job.fetch as () => Promise<string>, isDone: () => false }),
    ).rejects.toBe(error);
    expect(job.calls.count).toBe(2);
  });

  it('times out at the deadline without sleeping past it', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const job = scripted(['active']);
    await expect(
      pollUntil({ ...base, timeoutMs: 10_000, clock, fetch: job.fetch, isDone: () => false }),
    ).rejects.toBeInstanceOf(WaitTimeoutError);
    expect(clock.now() - start).toBe(10_000);
  });

  it('stops when the signal aborts, with the abort reason', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const reason = new InterruptedError();
    let polls = 0;
    const fetch = async () => {
      if (++polls === 2) controller.abort(reason);
      return 'active';
    };
    await expect(pollUntil({ ...base, clock, signal: controller.signal, fetch, isDone: () => false })).rejects.toBe(
      reason,
    );
    expect(polls).toBe(2);
  });

  it('waits as long as a 429 asks when it says until when', async () => {
    const clock = new FakeClock();
    const limited = Object.assign(new ApiError('slow down', 429), { retryAt: clock.now() + 7000 });
    const job = scripted<string | Error>([limited, 'done']);
    await pollUntil({ ...base, clock, fetch: job.fetch as () => Promise<string>, isDone: (s) => s === 'done' });
    expect(clock.sleeps).toEqual([7000]);
  });

  /** A request that hangs (as on a silent or trickling API) until its signal aborts, after `takesMs` of clock time. */
  const hanging = (clock: FakeClock, takesMs: number) => (signal: AbortSignal) =>
    new Promise<string>((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(new NetworkError('aborted', 'UND_ERR_ABORTED')), { once: true });
      clock.advance(takesMs);
    });

  it.each([
    ['the first look', 0],
    ['a later look', 2],
  ])('cuts off a request in flight at the deadline (%s) and says it timed out', async (_name, answeredLooks) => {
    const clock = new FakeClock();
    const started = clock.now();
    let looks = 0;
    const fetch = (signal: AbortSignal) =>
      looks++ < answeredLooks ? Promise.resolve('active') : hanging(clock, 3_600_000)(signal);
    await expect(pollUntil({ ...base, timeoutMs: 10_000, clock, fetch, isDone: () => false })).rejects.toThrow(
      WaitTimeoutError,
    );
    expect(looks).toBe(answeredLooks + 1);
    // The hanging request was cut off, not waited out: no sleep was spent on a retry after it.
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10_000);
    expect(clock.now() - started).toBeGreaterThanOrEqual(10_000);
  });

  it('lets the last look, taken at the deadline, answer within the grace', async () => {
    const clock = new FakeClock();
    const job = scripted(['active', 'active', 'done']);
    const result = await pollUntil({
      ...base,
      intervalMs: 5000,
      jitter: 0,
      growth: 1,
      timeoutMs: 10_000,
      clock,
      fetch: job.fetch,
      isDone: (s) => s === 'done',
    });
    expect(result).toBe('done');
    expect(clock.sleeps).toEqual([5000, 5000]);
  });
});
