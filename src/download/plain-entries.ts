// The live extraction's reader of plain entries: regular files and directories with well-formed
// ustar headers (and PAX headers of the keys GNU tar writes for them), extracted here, and from the
// first entry that is anything else, the rest of the stream handed to tar's unpacker as it is.
//
// Why: tar's JavaScript costs about 50 us an entry (a header decoded field by field, a stream
// object per entry with its listeners and events, an extended-header object merged into two more
// objects), where GNU tar's C costs a few; on 10,000 pages that was most of the extraction thread's
// time, and the reason `export download` took 1.5-1.7x the CPU of `curl | tar` (docs/performance.md,
// "Every kind of bundle"). Read here, a plain entry costs its system calls and a few microseconds.
//
// What makes it safe: every entry read here passes the same guard and limits as tar's (`admit`), and
// anything this reader does not read exactly as tar would goes to tar untouched, with the bytes of
// the extended header before it: links, devices, GNU long names, global headers, a checksum tar
// would refuse, a base-256 number, a name that is not plain ASCII, a PAX key beyond the ones below, a
// path seen before (tar's full checks), a body the stream ends inside. Files are created with
// O_EXCL | O_NOFOLLOW in directories this extraction made: nothing can be in their way. The tree is
// the one tar makes, to the mode and the nanosecond (test/download/plain-entries.test.ts compares
// them on archives by GNU tar in every format, node-tar and by hand).
import { dirname, resolve } from 'node:path';
import type { FileWriter } from './file-writer.js';
import type { FreshTree } from './fresh-tree.js';
import { CallRunner, type FileCalls } from './write-behind.js';
import type { EntryInfo } from './guard.js';
import { canonicalRecords, plainOctal, wellFormedSize, type PaxFields } from './pax-ahead.js';

/** What the reader hands the rest of the stream to: tar's unpacker. */
export interface TarStream {
  write(chunk: Buffer): boolean;
}

export interface PlainEntryOptions {
  tree: FreshTree;
  /** The guard and the limits, as tar's filter applies them: false once the archive is refused. */
  admit: (entry: EntryInfo) => boolean;
  /** An mtime later than this (a build host's wrong clock) becomes this (modes.ts, normalise). */
  now: number;
  /** tar's largest extended header (its maxMetaEntrySize). */
  maxMetaBytes: number;
  /** tar's deepest path (its maxDepth): a deeper one is tar's to refuse. */
  maxDepth: number;
  /**
   * The writer thread (file-writer.ts), given when tar's small files would be handed over too: once
   * it has started, every file-system call of the reader is made there (write-behind.ts).
   */
  writer?: FileWriter | undefined;
}

const BLOCK = 512;
const TYPE_FLAG = 156;
/**
 * The PAX keys read here: what GNU tar writes for a plain file (times, owners, a long path). Any
 * other (size, linkpath, type and mode change what tar makes; vendor keys, sparse maps) goes to tar.
 */
const PLAIN_PAX_KEYS = new Set(['path', 'mtime', 'atime', 'ctime', 'uid', 'gid', 'uname', 'gname', 'dev', 'ino', 'nlink', 'charset', 'comment']);
/** What the reader takes of a PAX header of plain keys: the path and the two times it sets (the rest only counts as plain). */
interface PlainPax {
  path?: string;
  mtime?: Date;
  atime?: Date;
}

/** canonicalRecords' answer, when every key is one read here. */
function plainRecords(records: PaxFields | undefined): PlainPax | undefined {
  if (!records || !Object.keys(records).every((key) => PLAIN_PAX_KEYS.has(key))) return undefined;
  return { path: records.path as string | undefined, mtime: records.mtime as Date | undefined, atime: records.atime as Date | undefined };
}

/**
 * The PAX header GNU tar writes before nearly every entry (`<length> <key>=<value>\n` records of
 * times, owners, a long path), read straight from its bytes: the same answer as canonicalRecords then
 * plainRecords, without decoding the body, measuring each record's UTF-8 length or making a Date for
 * the times the reader does not set. Only for records that are plain ASCII (a byte is a character, so
 * the two agree on every length) with a key of PLAIN_PAX_KEYS; null for anything else, which the
 * general reading then reads (test/download/plain-entries.test.ts compares the trees both ways).
 */
