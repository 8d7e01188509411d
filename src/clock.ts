// Time as a dependency: commands and loops take a Clock so tests can run them without waiting.

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A signal that aborts once `ms` have passed on this clock: a deadline for work in flight. */
  timeout(ms: number): AbortSignal;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  timeout: (ms) => {
    const controller = new AbortController();
    // unref: a deadline that nobody waits for any more must not keep the process alive.
    setTimeout(() => controller.abort(new Error(`deadline of ${ms} ms passed`)), Math.max(0, ms)).unref();
    return controller.signal;
  },
};

/** Throws the signal's reason if it has aborted; call between steps of long work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}
