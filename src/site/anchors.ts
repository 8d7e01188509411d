// What `#fragment` links are checked against: the anchors of each page (id= on any element, name= on
// an <a>, as the HTML spec finds a fragment's target). Kept as 64-bit hashes in one growing typed
// array, not as strings or DOMs, so 100,000 pages with ~10 anchors each hold ~8 MB; a false "found"
// needs two different anchors of one page to share 64 bits.

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

/** Every page's anchors, by page number, added as pages finish (in any order). */
export class AnchorIndex {
  private hashes = new Uint32Array(4096);
  private used = 0;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;

  constructor(pageCount: number) {
    this.starts = new Int32Array(pageCount).fill(-1);
    this.ends = new Int32Array(pageCount);
  }

  add(page: number, anchors: PageAnchors): void {
    const needed = this.used + anchors.hashes.length;
    if (needed > this.hashes.length) {
      const grown = new Uint32Array(Math.max(needed, this.hashes.length * 2));
      grown.set(this.hashes.subarray(0, this.used));
      this.hashes = grown;
    }
    this.starts[page] = this.used;
    // Sorted, so that a page many links lead into is searched, not scanned.
    const pairs = Array.from({ length: anchors.hashes.length / 2 }, (_, i) => i);
    pairs.sort((a, b) => anchors.hashes[2 * a]! - anchors.hashes[2 * b]! || anchors.hashes[2 * a + 1]! - anchors.hashes[2 * b + 1]!);
    for (const i of pairs) {
      this.hashes[this.used++] = anchors.hashes[2 * i]!;
      this.hashes[this.used++] = anchors.hashes[2 * i + 1]!;
    }
    this.ends[page] = this.used;
  }

  hasHash(page: number, high: number, low: number): boolean {
    const start = this.starts[page] ?? -1;
    if (start < 0) return false;
    let lowPair = 0;
    let highPair = (this.ends[page]! - start) / 2 - 1;
    while (lowPair <= highPair) {
      const mid = (lowPair + highPair) >>> 1;
      const h = this.hashes[start + 2 * mid]!;
      const l = this.hashes[start + 2 * mid + 1]!;
      if (h === high && l === low) return true;
      if (h < high || (h === high && l < low)) lowPair = mid + 1;
      else highPair = mid - 1;
    }
    return false;
  }
}

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
 * Links to a fragment of another page, waiting for every page's anchors: seven numbers each (the page
 * holding the link, the link's place among that page's references, the page it leads to, the hashes of
 * the fragment as written and percent-decoded), no text: the few that fail are read again for theirs.
 */
export class PendingFragments {
  private records = new Uint32Array(7 * 1024);
  private count = 0;

  add(fromPage: number, ordinal: number, toPage: number, fragment: string): void {
    if (7 * (this.count + 1) > this.records.length) {
      const grown = new Uint32Array(this.records.length * 2);
      grown.set(this.records);
      this.records = grown;
    }
    const forms = fragmentForms(fragment);
    const written = forms[0]!;
    const decoded = forms[1] ?? written;
    this.records.set([fromPage, ordinal, toPage, ...hash64(written), ...hash64(decoded)], 7 * this.count++);
  }

  /** The links whose fragment no anchor of their page carries: by page, each page's in document order. */
  missing(anchors: AnchorIndex): Map<number, number[]> {
    const byPage = new Map<number, number[]>();
    const r = this.records;
    for (let i = 0; i < 7 * this.count; i += 7) {
      if (anchors.hasHash(r[i + 2]!, r[i + 3]!, r[i + 4]!) || anchors.hasHash(r[i + 2]!, r[i + 5]!, r[i + 6]!)) continue;
      const ordinals = byPage.get(r[i]!) ?? [];
      ordinals.push(r[i + 1]!);
      byPage.set(r[i]!, ordinals);
    }
    for (const ordinals of byPage.values()) ordinals.sort((a, b) => a - b);
    return new Map([...byPage].sort(([a], [b]) => a - b));
  }
}
