// The paged-export engine on its own, with a fake page fetcher (the searches path over real HTTP is in
// test/e2e/searches.test.ts and test/e2e/paging-faults.test.ts).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import {
  pageThrough,
  type PagedEndpoint,
  type PagePosition,
  type PagingProgress,
  type PagingStyle,
} from '../../src/paging/engine.js';

interface Page {
  rows: string[];
  nextCursor?: unknown;
  hasMore?: unknown;
}

/** An endpoint that serves the given pages in turn (the last one again if asked more), recording positions. */
function fakeEndpoint(style: PagingStyle, pages: Page[]) {
  const asked: PagePosition[] = [];
  const endpoint: PagedEndpoint<Page, string> = {
    style,
    itemsKey: 'rows',
    noun: 'rows',
    fetch: async (position) => {
      asked.push({ ...position });
      return pages[Math.min(asked.length - 1, pages.length - 1)]!;
    },
  };
  return { endpoint, asked };
}

async function run(
  style: PagingStyle,
  pages: Page[],
  opts: { all?: boolean; start?: PagePosition; maxRequests?: number } = {},
) {
  const { endpoint, asked } = fakeEndpoint(style, pages);
  const written: string[] = [];
  let stoppedAt: PagingProgress | undefined;
  const outcome = await pageThrough({
    endpoint,
    start: opts.start ?? {},
    all: opts.all ?? true,
    maxRequests: opts.maxRequests,
    onPage: async (items) => void written.push(...items),
    onStop: async (progress) => void (stoppedAt = { ...progress }),
  }).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
  return { ...outcome, asked, written, stoppedAt };
}

describe('pageThrough: the three styles to the end', () => {
  it('cursor + nextCursor: follows each cursor until null', async () => {
    const r = await run('cursor', [
      { rows: ['a', 'b'], nextCursor: 'c1' },
      { rows: ['c'], nextCursor: 'c2' },
      { rows: ['d'], nextCursor: null },
    ]);
    expect(r.written).toEqual(['a', 'b', 'c', 'd']);
    expect(r.asked).toEqual([{}, { cursor: 'c1' }, { cursor: 'c2' }]);
    expect(r.result).toEqual({ pages: 3, items: 4, requests: 3, next: null, budgetSpent: false });
  });

  it('cursor + hasMore: stops on hasMore false even when a cursor is still sent', async () => {
    const r = await run('cursor+hasMore', [
      { rows: ['a'], nextCursor: 'c1', hasMore: true },
      { rows: ['b'], nextCursor: 'c2', hasMore: false },
    ]);
    expect(r.written).toEqual(['a', 'b']);
    expect(r.asked).toEqual([{}, { cursor: 'c1' }]);
    expect(r.result?.next).toBeNull();
  });

  it('offset + hasMore: each page starts after the items seen so far', async () => {
    const r = await run(
      'offset+hasMore',
      [
        { rows: ['a', 'b'], hasMore: true },
        { rows: ['c', 'd', 'e'], hasMore: true },
        { rows: ['f'], hasMore: false },
      ],
      {
        start: { offset: 10 },
      },
    );
    expect(r.written).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(r.asked).toEqual([{ offset: 10 }, { offset: 12 }, { offset: 15 }]);
  });

  it('without all: one page, and next says where the following one starts', async () => {
    const r = await run('cursor', [{ rows: ['a'], nextCursor: 'c1' }], { all: false });
    expect(r.result).toEqual({ pages: 1, items: 1, requests: 1, next: { cursor: 'c1' }, budgetSpent: false });
  });

  it('maxRequests: stops after that many requests, with where to carry on', async () => {
    const r = await run(
      'offset+hasMore',
      [
        { rows: ['a'], hasMore: true },
        { rows: ['b'], hasMore: true },
        { rows: ['c'], hasMore: true },
        { rows: ['d'], hasMore: false },
      ],
      { maxRequests: 3 },
    );
    expect(r.written).toEqual(['a', 'b', 'c']);
    expect(r.result).toEqual({ pages: 3, items: 3, requests: 3, next: { offset: 3 }, budgetSpent: true });
  });

  it('an empty last page is fine', async () => {
    const r = await run('cursor', [{ rows: [], nextCursor: null }]);
    expect(r.result).toMatchObject({ pages: 1, items: 0, next: null });
  });
});

