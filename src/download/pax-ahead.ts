// GNU tar's `--format=pax` writes a PAX extended header ('x') before every entry: its mtime, atime
// and ctime to the nanosecond, and the path or link target when they do not fit. tar's parser
// makes each one a whole entry: a header decoded field by field, a stream object with listeners,
// its body collected as text and parsed into the extended-header object (tar's Pax) that the next
// header reads. For 10,000 pages that took the unpacker 357 ms of user CPU against 173 ms for the
// same pages archived by node-tar; read here, 263 ms (docs/performance.md, "Every kind of bundle").
//
// readPaxHeadersAhead reads the common case itself: an 'x' header that is well formed beyond any
// doubt, whose body lies whole in the chunk and holds only canonical records of keys tar knows.
// It leaves tar's parser in exactly the state tar's own reading would have left it (the same Pax
// object, built by tar's class, as the extended header; the 'meta' event with the same text; the
// body skipped), so the next header, the entry the guard checks and everything extracted are the
// ones tar would have made. Anything else (a header tar would warn about, a body split between
// chunks, an unknown key such as GNU.sparse.* or hdrcharset, a record tar's own reading treats
// oddly, global 'g' headers, GNU 'L'/'K' long names) goes to tar's parser untouched.

type ParserInternals = Record<symbol, unknown> & { maxMetaEntrySize: number };
type PaxClass = typeof import('tar').Pax;
export type PaxFields = Record<string, string | number | Date>;

const BLOCK = 512;
const TYPE_FLAG = 156;
const X = 0x78;

/**
 * Puts the reader of PAX headers ahead of tar's on `unpack` (a tar Parser or Unpack), and counts the
 * headers it reads (the tests check that the archives they compare went through it). tar keeps the
 * steps and state it needs behind module-private symbols, found by name: if a tar release renames
 * one this returns undefined and tar reads every header itself, as before (a test holds it to work
 * for the tar in the lock file).
 */
export function readPaxHeadersAhead(unpack: object, Pax: PaxClass): { headersRead: number } | undefined {
  const self = unpack as unknown as ParserInternals;
  const own = (name: string) => Object.getOwnPropertySymbols(unpack).find((k) => k.description === name);
  const inherited = (name: string): symbol | undefined => {
    for (let proto = Object.getPrototypeOf(unpack) as object | null; proto; proto = Object.getPrototypeOf(proto) as object | null) {
      const key = Object.getOwnPropertySymbols(proto).find((k) => k.description === name);
      if (key) return key;
    }
    return undefined;
  };
  const [STATE, EX, META, WRITEENTRY, SAW_VALID_ENTRY, SAW_NULL_BLOCK] = ['state', 'extendedHeader', 'meta', 'writeEntry', 'sawValidEntry', 'sawNullBlock'].map(own);
  const [CONSUMEHEADER, EMIT] = ['consumeHeader', 'emit'].map(inherited);
  if (!STATE || !EX || !META || !WRITEENTRY || !SAW_VALID_ENTRY || !SAW_NULL_BLOCK || !CONSUMEHEADER || !EMIT) return undefined;
  const consumeHeader = self[CONSUMEHEADER] as (chunk: Buffer, position: number) => void;
  if (typeof consumeHeader !== 'function' || typeof self[EMIT] !== 'function' || typeof Pax?.prototype !== 'object') return undefined;
  const counts = { headersRead: 0 };

  self[CONSUMEHEADER] = function (this: ParserInternals, chunk: Buffer, position: number) {
    if (chunk[position + TYPE_FLAG] !== X) return consumeHeader.call(this, chunk, position);
    const size = wellFormedSize(chunk, position);
    const bodyBlocks = size === undefined ? 0 : Math.ceil(size / BLOCK);
    if (size === undefined || size === 0 || size > this.maxMetaEntrySize || position + BLOCK * (1 + bodyBlocks) > chunk.length) return consumeHeader.call(this, chunk, position);
    const text = chunk.toString('utf8', position + BLOCK, position + BLOCK + size);
    const records = canonicalRecords(text);
    if (!records) return consumeHeader.call(this, chunk, position);
    // What tar's reading of the header and its body would have left: a valid entry seen, no null
    // block pending, the body consumed (skipped below, as tar skips an ignored entry's), the
    // 'meta' event, and the extended header merged over any pending one (a 'L' or 'x' before it).
    this[SAW_VALID_ENTRY] = true;
    this[SAW_NULL_BLOCK] = false;
    this[STATE] = 'ignore';
    this[WRITEENTRY] = new SkippedBody(bodyBlocks * BLOCK);
    this[META] = text;
    (this[EMIT] as (event: string, data: string) => void).call(this, 'meta', text);
    const pending = this[EX] as object | undefined;
    this[EX] = new Pax((pending ? Object.assign({}, pending, records) : records) as ConstructorParameters<PaxClass>[0], false);
    counts.headersRead++;
  };
  return counts;
}

