// pageThrough's `enough`: a caller that knows nothing after a page can matter ends the walk there,
// with no exception, the requests counted as sent and `next` where it stopped.
import { describe, expect, it } from 'vitest';
import { pageThrough, type PagedEndpoint } from '../../src/paging/engine.js';

interface Page {
  rows: number[];
  nextCursor: string | null;
}

describe('pageThrough with enough', () => {
  it.each([
    [
      'stops after the page that says enough',
      (rows: readonly number[]) => rows.at(-1)! < 5,
      2,
      [9, 8, 7, 6, 5, 4],
      { cursor: 'c2' },
    ],
    ['never enough: to the last page', () => false, 3, [9, 8, 7, 6, 5, 4, 3, 2, 1], null],
    ['enough on the first page: one request', () => true, 1, [9, 8, 7], { cursor: 'c1' }],
  ])('%s', async (_name, enough, requests, written, next) => {
    const pages: Page[] = [
      { rows: [9, 8, 7], nextCursor: 'c1' },
      { rows: [6, 5, 4], nextCursor: 'c2' },
      { rows: [3, 2, 1], nextCursor: null },
    ];
    let fetched = 0;
    const endpoint: PagedEndpoint<Page, number> = {
      style: 'cursor',
      itemsKey: 'rows',
      noun: 'rows',
      fetch: async () => pages[fetched++]!,
    };
    const seen: number[] = [];
    const result = await pageThrough({
      endpoint,
      start: {},
      all: true,
      maxRequests: 10,
      onPage: async (rows) => void seen.push(...rows),
      enough,
    });
    expect(seen).toEqual(written);
    expect(fetched).toBe(requests);
    expect(result).toEqual({ pages: requests, items: written.length, requests, next, budgetSpent: false });
  });
});
