// The stall watch (fetch.ts): a byte a second never trips undici's body timeout, so each window's bytes are counted.
import { MintAdminError, RUN_AGAIN } from '../errors.js';
import type { Clock } from '../clock.js';

/** What the stall watch reads of a download in progress (fetch.ts's Download extends it). */
export interface WatchedDownload {
  opts: { clock: Clock; signal: AbortSignal };
  /** Bytes received (before they are written). */
  received: number;
  /** Time spent in onData, and when the current call began: the watch gives it back. */
  consumerMs: number;
  consumerSince: number | undefined;
}

/** No progress worth the name for stallMs: final, since retrying a stuck storage only stretches the wait. */
export class StalledError extends MintAdminError {
  constructor(stallMs: number, minBytes: number) {
    const problem = `the download stalled: less than ${minBytes} bytes arrived in ${Math.round(stallMs / 1000)}s (check your connection or proxy settings)`;
    super(problem, { nextStep: RUN_AGAIN });
  }
}

/** Aborts when fewer than `stallMinBytes` arrive in `stallMs` on the clock; returns the requests' signal and a stop. */
export function watchForStall(
  download: WatchedDownload,
  limits: { stallMs: number; stallMinBytes: number },
): { signal: AbortSignal; stop: () => void } {
  const { clock, signal: interrupt } = download.opts;
  const stall = new AbortController();
  let stopped = false;
  const consumerTime = () =>
    download.consumerMs + (download.consumerSince === undefined ? 0 : clock.now() - download.consumerSince);
  // A window that ends short is first extended by the time onData held the reading, so the network gets stallMs.
  const watchWindow = (ms: number, from: number, consumerAt: number) => {
    clock.timeout(ms).addEventListener(
      'abort',
      () => {
        if (stopped || interrupt.aborted) return;
        const consumer = consumerTime();
        if (download.received - from >= limits.stallMinBytes) watchWindow(limits.stallMs, download.received, consumer);
        else if (consumer > consumerAt) watchWindow(consumer - consumerAt, from, consumer);
        else stall.abort(new StalledError(limits.stallMs, limits.stallMinBytes));
      },
      { once: true },
    );
  };
  watchWindow(limits.stallMs, 0, 0);
  return { signal: AbortSignal.any([interrupt, stall.signal]), stop: () => void (stopped = true) };
}