function asciiPlainRecords(data: Buffer, start: number, end: number): PlainPax | null {
  const out: PlainPax = {};
  let at = start;
  while (at < end) {
    // A length in plain digits, no leading zero, then one space.
    if (data[at] === 0x30) return null;
    let length = 0;
    let i = at;
    for (; i < end && data[i]! >= 0x30 && data[i]! <= 0x39; i++) length = length * 10 + data[i]! - 0x30;
    if (i === at || i >= end || data[i] !== 0x20) return null;
    const recordEnd = at + length;
    if (recordEnd > end || data[recordEnd - 1] !== 0x0a) return null;
    const keyStart = i + 1;
    let equals = keyStart;
    for (; equals < recordEnd - 1 && data[equals] !== 0x3d; equals++) if (data[equals] === 0x0a || data[equals]! >= 0x80) return null;
    if (equals === keyStart || equals >= recordEnd - 1) return null;
    // The value: ASCII without NUL or a newline before the record's own.
    for (let v = equals + 1; v < recordEnd - 1; v++) if (data[v] === 0 || data[v] === 0x0a || data[v]! >= 0x80) return null;
    const key = data.toString('latin1', keyStart, equals);
    if (!PLAIN_PAX_KEYS.has(key)) return null;
    if (key === 'path' || key === 'mtime' || key === 'atime') {
      const value = data.toString('latin1', equals + 1, recordEnd - 1);
      if (key === 'path') out.path = value;
      else out[key] = new Date(Number(value) * 1000);
    }
    at = recordEnd;
  }
  return out;
}

/** A ustar header's magic and version: the format whose fields tar reads as read here. */
const USTAR = Buffer.from('ustar\x0000', 'latin1');

/** An entry as tar's Header and ReadEntry make it, and as modes.ts normalises it. */
interface PlainEntry {
  path: string;
  info: EntryInfo;
  mode: number;
  mtime: Date | undefined;
  atime: Date | undefined;
}

/** A file whose body is being written: the times its close sets. */
interface OpenFile {
  atime: Date | undefined;
  mtime: Date | undefined;
}

export class PlainEntryReader {
  private handedOver = false;
  private ended = false;
  /** The bytes of an extended header read but not yet used, replayed to tar if it gets the entry. */
  private pending: { bytes: Buffer; records: PlainPax } | undefined;
  /** Less than a block at a chunk's end (only when chunks are not whole blocks). */
  private carry: Buffer | undefined;
  private file: OpenFile | undefined;
  /** Body bytes of the current file still to come, then the padding to its block's end. */
  private remain = 0;
  private padding = 0;
  private sawNullBlock = false;
  /** Where the file-system calls are made: here, until the writer thread wants them (write-behind.ts). */
  private readonly here = new CallRunner();
  private calls: FileCalls = this.here;
  private behind = false;
  /** Where the chunk being read begins in the bytes read (after a carry): the writes name places in the chunk. */
  private chunkStart = 0;
  /** Entries read here; the tests check that the archives they compare went through it. */
  entriesRead = 0;

  constructor(
    private readonly tar: TarStream,
    private readonly options: PlainEntryOptions,
  ) {}

  /** Whether tar has the stream now (it then says how it ends). */
  get toTar(): boolean {
    return this.handedOver;
  }

  /**
   * The next bytes of the tar stream; false when tar queued them (never seen: the caller stands down).
   * Throws when a file cannot be written. Once the writer thread makes the calls, the chunk's buffer
   * may move there with them (it is then detached here: read its length before).
   */
  write(chunk: Buffer): boolean {
    if (this.handedOver) return this.tar.write(chunk);
    if (this.ended) return true;
    let data = chunk;
    if (this.carry) {
      data = Buffer.concat([this.carry, chunk]);
      this.carry = undefined;
    }
    // A carry is a header or an extended header: a file's bytes are always the chunk's own.
    this.chunkStart = data.length - chunk.length;
    let at = 0;
    while (at < data.length && !this.ended) {
      if (this.remain > 0) at += this.body(data, chunk, at);
      else if (this.padding > 0) {
        const skipped = Math.min(this.padding, data.length - at);
        this.padding -= skipped;
        at += skipped;
      } else {
        const next = data.length - at < BLOCK ? MORE : this.header(data, at);
        if (next === undefined) return this.handOver(data, at, chunk);
        if (next === MORE) {
          // A header, or an extended header's body, that the chunk cuts: read once the next chunk is here.
          this.carry = Buffer.from(data.subarray(at));
          break;
        }
        at = next;
      }
    }
    // The chunk's buffer goes back for the next batch (or with the calls to the writer thread): what is still needed of it is copied.
    if (this.pending && this.pending.bytes.buffer === data.buffer) this.pending = { ...this.pending, bytes: Buffer.from(this.pending.bytes) };
    if (this.behind) this.options.writer!.sendCalls(chunk);
    return true;
  }

  /** The stream is over (and tar never had it): returns when it ended where tar would accept it, else throws (the extraction from the file says why). */
  finish(): void {
    if (this.file || this.padding > 0) throw new Error('the archive ends inside an entry');
    if (this.carry || this.pending) throw new Error('the archive ends inside a header');
    if (this.entriesRead === 0) throw new Error('the archive has no entries');
  }