/**
 * What tar's parser needs of the entry whose body it skips: it writes the body's blocks to it and
 * ends it when none remain (then reads the next header).
 */
class SkippedBody {
  constructor(public blockRemain: number) {}
  write(data: Buffer): boolean {
    this.blockRemain -= data.length;
    return true;
  }
  end(): void {}
}

/**
 * The header's size when tar would take this block as a valid 'x' entry with exactly that size,
 * else undefined (tar then reads it, warns, or refuses it its own way). Valid means: a name, plain
 * octal numbers (no base-256 field, which tar parses differently or refuses), and a checksum tar
 * accepts.
 */
export function wellFormedSize(block: Buffer, at: number): number | undefined {
  if (block[at] === 0) return undefined;
  // The numeric fields tar decodes (mode, uid, gid, size, mtime, checksum, devices, GNU atime and
  // ctime): a first byte with the top bit set is base-256. Bytes OR'ed have it iff one of them has.
  const firsts = block[at + 100]! | block[at + 108]! | block[at + 116]! | block[at + 124]! | block[at + 136]! | block[at + 148]! | block[at + 329]! | block[at + 337]! | block[at + 476]! | block[at + 488]!;
  if (firsts >= 0x80) return undefined;
  const checksum = plainOctal(block, at + 148, 8);
  if (checksum === undefined) return undefined;
  // The checksum field counts as spaces. Four bytes a step (148 and 356 are multiples of 4): this
  // runs on every header, and the loop's own work was most of it. A block cut short sums to NaN.
  let sum = 8 * 0x20;
  for (let i = at, end = at + 148; i < end; i += 4) sum += block[i]! + block[i + 1]! + block[i + 2]! + block[i + 3]!;
  for (let i = at + 156, end = at + BLOCK; i < end; i += 4) sum += block[i]! + block[i + 1]! + block[i + 2]! + block[i + 3]!;
  if (sum !== checksum) return undefined;
  return plainOctal(block, at + 124, 12);
}

/**
 * An octal field as tar reads it (up to the first NUL, trimmed, parseInt base 8), but only in the
 * plain form `[spaces] digits [spaces] [NUL ...]`, for which that reading is exact; else undefined.
 */
export function plainOctal(block: Buffer, at: number, length: number): number | undefined {
  const end = at + length;
  let i = at;
  while (i < end && block[i] === 0x20) i++;
  let value = 0;
  const first = i;
  for (; i < end && block[i]! >= 0x30 && block[i]! <= 0x37; i++) value = value * 8 + block[i]! - 0x30;
  if (i === first) return undefined;
  while (i < end && block[i] === 0x20) i++;
  return i === end || block[i] === 0 ? value : undefined;
}

/**
 * The records of a PAX body as tar's Pax.parse reads them, when every one is canonical: `<length>
 * <key>=<value>\n` with the length in plain digits and exactly the record's bytes, a key tar knows,
 * and no NUL in the value; the body ends with the last record. Else undefined: Pax.parse's line by
 * line reading has quirks (a value with a newline, a wrong length, leading zeros) best left to it.
 */
export function canonicalRecords(text: string): PaxFields | undefined {
  const set = Object.create(null) as PaxFields;
  let at = 0;
  while (at < text.length) {
    const newline = text.indexOf('\n', at);
    const space = text.indexOf(' ', at);
    if (newline < 0 || space < 0 || space > newline || space === at || text.charCodeAt(at) === 0x30) return undefined;
    for (let i = at; i < space; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x30 || c > 0x39) return undefined;
    }
    const line = text.slice(at, newline);
    if (Number(text.slice(at, space)) !== Buffer.byteLength(line) + 1) return undefined;
    const equals = text.indexOf('=', space + 1);
    if (equals < 0 || equals > newline || equals === space + 1) return undefined;
    const key = text.slice(space + 1, equals);
    const value = text.slice(equals + 1, newline);
    if (value.includes('\0')) return undefined;
    // Exactly the conversions of tar's Pax.parse (parseKVLine), key by key.
    switch (key) {
      case 'path':
      case 'linkpath':
      case 'type':
      case 'charset':
      case 'comment':
      case 'gname':
      case 'uname':
        set[key] = value;
        break;
      case 'ctime':
      case 'atime':
      case 'mtime':
        set[key] = new Date(Number(value) * 1000);
        break;
      case 'size': {
        const size = +value;
        if (size >= 0) set[key] = size;
        break;
      }
      case 'gid':
      case 'uid':
      case 'dev':
      case 'ino':
      case 'nlink':
      case 'mode':
        set[key] = +value;
        break;
      default:
        return undefined;
    }
    at = newline + 1;
  }
  return set;
}
