// The one paged-export engine. Every list command walks its pages through here, so every one of them
// is bounded the same way: a server that sends any cursor or any page it sent before in the same
// listing (not only the one before: pages X, Y, X, Y once drew 17,000 requests in 10 s), leaves a
// cursor out where one is required, sends empty pages while claiming there are more, or claims more
// than the total it reports allows gets an ApiError (exit 1) after a handful of requests instead of a
// loop that spends the organization's hourly budget.
//
// A page the engine finds suspect is not handed to the writer: what was written so far ends with the
// last good page, and `next` names that suspect page, so a resumed run asks for it again rather than
// skipping or repeating rows.
import { createHash } from 'node:crypto';
import { ApiError } from '../errors.js';

/**
 * How an endpoint pages (openapi/analytics.openapi.json):
 * - `cursor`: `nextCursor` is the next page's cursor, null on the last page (searches);
 * - `cursor+hasMore`: `hasMore` says whether there is a next page, `nextCursor` says where (feedback,
 *   assistant conversations);
 * - `offset+hasMore`: the next page starts after the items seen so far (views, visitors).
 */
export type PagingStyle = 'cursor' | 'cursor+hasMore' | 'offset+hasMore';

/** Where a page starts: a cursor for the cursor styles, an offset for the offset style. */
export interface PagePosition {
  cursor?: string | undefined;
  offset?: number | undefined;
}

/** An endpoint, declared: how to fetch a page at a position, how it pages, and where its items are. */
export interface PagedEndpoint<Page extends object, Item> {
  style: PagingStyle;
  /** The page's field that holds the items, e.g. `searches`. */
  // Index signatures (a loose schema's pass-through of unknown fields) are left out, so only a named
  // field whose value is the item array fits.
  itemsKey: keyof { [K in keyof Page as string extends K ? never : Page[K] extends readonly Item[] ? K : never]: true };
  /** What the items are, for messages: "search terms". */
  noun: string;
  /**
   * The most items the whole listing can hold, by the totals the API reports on a page, when it
   * reports such a total and the page's items show that it bounds them: totalSearches is the sum of
   * hits, so it bounds the terms only while every term was searched at least once. Undefined when
   * this page shows the total is no bound (a term with no hits): the listing is then capped by
   * nothing for the rest of the walk.
   */
  itemsAtMost?(page: Page, items: readonly Item[]): number | undefined;
  fetch(position: PagePosition): Promise<Page>;
}

export interface PagingProgress {
  /** Pages handed to onPage. */
  pages: number;
  /** Items handed to onPage. */
  items: number;
  /** Page requests made (the client's own retries of one request are not counted again). */
  requests: number;
  /** Where the next unwritten page starts; null once the last page was written. */
  next: PagePosition | null;
}

export interface PagingOptions<Page extends object, Item> {
  endpoint: PagedEndpoint<Page, Item>;
  /** The first page's position (a --cursor given by the user, or the start). */
  start: PagePosition;
  /** Follow every page (true) or stop after the first (false). */
  all: boolean;
  /** At most this many page requests; the run then ends with `next` where it stopped. */
  maxRequests?: number | undefined;
  /** Gets each good page's items in order; the promise is awaited (backpressure). */
  onPage(items: readonly Item[], page: Page, progress: PagingProgress): Promise<void>;
  /**
   * True ends the walk once this page was handed to onPage, with `next` where it stopped: the
   * caller knows nothing after it can matter (the gaps report's search terms, once too rare).
   */
  enough?(items: readonly Item[], page: Page): boolean;
  /** Called when a fetch or a write fails, before the error is thrown on; `next` is where to resume. */
  onStop?(progress: PagingProgress, error: unknown): Promise<void>;
}

export interface PagingResult extends PagingProgress {
  /** True when maxRequests ended the run with pages left. */
  budgetSpent: boolean;
}

/**
 * Cursors are printed into resume commands; anything but printable ASCII would not survive being
 * shown on a terminal and pasted back, so such a cursor is refused like a missing one.
 */
const PLAIN_CURSOR = /^[\x21-\x7e]{1,4096}$/;

export async function pageThrough<Page extends object, Item>(opts: PagingOptions<Page, Item>): Promise<PagingResult> {
  const { endpoint } = opts;
  const progress: PagingProgress = { pages: 0, items: 0, requests: 0, next: { ...opts.start } };
  const seen = seenFrom(opts.start);
  try {
    while (progress.next !== null) {
      if (opts.maxRequests !== undefined && progress.requests >= opts.maxRequests)
        return { ...progress, budgetSpent: true };
      const position = progress.next;
      progress.requests++;
      const page = await endpoint.fetch(position);
      const items = itemsOf(page, endpoint);
      // A listing asked for one page walks no further, so no total can say it ran past the end.
      const next = nextPosition(page, items, position, endpoint, seen, progress, opts.all === true);
      // The page counts as written only once onPage has written it: a write that fails (a full disk)
      // leaves `progress` at the last whole page, which is where a resumed run must start.
      const written: PagingProgress = {
        ...progress,
        pages: progress.pages + 1,
        items: progress.items + items.length,
        next,
      };
      await opts.onPage(items, page, written);
      Object.assign(progress, written);
      if (!opts.all || opts.enough?.(items, page)) break;
    }
  } catch (error) {
    await opts.onStop?.(progress, error);
    throw error;
  }
  return { ...progress, budgetSpent: false };
}

/** What the guards need to know of an endpoint: how it pages, what its items are called, its totals. */
export type GuardedEndpoint<Page extends object, Item> = Pick<
  PagedEndpoint<Page, Item>,
  'style' | 'noun' | 'itemsAtMost'
