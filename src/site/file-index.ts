// The files of a site, as `export verify` looks them up: every path packed into one array of code
// units (one byte each while every path is Latin-1, as nearly all are; two once one is not) with an
// offset table, found through an open-addressing hash table of file numbers. Exact (a lookup compares
// the path unit by unit), and a fraction of what a Set of path strings held (each path a string of its
// own, plus the Set's table): the file list was the largest thing verify kept that grew with the site.

/** Files are numbered from 0 in the order they were added. */
export class FileIndex {
  private units: Uint8Array | Uint16Array = new Uint8Array(1 << 14);
  private used = 0;
  /** file n's path is units[starts[n]] up to units[starts[n + 1]] */
  private starts = new Uint32Array(1 << 10);
  /** file number + 1 at the slot its hash leads to (0: free); at most half full while files are added, three quarters after trim() */
  private slots = new Int32Array(MIN_SLOTS);
  private files = 0;

  get count(): number {
    return this.files;
  }

  /** Adds a path (once: a path already there keeps its number); returns its number. */
  add(path: string): number {
    const known = this.find(path);
    if (known >= 0) return known;
    if (this.units instanceof Uint8Array && !isLatin1(path)) this.units = Uint16Array.from(this.units);
    if (this.used + path.length > this.units.length) this.units = grown(this.units, this.used + path.length);
    for (let i = 0; i < path.length; i++) this.units[this.used++] = path.charCodeAt(i);
    if (this.files + 2 > this.starts.length) this.starts = grown(this.starts, this.files + 2);
    const file = this.files++;
    this.starts[this.files] = this.used;
    if (2 * this.files > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(file, hashOf(path));
    return file;
  }

  /** Gives back the room kept for more paths: call when every file is in. */
  trim(): void {
    this.units = this.units.slice(0, this.used);
    this.starts = this.starts.slice(0, this.files + 1);
    // Doubling leaves the table between a quarter and half full; up to three quarters full, a lookup
    // still probes ~2.5 slots on average.
    let size = MIN_SLOTS;
    while (size * 3 < this.files * 4) size *= 2;
    if (size < this.slots.length) this.rehash(size);
  }

  /** The file's number, or -1 when the site has no such file. */
  find(path: string): number {
    const mask = this.slots.length - 1;
    for (let slot = hashOf(path) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return -1;
      if (this.is(entry - 1, path)) return entry - 1;
    }
  }

  has(path: string): boolean {
    return this.find(path) >= 0;
  }

  /** File n's path, as a new string (the index keeps none). */
  pathAt(file: number): string {
    let path = '';
    // fromCharCode takes its units as arguments: a few thousand at a time stays far from the stack's limit.
    for (let at = this.starts[file]!, end = this.starts[file + 1]!; at < end; at += 4096) {
      path += String.fromCharCode.apply(null, this.units.subarray(at, Math.min(at + 4096, end)) as unknown as number[]);
    }
    return path;
  }

  /** Orders two files as their paths compare as strings (`<`: by UTF-16 code unit). */
  compare(a: number, b: number): number {
    let i = this.starts[a]!;
    let j = this.starts[b]!;
    const endA = this.starts[a + 1]!;
    const endB = this.starts[b + 1]!;
    for (; i < endA && j < endB; i++, j++) {
      const d = this.units[i]! - this.units[j]!;
      if (d !== 0) return d;
    }
    return endA - i - (endB - j);
  }

  /** Whether file n's path ends with `suffix`, ASCII letters in any case (an extension). */
  endsWith(file: number, suffix: string): boolean {
    const end = this.starts[file + 1]!;
    const start = end - suffix.length;
    if (start < this.starts[file]!) return false;
    for (let i = 0; i < suffix.length; i++) {
      const unit = this.units[start + i]!;
      const lower = unit >= 65 && unit <= 90 ? unit + 32 : unit;
      if (lower !== suffix.charCodeAt(i)) return false;
    }
    return true;
  }

  private is(file: number, path: string): boolean {
    const start = this.starts[file]!;
    if (this.starts[file + 1]! - start !== path.length) return false;
    for (let i = 0; i < path.length; i++) if (this.units[start + i] !== path.charCodeAt(i)) return false;
    return true;
  }

  private place(file: number, hash: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = file + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let file = 0; file < this.files; file++) this.place(file, this.hashAt(file));
  }

  private hashAt(file: number): number {
    let h = FNV_OFFSET;
    for (let i = this.starts[file]!, end = this.starts[file + 1]!; i < end; i++)
      h = Math.imul(h ^ this.units[i]!, FNV_PRIME);
    return finished(h);
  }
}

const MIN_SLOTS = 1 << 11;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over UTF-16 code units, the same whether read from a string or from the packed units. */
function hashOf(text: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return finished(h);
}

/** FNV's low bits mix poorly for similar paths; the slot is taken from them, so stir the high bits in. */
function finished(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

function isLatin1(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

/** A copy at least `needed` long: twice the size, so that adding stays linear. */
function grown<T extends Uint8Array | Uint16Array | Uint32Array>(array: T, needed: number): T {
  const copy = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2));
  copy.set(array);
  return copy;
}
