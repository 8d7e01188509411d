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
    for (const d of this.deadlines) if (d.at <= this.time && !d.controller.signal.aborted) d.controller.abort(new Error('deadline passed'));
    this.deadlines = this.deadlines.filter((d) => !d.controller.signal.aborted);
  }
}