>;

/**
 * The guards of pageThrough for a caller that walks the pages itself (the analytics sync, which
 * stores each page and keeps its own checkpoints): handed each page in turn with the position it was
 * asked for, it returns the next position, null after the last page, or throws the same ApiError.
 */
export function pageGuard<Page extends object, Item>(
  endpoint: GuardedEndpoint<Page, Item>,
  start: PagePosition,
): (page: Page, items: readonly Item[], position: PagePosition) => PagePosition | null {
  const seen = seenFrom(start);
  const progress: PagingProgress = { pages: 0, items: 0, requests: 0, next: { ...start } };
  return (page, items, position) => {
    const next = nextPosition(page, items, position, endpoint, seen, progress, true);
    progress.pages++;
    progress.items += items.length;
    return next;
  };
}

/** Nothing seen yet but the cursor the walk starts from, which a page must not send back. */
function seenFrom(start: PagePosition): Seen {
  const seen: Seen = { cursors: new Set<string>(), pages: new Set<string>(), largestPage: 0 };
  if (start.cursor !== undefined) seen.cursors.add(fingerprint(start.cursor));
  return seen;
}

function itemsOf<Page extends object, Item>(page: Page, endpoint: PagedEndpoint<Page, Item>): readonly Item[] {
  const items = (page as Record<PropertyKey, unknown>)[endpoint.itemsKey as PropertyKey];
  if (!Array.isArray(items)) throw pagingFault(endpoint.noun, `the page has no "${String(endpoint.itemsKey)}" list`);
  return items as Item[];
}

/**
 * What a run has seen that a later page must not repeat. Cursors and pages are kept as fingerprints,
 * a few bytes each however large the page, so a long listing holds no page it has written.
 */
interface Seen {
  /** Every cursor so far: one sent again would loop. */
  cursors: Set<string>;
  /** Every non-empty page's items so far: an API that ignores offset or cursor sends them again. */
  pages: Set<string>;
  /**
   * The listing's size by the first page's reported total, when the endpoint has one; null once a
   * page showed that the total does not bound the items (for the rest of the walk).
   */
  itemsAtMost?: number | null;
  /** The most items one page has held: the slack over the total for rows that arrive during the walk. */
  largestPage: number;
}

/** A collision-safe, fixed-size stand-in for a page or cursor (128 bits of SHA-256). */
function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest().subarray(0, 16).toString('base64');
}

/** The next page's position, or null on the last page; an ApiError when the page cannot be trusted. */
function nextPosition<Page extends object, Item>(
  page: Page,
  items: readonly Item[],
  position: PagePosition,
  endpoint: GuardedEndpoint<Page, Item>,
  seen: Seen,
  progress: PagingProgress,
  /** The walk goes on past this page (--all, the sync): only then can it run past a total. */
  walking: boolean,
): PagePosition | null {
  const fields = page as { nextCursor?: unknown; hasMore?: unknown };
  const after =
    progress.pages === 0 ? 'on the first page' : `after ${progress.pages} ${progress.pages === 1 ? 'page' : 'pages'}`;
  const fault = (problem: string) => pagingFault(endpoint.noun, `${problem} ${after}`);
  const more = endpoint.style === 'cursor' ? fields.nextCursor !== null : fields.hasMore;
  if (typeof more !== 'boolean')
    throw fault('the page says neither that there are more nor that it is the last ("hasMore" missing)');
  const offsetStyle = endpoint.style === 'offset+hasMore';
  if (items.length > 0) {
    // Every page asked for is at a new position, so its rows are new rows; a page exactly like any
    // earlier one is the same rows again (written twice, and with "more" an endless cycle).
    const print = fingerprint(JSON.stringify(items));
    if (seen.pages.has(print)) {
      throw fault(
        offsetStyle
          ? 'the API sent the same page again for a later offset (it may be ignoring offset)'
          : 'the API sent a page it had sent before, for a new cursor',
      );
    }
    seen.pages.add(print);
  }
  if (!more) return null;
  if (items.length === 0) throw fault('the API sent an empty page while saying there are more');
  seen.largestPage = Math.max(seen.largestPage, items.length);
  if (seen.itemsAtMost !== null && endpoint.itemsAtMost) {
    const bound = endpoint.itemsAtMost(page, items);
    seen.itemsAtMost = bound === undefined ? null : (seen.itemsAtMost ?? bound);
  }
  // An offset walk knows how many rows came before it started (a resume); a cursor walk does not.
  const listed = (offsetStyle ? (position.offset ?? 0) : progress.items) + items.length;
  if (walking && typeof seen.itemsAtMost === 'number' && listed >= seen.itemsAtMost + seen.largestPage) {
    throw fault(
      `the API said there are more after ${listed} ${endpoint.noun}, more than the ${seen.itemsAtMost} in its own total (and a page's slack)`,
    );
  }
  if (offsetStyle) return { offset: (position.offset ?? 0) + items.length };
  const cursor = fields.nextCursor;
  if (typeof cursor !== 'string' || cursor === '')
    throw fault('the API said there are more but sent no cursor for them');
  if (!PLAIN_CURSOR.test(cursor)) throw fault('the API sent a cursor that is not plain printable text');
  if (seen.cursors.has(fingerprint(cursor))) throw fault('the API sent a cursor it had sent before');
  seen.cursors.add(fingerprint(cursor));
  return { cursor };
}

function pagingFault(noun: string, problem: string): ApiError {
  return new ApiError(
    `unexpected answer from the API while listing ${noun}: ${problem}; stopped rather than loop (try again later, or report it to Mintlify support if it persists)`,
    200,
  );
}
