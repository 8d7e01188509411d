// The reader of the inflated tar stream: ustar headers, PAX headers (path, linkpath, size, mtime, GNU.sparse) and GNU
// long names. Pushed chunks of any size, it hands a sink each header, then the body as slices of those chunks (no
// copy). Nothing after the archive's end (its first zero block) is looked at.

/** One entry as the guard and the writer see it. */
export interface TarEntry {
  path: string;
  /** The type's name as tar libraries spell it (File, Directory...), and its flag as written. */
  type: string;
  typeKey: string;
  linkpath: string;
  size: number;
  mode: number;
  /** Milliseconds since the epoch. */
  mtime: number;
  /** A PAX header had GNU.sparse keys: the body is a sparse map, not the file. */
  sparse: boolean;
}

/** Where the reader puts what it reads: an entry, then its body in order (size bytes in all), then its end. */
export interface EntrySink {
  entry(entry: TarEntry): void;
  body(chunk: Buffer): void;
  end(): void;
}

export class TarFormatError extends Error {}

export const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

const BLOCK = 512;
/** The largest PAX header or GNU long name kept: more is no docs bundle (tar's own limit). */
export const MAX_META_BYTES = 1024 * 1024;

/** Entry types by flag (x, g, L and K are read as metadata of the next entry, never as entries). */
export const TYPE_NAMES: Record<string, string> = {
  '0': 'File',
  '': 'OldFile',
  '1': 'Link',
  '2': 'SymbolicLink',
  '3': 'CharacterDevice',
  '4': 'BlockDevice',
  '5': 'Directory',
  '6': 'FIFO',
  '7': 'ContiguousFile',
  A: 'SolarisACL',
  D: 'GNUDumpDir',
  I: 'Inode',
  M: 'ContinuationFile',
  N: 'OldGnuLongPath',
  S: 'SparseFile',
  V: 'TapeVolumeHeader',
  X: 'OldExtendedHeader',
};

/** What PAX headers and long names say about the next entry (or, from a global header, every one after). */
type Overrides = Partial<Pick<TarEntry, 'path' | 'linkpath' | 'size' | 'mtime' | 'sparse'>>;

type Meta = 'x' | 'g' | 'L' | 'K';

export class TarReader {
  /** A header split between chunks; the body bytes still to come, then padding; a meta entry being gathered. */
  private partial: Buffer | undefined;
  private bodyLeft = 0;
  private padLeft = 0;
  private meta: { type: Meta; parts: Buffer[] } | undefined;
  private inEntry = false;
  private local: Overrides = {};
  private global: Overrides = {};
  private offset = 0;
  /** True from the archive's end-of-archive block on: nothing after it is read. */
  ended = false;

  constructor(private readonly sink: EntrySink) {}

  /** The next bytes of the stream. Throws TarFormatError, or what the sink threw. */
  write(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && !this.ended) {
      if (this.bodyLeft > 0) {
        const take = Math.min(this.bodyLeft, chunk.length - at);
        this.bodyPart(chunk.subarray(at, at + take));
        at += take;
        this.bodyLeft -= take;
        if (this.bodyLeft === 0) this.bodyDone();
      } else if (this.padLeft > 0) {
        const skip = Math.min(this.padLeft, chunk.length - at);
        at += skip;
        this.padLeft -= skip;
      } else if (this.partial || chunk.length - at < BLOCK) {
        const take = Math.min(BLOCK - (this.partial?.length ?? 0), chunk.length - at);
        this.partial = Buffer.concat([this.partial ?? Buffer.alloc(0), chunk.subarray(at, at + take)]);
        at += take;
        if (this.partial.length === BLOCK) {
          const block = this.partial;
          this.partial = undefined;
          this.header(block);
        }
      } else {
        this.header(chunk.subarray(at, at + BLOCK));
        at += BLOCK;
      }
    }
    this.offset += chunk.length;
  }

  /** The stream's end: throws inside an entry (an archive without end blocks is whole at a header boundary). */
  finish(): void {
    const inside = this.bodyLeft || this.padLeft || this.partial || this.meta || this.inEntry;
    if (!this.ended && (inside || Object.keys(this.local).length > 0))
      throw new TarFormatError('the archive ends in the middle of an entry');
  }

  private bodyPart(part: Buffer): void {
    if (this.meta) this.meta.parts.push(part);
    else if (this.inEntry) this.sink.body(part);
  }

  private bodyDone(): void {
    if (this.meta) this.metaDone(this.meta);
    else if (this.inEntry) {
      this.inEntry = false;
      this.sink.end();
    }
  }

  private header(block: Buffer): void {
    if (isZero(block)) {
      this.ended = true;
      return;
    }
    checkSum(block, this.offset);
    const key = block[156] === 0 ? '' : String.fromCharCode(block[156]!);
    const ustar = block.toString('latin1', 257, 263) === 'ustar\0';
    let path = text(block, 0, 100);
    if (ustar && block[345] !== 0) path = `${text(block, 345, 155)}/${path}`;
    const size = number(block, 124, 12);
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (key === 'x' || key === 'g' || key === 'L' || key === 'K') {
      if (size > MAX_META_BYTES)
        throw new TarFormatError(
          `entry ${JSON.stringify(path)} is a header of ${size} bytes, more than any archive needs`,
        );
      this.meta = { type: key, parts: [] };
      this.bodyLeft = size;
      this.padLeft = padding;
      if (size === 0) this.metaDone(this.meta);
      return;
    }
    const over = { ...this.global, ...this.local };
    this.local = {};
    const entry: TarEntry = {
      path: over.path ?? path,
      type: TYPE_NAMES[key] ?? 'Unsupported',
      typeKey: key,
      linkpath: over.linkpath ?? text(block, 157, 100),
      size: over.size ?? size,
      mode: number(block, 100, 8),
      mtime: over.mtime ?? number(block, 136, 12) * 1000,
      sparse: over.sparse === true,
    };
    // Only files carry a body; another entry's (a directory with a size) is skipped here.
    const hasBody = FILE_TYPES.has(entry.type);
    this.sink.entry(entry);
    const length = hasBody ? entry.size : size;
    this.bodyLeft = length;
    this.padLeft = (BLOCK - (length % BLOCK)) % BLOCK;
    if (hasBody) {
      this.inEntry = true;
      if (length === 0) this.bodyDone();
    }
  }

  private metaDone(meta: { type: Meta; parts: Buffer[] }): void {
    this.meta = undefined;
    const body = Buffer.concat(meta.parts);
    if (meta.type === 'L') this.local.path = cString(body);
    else if (meta.type === 'K') this.local.linkpath = cString(body);
    else Object.assign(meta.type === 'g' ? this.global : this.local, paxRecords(body));
  }
}

