// The anchors of every page and the links waiting for them (src/site/anchors.ts), kept in blocks:
// a page's anchors are found wherever its block falls, a page of more anchors than a block holds
// included, and a link into a page already parsed is answered at once.
import { describe, expect, it } from 'vitest';
import { AnchorIndex, PageAnchors, PendingFragments } from '../../src/site/anchors.js';

const pageWith = (names: string[]) => {
  const anchors = new PageAnchors();
  for (const name of names) anchors.add(name);
  return anchors;
};

describe('AnchorIndex', () => {
  it('finds the anchors of 20,000 pages over many blocks, and of a page larger than a block', () => {
    const pages = 20_000;
    const index = new AnchorIndex(pages + 1);
    const pending = new PendingFragments();
    // Pages 0..pages-1: five anchors each (several blocks of 32,768 anchors); then one page of 40,000.
    for (let p = 0; p < pages; p++) index.add(p, pageWith(['intro', 'install', 'deploy', `own-${p}`, `x-${p % 7}`]));
    index.add(pages, pageWith(Array.from({ length: 40_000 }, (_, i) => `toc-${i}`)));
    // Each checked at once (every page is in): only the missing are kept.
    for (let p = 0; p < pages; p += 101) {
      pending.add(0, p, p, `own-${p}`, index);
      pending.add(0, p + 1, p, `own-${p + 1}`, index);
    }
    pending.add(1, 0, pages, 'toc-39999', index);
    pending.add(1, 1, pages, 'toc-40000', index);
    pending.add(1, 2, pages, 'toc-0', index);
    expect([...pending.missing(index)]).toEqual([
      [0, Array.from({ length: Math.ceil(pages / 101) }, (_, k) => 101 * k + 1)],
      [1, [1]],
    ]);
  });

  it('keeps a link into a page not yet parsed until every page is, and answers it then', () => {
    const index = new AnchorIndex(3);
    const pending = new PendingFragments();
    pending.add(0, 4, 2, 'caf%C3%A9', index); // found percent-decoded
    pending.add(0, 2, 2, 'nowhere', index);
    pending.add(1, 0, 2, 'Intro', index); // ids are case-sensitive
    index.add(0, pageWith([]));
    index.add(2, pageWith(['café', 'intro']));
    pending.add(0, 3, 2, 'gone', index); // answered at once, listed in document order with the others
    expect([...pending.missing(index)]).toEqual([
      [0, [2, 3]],
      [1, [0]],
    ]);
  });
});
