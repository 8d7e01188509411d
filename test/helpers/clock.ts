import type { Clock } from '../../src/clock.js';

/** A clock whose sleep returns at once and moves time forward, recording every wait. */
export class FakeClock implements Clock {
  time: number;
  readonly sleeps: number[] = [];
  constructor(start = Date.UTC(2026, 10, 22, 12, 0, 0)) {
    this.time = start;
  }
  now = (): number => this.time;
  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.time += ms;
    await Promise.resolve();
    if (signal?.aborted) throw signal.reason;
  };
}