/** The records of a PAX header that matter here; a malformed record ends the reading of the header (as tar does). */
export function paxRecords(body: Buffer): Overrides {
  const found: Overrides = {};
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const digits = space < 0 ? '' : body.toString('latin1', at, space);
    if (!/^[1-9]\d*$/.test(digits)) break;
    const end = at + Number(digits);
    if (end > body.length || body[end - 1] !== 0x0a) break;
    const record = body.toString('utf8', space + 1, end - 1);
    at = end;
    const equals = record.indexOf('=');
    if (equals <= 0) continue;
    const key = record.slice(0, equals);
    const value = record.slice(equals + 1);
    if (key.startsWith('GNU.sparse.')) found.sparse = true;
    else if (value === '') continue;
    else if (key === 'path') found.path = value;
    else if (key === 'linkpath') found.linkpath = value;
    else if (key === 'size' && /^\d+$/.test(value)) found.size = Number(value);
    else if (key === 'mtime' && /^-?\d+(\.\d+)?$/.test(value)) found.mtime = Math.floor(Number(value) * 1000);
  }
  return found;
}

function isZero(block: Buffer): boolean {
  for (let i = 0; i < BLOCK; i++) if (block[i] !== 0) return false;
  return true;
}

/** The header's checksum: the sum of its bytes with the checksum field as spaces (unsigned, or signed as some old tars wrote it). */
function checkSum(block: Buffer, offset: number): void {
  const raw = block.toString('latin1', 148, 156);
  const field = raw.replace(/[\0 ]+$/, '').trim();
  const stated = /^[0-7]+$/.test(field) ? parseInt(field, 8) : NaN;
  // The unsigned sum first, in a loop with no branch: every archive of today's tars has it; the signed one only if not.
  let unsigned = 8 * 0x20;
  for (let i = 0; i < 148; i++) unsigned += block[i]!;
  for (let i = 156; i < BLOCK; i++) unsigned += block[i]!;
  if (stated === unsigned) return;
  let high = 0;
  for (let i = 0; i < BLOCK; i++) if ((i < 148 || i >= 156) && block[i]! > 127) high++;
  if (stated !== unsigned - 256 * high)
    throw new TarFormatError(`a tar header with a wrong checksum at byte ${offset}`);
}

/** A numeric field: octal ASCII, or base-256 (first byte 0x80) for a size past 8 GB. */
function number(block: Buffer, at: number, length: number): number {
  if (block[at]! & 0x80) {
    if (block[at] !== 0x80) throw new TarFormatError('a tar header with a negative base-256 number');
    let value = 0;
    for (let i = at + 1; i < at + length; i++) value = value * 256 + block[i]!;
    if (!Number.isSafeInteger(value)) throw new TarFormatError('a tar header with a number too large to be true');
    return value;
  }
  const raw = block.toString('latin1', at, at + length);
  const field = raw.replace(/\0.*$/s, '').trim();
  if (field === '') return 0;
  if (!/^[0-7]+$/.test(field))
    throw new TarFormatError(`a tar header with a field that is not a number (${JSON.stringify(field)})`);
  return parseInt(field, 8);
}

function text(block: Buffer, at: number, length: number): string {
  const nul = block.indexOf(0, at);
  return block.toString('utf8', at, nul < 0 || nul > at + length ? at + length : nul);
}

function cString(body: Buffer): string {
  const nul = body.indexOf(0);
  return body.toString('utf8', 0, nul < 0 ? body.length : nul);
}
