// The paged-export engine as an async iterator, for the library: `for await (const term of ...)`.
// pageThrough drives the requests and keeps every guard (repeated cursors or pages, missing cursors,
// empty pages that claim more, more than the reported totals allow); each page is handed over only when the consumer asks for the next item, so a
// slow consumer is backpressure and a `break` stops the requests.
import { pageThrough, type PagedEndpoint, type PagePosition } from './engine.js';

/** Thrown into pageThrough when the consumer stopped early; never reaches the consumer. */
const STOPPED = Symbol('consumer stopped');

export async function* pagedItems<Page extends object, Item>(
  endpoint: PagedEndpoint<Page, Item>,
  start: PagePosition = {},
): AsyncGenerator<Item, void, undefined> {
  // One slot handed between the engine (producer) and this generator (consumer).
  let offer: ((batch: readonly Item[] | typeof STOPPED) => void) | undefined;
  let taken: ((keepGoing: boolean) => void) | undefined;
  const nextBatch = () => new Promise<readonly Item[] | typeof STOPPED>((resolve) => (offer = resolve));
  let pending = nextBatch();
  let failure: { error: unknown } | undefined;

  const run = pageThrough({
    endpoint,
    start,
    all: true,
    onPage: (items) =>
      new Promise<void>((resolve, reject) => {
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
      const batch = await pending;
      if (batch === STOPPED) break;
      pending = nextBatch();
      yield* batch;
      const release = taken;
      taken = undefined;
      release?.(true);
    }
    finished = true;
    if (failure) throw failure.error;
  } finally {
    // A `break` (or a throw in the loop body) stops the engine at the page it is holding.
    if (!finished) taken?.(false);
    await run;
  }
}