  /** Closes a file left open (the extraction stopped); what was written is removed by the caller. */
  abandon(): void {
    this.file = undefined;
    this.here.abandon();
  }

  /** Position after the header at `at` (and its extended header's body), MORE when the chunk cuts it, or undefined when tar must read it. */
  private header(data: Buffer, at: number): number | undefined {
    if (isNullBlock(data, at)) {
      // Two in a row end the archive; what follows means nothing (as tar-internals.ts, dropBytesAfterTheEnd).
      if (this.pending) return undefined;
      if (this.sawNullBlock) this.ended = true;
      this.sawNullBlock = true;
      return at + BLOCK;
    }
    const size = wellFormedSize(data, at);
    // No link target at all: tar reads the field up to its first NUL and keeps the next line after it.
    if (size === undefined || !data.subarray(at + 257, at + 265).equals(USTAR) || !isZeros(data, at + 157, 100)) return undefined;
    const flag = data[at + TYPE_FLAG];
    if (flag === X) return this.extendedHeader(data, at, size);
    const isFile = flag === ZERO || flag === 0;
    if (!isFile && flag !== FIVE) return undefined;
    const entry = this.entryOf(data, at, isFile ? 'File' : 'Directory', size);
    if (!entry) return undefined;
    const absolute = resolve(this.options.tree.cwd, entry.path);
    const isTheDirectory = absolute === this.options.tree.cwd;
    // The directory itself may only be a directory entry (tar ignores anything else there).
    if (isTheDirectory && isFile) return undefined;
    // A path seen before meets what an earlier entry made: tar's full checks (it claims the path
    // again, and finds it seen).
    if (!this.options.tree.claim(absolute) && !isTheDirectory) return undefined;
    if (!this.options.admit(entry.info)) {
      // Refused (the caller stands down now): nothing more is read or written.
      this.ended = true;
      return data.length;
    }
    this.pending = undefined;
    this.sawNullBlock = false;
    this.entriesRead++;
    if (isFile) this.openFile(absolute, entry);
    else this.makeDirectory(absolute, entry, isTheDirectory);
    return at + BLOCK;
  }

  /** A PAX header of the keys read here, with no other pending: kept for the entry it describes (MORE: its body goes on in the next chunk). */
  private extendedHeader(data: Buffer, at: number, size: number): number | undefined {
    const end = at + BLOCK + BLOCK * Math.ceil(size / BLOCK);
    if (this.pending || size === 0 || size > this.options.maxMetaBytes) return undefined;
    if (end > data.length) return MORE;
    const records = asciiPlainRecords(data, at + BLOCK, at + BLOCK + size) ?? plainRecords(canonicalRecords(data.toString('utf8', at + BLOCK, at + BLOCK + size)));
    if (!records) return undefined;
    this.pending = { bytes: data.subarray(at, end), records };
    this.sawNullBlock = false;
    return end;
  }

  /**
   * The entry as tar's Header and ReadEntry make it of this header and the pending extended header,
   * when that reading is exact here: a plain ASCII name (tar decodes UTF-8, with its replacements),
   * plain octal numbers, no long-prefix or GNU time fields, a file name not ending in `/` (tar's old
   * directory form), a directory without a body.
   */
  private entryOf(data: Buffer, at: number, type: 'File' | 'Directory', size: number): PlainEntry | undefined {
    const name = asciiField(data, at, 100);
    const prefix = asciiField(data, at + 345, 130);
    const mode = plainOctal(data, at + 100, 8);
    // No mtime at all (node-tar's portable directories): tar then sets no times.
    const mtime = isZeros(data, at + 136, 12) ? null : plainOctal(data, at + 136, 12);
    if (name === undefined || prefix === undefined || mode === undefined || mtime === undefined) return undefined;
    // tar reads a 155-byte prefix when its last byte is set, and GNU-style atime and ctime after 130 bytes.
    for (let i = at + 475; i < at + 500; i++) if (data[i] !== 0) return undefined;
    const records = this.pending?.records;
    // A PAX path is the entry's whole path: tar's ReadEntry takes it over the header's prefix and name.
    const path = records?.path ?? (prefix ? `${prefix}/${name}` : name);
    if (path === '' || (type === 'File' && path.endsWith('/')) || (type === 'Directory' && size !== 0) || tooDeep(path, this.options.maxDepth)) return undefined;
    const modeBits = mode & 0o7777;
    return {
      path,
      info: { path, type, size, linkpath: undefined },
      mode: type === 'Directory' ? 0o755 : (modeBits & 0o111) !== 0 ? 0o755 : 0o644,
      mtime: clamp(records?.mtime ?? (mtime === null ? undefined : new Date(mtime * 1000)), this.options.now),
      atime: records?.atime,
    };
  }