describe('pageThrough: answers that would loop stop with an ApiError (exit 1)', () => {
  it.each<[string, PagingStyle, Page[], number, string]>([
    [
      'a cursor that repeats',
      'cursor',
      [
        { rows: ['a'], nextCursor: 'c1' },
        { rows: ['b'], nextCursor: 'c1' },
      ],
      2,
      'the API sent a cursor it had sent before after 1 page',
    ],
    [
      'the start cursor sent back',
      'cursor',
      [{ rows: ['a'], nextCursor: 'start' }],
      1,
      'the API sent a cursor it had sent before on the first page',
    ],
    [
      'a cycle of two cursors',
      'cursor',
      [
        { rows: ['a'], nextCursor: 'c1' },
        { rows: ['b'], nextCursor: 'c2' },
        { rows: ['c'], nextCursor: 'c1' },
      ],
      3,
      'the API sent a cursor it had sent before after 2 pages',
    ],
    [
      'nextCursor missing',
      'cursor',
      [{ rows: ['a'], nextCursor: 'c1' }, { rows: ['b'] }],
      2,
      'the API said there are more but sent no cursor for them after 1 page',
    ],
    [
      'nextCursor empty',
      'cursor',
      [{ rows: ['a'], nextCursor: '' }],
      1,
      'the API said there are more but sent no cursor for them on the first page',
    ],
    [
      'nextCursor not a string',
      'cursor',
      [{ rows: ['a'], nextCursor: 42 }],
      1,
      'the API said there are more but sent no cursor for them on the first page',
    ],
    [
      'a cursor with an escape sequence',
      'cursor',
      [{ rows: ['a'], nextCursor: 'c\x1b[2J' }],
      1,
      'the API sent a cursor that is not plain printable text on the first page',
    ],
    [
      'an empty page claiming more (cursor)',
      'cursor',
      [
        { rows: ['a'], nextCursor: 'c1' },
        { rows: [], nextCursor: 'c2' },
      ],
      2,
      'the API sent an empty page while saying there are more after 1 page',
    ],
    [
      'hasMore without a cursor',
      'cursor+hasMore',
      [{ rows: ['a'], hasMore: true, nextCursor: null }],
      1,
      'the API said there are more but sent no cursor for them on the first page',
    ],
    [
      'hasMore missing',
      'cursor+hasMore',
      [{ rows: ['a'], nextCursor: 'c1' }],
      1,
      'the page says neither that there are more nor that it is the last ("hasMore" missing) on the first page',
    ],
    [
      'hasMore with a repeated cursor',
      'cursor+hasMore',
      [
        { rows: ['a'], hasMore: true, nextCursor: 'c1' },
        { rows: ['b'], hasMore: true, nextCursor: 'c1' },
      ],
      2,
      'the API sent a cursor it had sent before after 1 page',
    ],
    [
      'an offset that does not move (empty page claiming more)',
      'offset+hasMore',
      [
        { rows: ['a'], hasMore: true },
        { rows: [], hasMore: true },
      ],
      2,
      'the API sent an empty page while saying there are more after 1 page',
    ],
    [
      'an offset the API ignores (the same full page again)',
      'offset+hasMore',
      [
        { rows: ['a'], hasMore: true },
        { rows: ['a'], hasMore: true },
      ],
      2,
      'the API sent the same page again for a later offset (it may be ignoring offset) after 1 page',
    ],
    [
      'the same page again later on',
      'offset+hasMore',
      [
        { rows: ['a'], hasMore: true },
        { rows: ['b'], hasMore: true },
        { rows: ['b'], hasMore: true },
      ],
      3,
      'the API sent the same page again for a later offset (it may be ignoring offset) after 2 pages',
    ],
    [
      'pages that alternate X, Y, X (offset)',
      'offset+hasMore',
      [
        { rows: ['x'], hasMore: true },
        { rows: ['y'], hasMore: true },
        { rows: ['x'], hasMore: true },
        { rows: ['y'], hasMore: true },
      ],
      3,
      'the API sent the same page again for a later offset (it may be ignoring offset) after 2 pages',
    ],
    [
      'an earlier page sent again as the last one (offset)',
      'offset+hasMore',
      [
        { rows: ['x'], hasMore: true },
        { rows: ['y'], hasMore: true },
        { rows: ['x'], hasMore: false },
      ],
      3,
      'the API sent the same page again for a later offset (it may be ignoring offset) after 2 pages',
    ],
    [
      'pages that alternate under new cursors',
      'cursor',
      [
        { rows: ['x'], nextCursor: 'c1' },
        { rows: ['y'], nextCursor: 'c2' },
        { rows: ['x'], nextCursor: 'c3' },
      ],
      3,
      'the API sent a page it had sent before, for a new cursor after 2 pages',
    ],
    [
      'pages that alternate under new cursors, with hasMore',
      'cursor+hasMore',
      [
        { rows: ['x'], nextCursor: 'c1', hasMore: true },
        { rows: ['y'], nextCursor: 'c2', hasMore: true },
        { rows: ['x'], nextCursor: 'c3', hasMore: true },
      ],
      3,
      'the API sent a page it had sent before, for a new cursor after 2 pages',
    ],
    [
      'a cursor from two pages back, with hasMore',
      'cursor+hasMore',
      [
        { rows: ['a'], hasMore: true, nextCursor: 'c1' },
        { rows: ['b'], hasMore: true, nextCursor: 'c2' },
        { rows: ['c'], hasMore: true, nextCursor: 'c1' },
      ],
      3,
      'the API sent a cursor it had sent before after 2 pages',
    ],
    [
      'hasMore not a boolean',
      'offset+hasMore',
      [{ rows: ['a'], hasMore: 'yes' }],
      1,
      'the page says neither that there are more nor that it is the last ("hasMore" missing) on the first page',
    ],
    ['no item list', 'cursor', [{ nextCursor: null } as unknown as Page], 1, 'the page has no "rows" list'],
  ])('%s', async (_name, style, pages, requests, problem) => {
    const r = await run(style, pages, {
      start: style === 'offset+hasMore' ? {} : _name.includes('start') ? { cursor: 'start' } : {},
    });
    expect(r.error).toBeInstanceOf(ApiError);
    expect((r.error as ApiError).code).toBe('unexpected_answer');
    expect((r.error as ApiError).message).toBe(
      `unexpected answer from the API while listing rows: ${problem}; stopped rather than loop (try again later, or report it to Mintlify support if it persists)`,
    );
    expect(r.asked).toHaveLength(requests);
    // The suspect page is not written; resuming asks for it again.
    expect(r.written).toHaveLength(requests - 1);
    expect(r.stoppedAt).toMatchObject({ pages: requests - 1, requests });
    expect(r.stoppedAt?.next).toEqual(r.asked.at(-1));
  });

  it.each<[PagingStyle, number]>([
    ['offset+hasMore', 0],
    ['cursor', 0],
    ['cursor+hasMore', 0],
    // A resumed offset walk counts the rows it skipped against the total too.
    ['offset+hasMore', 30],
  ])(
    '%s (from offset %i): fresh pages past what the reported total allows stop within a page of it',
    async (style, startOffset) => {
      // Every page is new (new rows, a new cursor) and claims more; only the total the API reports
      // (50 rows) says the listing cannot go on.
      let served = 0;
      const endpoint: PagedEndpoint<Page & { total: number }, string> = {
        style,
        itemsKey: 'rows',
        noun: 'rows',
        itemsAtMost: (page) => page.total,
        fetch: async () => {
          const n = served++;
          if (n > 1000) throw new Error('test: runaway listing');
          return {
            rows: Array.from({ length: 10 }, (_, i) => `r${n}.${i}`),
            nextCursor: `c${n}`,
            hasMore: true,
            total: 50,
          };
        },
      };
      const written: string[] = [];
      const error = await pageThrough({
        endpoint,
        start: style === 'offset+hasMore' ? { offset: startOffset } : {},
        all: true,
        onPage: async (items) => void written.push(...items),
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      const pages = Math.ceil((50 - startOffset) / 10) + 1;
      expect(served).toBe(pages);
      expect((error as ApiError).message).toContain(
        `the API said there are more after ${pages * 10 + startOffset} rows, more than the 50 in its own total (and a page's slack) after ${pages - 1} pages;`,
      );
      expect(written).toHaveLength((pages - 1) * 10);
    },
  );

  it('a total the API reports is no limit while the listing stays within it', async () => {
    const { endpoint } = fakeEndpoint('offset+hasMore', [
      { rows: ['a', 'b'], hasMore: true },
      { rows: ['c', 'd'], hasMore: true },
      { rows: ['e'], hasMore: false },
    ]);
    const r = await pageThrough({
      endpoint: { ...endpoint, itemsAtMost: () => 5 },
      start: {},
      all: true,
      onPage: async () => undefined,
    });
    expect(r).toMatchObject({ pages: 3, items: 5, next: null });
  });

  it('a fetch that fails: onStop hears where to resume, and the error is thrown on', async () => {
    const boom = new ApiError('rate limited', 429);
    let calls = 0;
    const endpoint: PagedEndpoint<Page, string> = {
      style: 'cursor',
      itemsKey: 'rows',
      noun: 'rows',
      fetch: async () => {
        if (calls++ === 1) throw boom;
        return { rows: ['a'], nextCursor: 'c1' };
      },
    };
    let stopped: PagingProgress | undefined;
    await expect(
      pageThrough({
        endpoint,
        start: {},
        all: true,
        onPage: async () => undefined,
        onStop: async (p) => void (stopped = { ...p }),
      }),
    ).rejects.toBe(boom);
    expect(stopped).toEqual({ pages: 1, items: 1, requests: 2, next: { cursor: 'c1' } });
  });
});
