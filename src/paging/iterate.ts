// The paged-export engine as an async iterator, for the library: `for await (const term of ...)`.
// pageThrough drives the requests and keeps every guard (repeated cursors or pages, missing cursors,
// empty pages that claim more, more than the reported totals allow); each page is handed over only
// when the consumer asks for the next item, so a slow consumer is backpressure and a `break` stops
// the requests. An abort of the signal stops it at once: the items of the page in hand are not
// yielded after it, a wait for the next page ends, and no further page is asked for.
import { pageThrough, type PagedEndpoint, type PagePosition } from './engine.js';

/** Thrown into pageThrough when the consumer stopped early; never reaches the consumer. */
const STOPPED = Symbol('consumer stopped');

export async function* pagedItems<Page extends object, Item>(
  endpoint: PagedEndpoint<Page, Item>,
  start: PagePosition = {},
  signal?: AbortSignal,
): AsyncGenerator<Item, void, undefined> {
  signal?.throwIfAborted();
  // One slot handed between the engine (producer) and this generator (consumer).
  let offer: ((batch: readonly Item[] | typeof STOPPED) => void) | undefined;
  let taken: ((keepGoing: boolean) => void) | undefined;
  const nextBatch = () => new Promise<readonly Item[] | typeof STOPPED>((resolve) => (offer = resolve));
  let pending = nextBatch();
  let failure: { error: unknown } | undefined;
  // Once the consumer has gone, a page the engine still brings is refused rather than waited on.
  let gone = false;

  const run = pageThrough({
    endpoint,
    start,
    all: true,
    onPage: (items) =>
      gone
        ? Promise.reject(STOPPED)
        : new Promise<void>((resolve, reject) => {
            taken = (keepGoing) => (keepGoing ? resolve() : reject(STOPPED));
            offer?.(items);
          }),
  }).then(
    () => offer?.(STOPPED),
    (error: unknown) => {
      if (error !== STOPPED) failure = { error };
      offer?.(STOPPED);
    },
  );

  let finished = false;
  try {
    for (;;) {
      const batch = await untilAborted(pending, signal);
      if (batch === STOPPED) break;
      pending = nextBatch();
      for (const item of batch) {
        signal?.throwIfAborted();
        yield item;
      }
      signal?.throwIfAborted();
      const release = taken;
      taken = undefined;
      release?.(true);
    }
    finished = true;
    if (failure) throw failure.error;
  } finally {
    // A `break`, an abort (or a throw in the loop body) stops the engine at the page it is holding.
    gone = true;
    if (!finished) taken?.(false);
    await run;
  }
}

/** The promise, or the signal's reason as soon as it is aborted. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