  private openFile(absolute: string, entry: PlainEntry): void {
    if (!this.behind && this.options.writer?.wants()) {
      this.behind = true;
      this.calls = this.options.writer.calls;
    }
    this.makeParent(absolute);
    this.calls.open(absolute, entry.mode);
    this.file = { atime: entry.atime, mtime: entry.mtime };
    this.remain = entry.info.size;
    this.padding = BLOCK * Math.ceil(entry.info.size / BLOCK) - entry.info.size;
    if (this.remain === 0) this.closeFile();
  }

  /** Writes what `data` holds of the current file's body from `at`; returns the bytes taken. */
  private body(data: Buffer, chunk: Buffer, at: number): number {
    const take = Math.min(this.remain, data.length - at);
    if (at < this.chunkStart) throw new Error('a file began inside a header carried over');
    this.calls.write(chunk, at - this.chunkStart, take);
    this.remain -= take;
    if (this.remain === 0) this.closeFile();
    return take;
  }

  /** As tar ends a file: its times when it has an mtime (atime now when the archive has none), then close. */
  private closeFile(): void {
    const { atime, mtime } = this.file!;
    this.file = undefined;
    this.calls.close(atime?.getTime() ?? Number.NaN, mtime?.getTime() ?? Number.NaN);
  }

  /** As tar makes a directory entry (the extraction's own directory is only given its times). */
  private makeDirectory(absolute: string, entry: PlainEntry, isTheDirectory: boolean): void {
    if (!isTheDirectory && !this.options.tree.isMade(absolute)) {
      this.makeParent(absolute);
      this.calls.mkdir(absolute, entry.mode | 0o700);
      this.options.tree.markMade(absolute);
    }
    if (entry.mtime) this.calls.times(absolute, entry.atime?.getTime() ?? Number.NaN, entry.mtime.getTime());
  }

  private makeParent(absolute: string): void {
    const parent = dirname(absolute);
    const made = this.options.tree.isMade(parent) || this.options.tree.makeDirsDown(parent, (level, mode) => this.calls.mkdir(level, mode));
    if (!made) throw new Error(`could not make the directory of ${JSON.stringify(absolute)}`);
  }

  /**
   * tar takes the stream from the header at `at`, after the extended header that came before it,
   * once the writer thread made every call listed (tar's checks and writes assume them made).
   */
  private handOver(data: Buffer, at: number, chunk: Buffer): boolean {
    this.handedOver = true;
    let rest = this.pending ? Buffer.concat([this.pending.bytes, data.subarray(at)]) : data.subarray(at);
    this.pending = undefined;
    const writer = this.options.writer;
    if (this.behind && writer) {
      // The chunk may move to the writer thread with its calls: tar gets a copy of the rest.
      if (rest.buffer === chunk.buffer) rest = Buffer.from(rest);
      writer.sendCalls(chunk);
      writer.drain();
    }
    return this.tar.write(rest);
  }
}

/** header(): the chunk ends inside the header or its extended header's body. */
const MORE = -1;
const X = 0x78;
const ZERO = 0x30;
const FIVE = 0x35;

/** A block of zeros: how tar tells the end of an archive (Header.nullBlock; one with anything in its checksum field goes to tar). */
function isNullBlock(data: Buffer, at: number): boolean {
  return isZeros(data, at, BLOCK);
}

/**
 * A field of printable ASCII padded with NULs, which tar decodes to the same string; undefined for
 * anything else (tar decodes UTF-8 with replacements, and drops only the first line after a NUL).
 */
function asciiField(data: Buffer, at: number, length: number): string | undefined {
  let end = at;
  for (; end < at + length && data[end] !== 0; end++) {
    const byte = data[end]!;
    if (byte < 0x20 || byte > 0x7e) return undefined;
  }
  for (let i = end; i < at + length; i++) if (data[i] !== 0) return undefined;
  return data.toString('latin1', at, end);
}

function clamp(mtime: Date | undefined, now: number): Date | undefined {
  return mtime && mtime.getTime() > now ? new Date(now) : mtime;
}

/** More components than tar's maxDepth, counted as tar counts them (the path split on `/`). */
function tooDeep(path: string, maxDepth: number): boolean {
  let parts = 1;
  for (let at = path.indexOf('/'); at >= 0 && parts <= maxDepth; at = path.indexOf('/', at + 1)) parts++;
  return parts > maxDepth;
}

function isZeros(data: Buffer, at: number, length: number): boolean {
  for (let i = at; i < at + length; i++) if (data[i] !== 0) return false;
  return true;
}
