import type { Clock } from '../../src/clock.js';

/** A clock whose sleep returns at once and moves time forward, recording every wait. */
export class FakeClock implements Clock {
  time: number;
  readonly sleeps: number[] = [];
  private deadlines: Array<{ at: number; controller: AbortController }> = [];
  constructor(start = Date.UTC(2026, 10, 22, 12, 0, 0)) {
    this.time = start;
  }
  now = (): number => this.time;
  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.advance(ms);
    await Promise.resolve();
    if (signal?.aborted) throw signal.reason;
  };

  timeout = (ms: number): AbortSignal => {
    const controller = new AbortController();
    this.deadlines.push({ at: this.time + ms, controller });
    return controller.signal;
  };

  /** Moves time forward (as a slow request would), aborting the deadlines it passes. */
  advance(ms: number): void {
    this.time += ms;
    for (const d of this.deadlines)
      if (d.at <= this.time && !d.controller.signal.aborted) d.controller.abort(new Error('deadline passed'));
    this.deadlines = this.deadlines.filter((d) => !d.controller.signal.aborted);
  }
}

/**
 * Real time, except that a sleep returns at once and moves this clock forward by its length: an
 * in-process CLI run waits for real servers as it would, but its backoff and poll intervals cost no
 * wall time. A deadline (`timeout`) passes on whichever comes first, real time or skipped time.
 */
export class SkippingClock implements Clock {
  private skipped = 0;
  readonly sleeps: number[] = [];
  private deadlines = new Set<{ at: number; controller: AbortController; timer: NodeJS.Timeout }>();

  now = (): number => Date.now() + this.skipped;

  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.skipped += Math.max(0, ms);
    this.passDeadlines();
    // A macrotask, so a loop of sleeps still lets sockets, timers and signals in.
    await new Promise((resolve) => setImmediate(resolve));
    if (signal?.aborted) throw signal.reason;
  };

  timeout = (ms: number): AbortSignal => {
    const controller = new AbortController();
    // The real timer passes this deadline itself, without comparing clocks: a timer may fire a
    // millisecond before Date.now() says it is due, and a deadline left pending then would wait for
    // a sleep that a request in flight never makes.
    const deadline = {
      at: this.now() + ms,
      controller,
      timer: setTimeout(() => this.pass(deadline), Math.max(0, ms)).unref(),
    };
    this.deadlines.add(deadline);
    return controller.signal;
  };

  private passDeadlines(): void {
    const now = this.now();
    for (const deadline of this.deadlines) if (deadline.at <= now) this.pass(deadline);
  }

  private pass(deadline: { at: number; controller: AbortController; timer: NodeJS.Timeout }): void {
    clearTimeout(deadline.timer);
    this.deadlines.delete(deadline);
    if (!deadline.controller.signal.aborted) deadline.controller.abort(new Error(`deadline of ${deadline.at} passed`));
  }
}
