// The stall watch of a download (fetch.ts): a storage that sends a byte a second never trips
// undici's body timeout, so the bytes that arrive in each window on the clock are counted instead.
import { MintAdminError } from '../errors.js';
import type { Download, FETCH_LIMITS } from './fetch.js';

/** No progress worth the name for stallMs: final, since retrying a stuck storage only stretches the wait. */
export class StalledError extends MintAdminError {
  constructor(stallMs: number, minBytes: number) {
    super(
      `the download stalled: less than ${minBytes} bytes arrived in ${Math.round(stallMs / 1000)}s (check your connection or proxy settings); run the command again`,
    );
  }
}

/**
 * Aborts the download when fewer than `minBytes` arrive in a window of `stallMs` on the clock (the
 * clock's own deadlines, so tests with a fake clock decide when a window ends). Returns the signal the
 * requests use (Ctrl-C or stall) and a stop function.
 */
export function watchForStall(
  download: Omit<Download, 'signal'>,
  limits: typeof FETCH_LIMITS,
): { signal: AbortSignal; stop: () => void } {
  const { clock, signal: interrupt } = download.opts;
  const stall = new AbortController();
  let stopped = false;
  const consumerTime = () =>
    download.consumerMs + (download.consumerSince === undefined ? 0 : clock.now() - download.consumerSince);
  // A window of stallMs from `from` bytes; when it ends short of stallMinBytes, it is first extended
  // by the time onData held the reading within it, so the network always gets stallMs of its own.
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
