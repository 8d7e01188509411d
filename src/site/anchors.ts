// What `#fragment` links are checked against: the anchors of each page (id= on any element, name= on
// an <a>, as the HTML spec finds a fragment's target). Kept as 64-bit hashes in blocks of typed
// arrays, not as strings or DOMs, so memory grows by a few words per anchor however large the site;
// a false "found" needs two different anchors of one page to share 64 bits.

/** A page's anchors while it is parsed: enough to check its own `#x` links when it ends. */
export class PageAnchors {
  readonly hashes: number[] = [];
  // For the page's own links: a table of contents of thousands of entries is checked in linear time.
  private readonly keys = new Set<string>();

  add(name: string): void {
    if (name === '') return;
    const [high, low] = hash64(name);
    const key = `${high}.${low}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.hashes.push(high, low);
  }

  has(fragment: string): boolean {
    return fragmentForms(fragment).some((form) => this.keys.has(hash64(form).join('.')));
  }
}

/**
 * Every page's anchors, by page number, added as pages finish (in any order). Kept in blocks of 256 KB,
 * each page's in one block: one array doubled as it filled held up to twice what it needed, and
 * three times while it was copied.
 */
export class AnchorIndex {
  private readonly blocks: Uint32Array[] = [];
  /** units used in the last block */
  private used = BLOCK_UNITS;
  /** where each page's anchors start: block number * BLOCK_UNITS + their place in it; -1 until added */
  private readonly starts: Int32Array;
  private readonly counts: Int32Array;

  constructor(pageCount: number) {
    this.starts = new Int32Array(pageCount).fill(-1);
    this.counts = new Int32Array(pageCount);
  }

  add(page: number, anchors: PageAnchors): void {
    const units = anchors.hashes.length;
    if (this.used + units > BLOCK_UNITS) {
      // A page of more anchors than a block holds gets a block of its own size.
      this.blocks.push(new Uint32Array(Math.max(units, BLOCK_UNITS)));
      this.used = 0;
    }
    const block = this.blocks[this.blocks.length - 1]!;
    const offset = this.used;
    // Sorted, so that a page many links lead into is searched, not scanned.
    const pairs = Array.from({ length: units / 2 }, (_, i) => i);
    pairs.sort(
      (a, b) =>
        anchors.hashes[2 * a]! - anchors.hashes[2 * b]! || anchors.hashes[2 * a + 1]! - anchors.hashes[2 * b + 1]!,
    );
    for (const i of pairs) {
      block[this.used++] = anchors.hashes[2 * i]!;
      block[this.used++] = anchors.hashes[2 * i + 1]!;
    }
    if (units > BLOCK_UNITS) this.used = BLOCK_UNITS;
    this.starts[page] = (this.blocks.length - 1) * BLOCK_UNITS + offset;
    this.counts[page] = units / 2;
  }

  /** Whether the page's anchors are in (its parse has ended). */
  holds(page: number): boolean {
    return (this.starts[page] ?? -1) >= 0;
  }

  hasHash(page: number, high: number, low: number): boolean {
    const start = this.starts[page] ?? -1;
    if (start < 0) return false;
    const block = this.blocks[Math.floor(start / BLOCK_UNITS)]!;
    const base = start % BLOCK_UNITS;
    let lowPair = 0;
    let highPair = this.counts[page]! - 1;
    while (lowPair <= highPair) {
      const mid = (lowPair + highPair) >>> 1;
      const h = block[base + 2 * mid]!;
      const l = block[base + 2 * mid + 1]!;
      if (h === high && l === low) return true;
      if (h < high || (h === high && l < low)) lowPair = mid + 1;
      else highPair = mid - 1;
    }
    return false;
  }
}

/** 64 Ki units (32,768 anchors), 256 KB: a block number times this stays an Int32 up to 8 GB of anchors. */
const BLOCK_UNITS = 1 << 16;

/**
 * Whether a fragment needs no anchor: the empty one and `top` (any case) scroll to the top of the
 * page (HTML spec, "the indicated part of the document").
 */
export function isTopOfPage(fragment: string): boolean {
  return fragment === '' || fragment.toLowerCase() === 'top';
}

/** The spec looks for the fragment as written, then percent-decoded. */
function fragmentForms(fragment: string): string[] {
  let decoded: string | undefined;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    decoded = undefined;
  }
  return decoded === undefined || decoded === fragment ? [fragment] : [fragment, decoded];
}

/** cyrb53's two 32-bit lanes (public domain): fast, well mixed, no allocation. */
function hash64(text: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

/**
 * Links to a fragment of another page. One into a page already parsed is checked at once, and only a
 * missing one is kept (two numbers: the page holding it, its place among that page's references);
 * one into a page not yet parsed waits for every page's anchors, as five numbers (those two, the page
 * it leads to, the hash of the fragment as written), and five more when its percent-decoded form
 * differs (the same, its place marked ALTERNATE). No text: the few that fail are read again for theirs.
 */
export class PendingFragments {
  /** RECORDS_PER_BLOCK records of five numbers each, in blocks, for the same reason as AnchorIndex's */
  private readonly blocks: Uint32Array[] = [];
  private count = 0;
  private missed = new Uint32Array(2 * 64);
  private missedCount = 0;

  add(fromPage: number, ordinal: number, toPage: number, fragment: string, anchors: AnchorIndex): void {
    const forms = fragmentForms(fragment).map(hash64);
    if (anchors.holds(toPage)) {
      if (forms.some(([high, low]) => anchors.hasHash(toPage, high, low))) return;
      if (2 * (this.missedCount + 1) > this.missed.length) this.missed = grown(this.missed);
      this.missed.set([fromPage, ordinal], 2 * this.missedCount++);
      return;
    }
    forms.forEach(([high, low], i) =>
      this.record(fromPage, i === 0 ? ordinal : ordinal | ALTERNATE, toPage, high, low),
    );
  }

  /** The links whose fragment no anchor of their page carries: by page, each page's in document order. */
  missing(anchors: AnchorIndex): Map<number, number[]> {
    const byPage = new Map<number, number[]>();
    const add = (page: number, ordinal: number) => {
      const ordinals = byPage.get(page) ?? [];
      ordinals.push(ordinal);
      byPage.set(page, ordinals);
    };
    // A link with an alternate form is missing only when neither form is found.
    for (let n = 0; n < this.count; ) {
      const first = this.at(n);
      let found = false;
      for (let r = first; ; r = this.at(n)) {
        found ||= anchors.hasHash(r[2]!, r[3]!, r[4]!);
        if (++n === this.count || (this.at(n)[1]! & ALTERNATE) === 0) break;
      }
      if (!found) add(first[0]!, first[1]!);
    }
    for (let i = 0; i < 2 * this.missedCount; i += 2) add(this.missed[i]!, this.missed[i + 1]!);
    for (const ordinals of byPage.values()) ordinals.sort((a, b) => a - b);
    return new Map([...byPage].sort(([a], [b]) => a - b));
  }

  private record(...numbers: [number, number, number, number, number]): void {
    if (this.count % RECORDS_PER_BLOCK === 0) this.blocks.push(new Uint32Array(5 * RECORDS_PER_BLOCK));
    this.blocks[this.blocks.length - 1]!.set(numbers, 5 * (this.count++ % RECORDS_PER_BLOCK));
  }

  private at(n: number): Uint32Array {
    const i = 5 * (n % RECORDS_PER_BLOCK);
    return this.blocks[Math.floor(n / RECORDS_PER_BLOCK)]!.subarray(i, i + 5);
  }
}

/** Marks a record as another form of the link before it (a place in a page is far below 2^31). */
const ALTERNATE = 0x8000_0000;

/** 8,192 records a block (160 KB). */
const RECORDS_PER_BLOCK = 8192;

function grown(array: Uint32Array): Uint32Array<ArrayBuffer> {
  const copy = new Uint32Array(array.length * 2);
  copy.set(array);
  return copy;
}
