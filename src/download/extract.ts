// Unpacks the downloaded tar.gz with the `tar` package into a work directory, refusing the whole
// archive at the first entry that breaks a rule of the guard (guard.ts).
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname, resolve as resolvePath } from 'node:path';
import type { Parser, ReadEntry, Unpack } from 'tar';
import { throwIfAborted } from '../clock.js';
import { ArchiveRefusedError, MintAdminError } from '../errors.js';
import type { FileWriter } from './file-writer.js';
import { HAND_OVER_MAX_BYTES } from './file-writer.js';
import { EntryGuard } from './guard.js';
import { formatBytes } from './progress.js';

/** How much an archive may expand to: a bundle that needs more is damaged or a bomb. */
export interface ExtractionLimits {
  maxBytes: number;
  maxEntries: number;
  /** True when --max-size set maxBytes. */
  given: boolean;
}

const GB = 1_000_000_000;

/**
 * The modes of what a download makes for the site, whatever the archive says and whatever the
 * umask allows: a web root is never group or world writable (under `umask 000` a plain mkdir gave
 * 0777). A stricter umask still narrows them, as it does the files.
 */
export const SITE_DIRECTORY_MODE = 0o755;
export const SITE_FILE_MODE = 0o644;

/**
 * 50 times the download (a docs site of HTML and JSON compresses about 5-10x), at least 1 GB; entries
 * at least 100,000, or one per 10 bytes of download (a tar header alone compresses to ~30 bytes).
 */
export function extractionLimits(sizeBytes: number, maxBytes?: number): ExtractionLimits {
  return {
    maxBytes: maxBytes ?? Math.max(50 * sizeBytes, GB),
    maxEntries: Math.max(100_000, Math.ceil(sizeBytes / 10)),
    given: maxBytes !== undefined,
  };
}

// The archive breaks a rule of the guard: a class of the library's error model (src/errors.ts).
export { ArchiveRefusedError };

export interface ArchiveSummary {
  /** Regular files (hard links included), each path counted once. */
  files: number;
  /** Their total size in bytes. */
  bytes: number;
}

const READ_CHUNK = 256 * 1024;

/**
 * Not a gzip stream (by its first bytes): names what it is instead, so the message says what went wrong.
 * It ends in "run the command again", which `export download|run` replace with the download command.
 */
export class NotGzipError extends MintAdminError {
  constructor(what: string) {
    super(`the downloaded bundle is ${what}, not a tar.gz archive (gzip data starts with the bytes 1f 8b); nothing was installed; if it persists, report it to Mintlify; run the command again`);
  }
}

/**
 * Checks the archive by its first bytes, not by any name or Content-Type: a gzip stream starts with
 * 1f 8b. Anything else is refused before extraction, named as well as the bytes allow (a zip, an HTML
 * or XML error page, JSON, an empty file), since each points at a different cause.
 */
export async function checkArchiveFormat(file: string): Promise<void> {
  const handle = await open(file, 'r');
  let head: Buffer;
  try {
    // 512: one tar header, enough to tell an uncompressed tar by its `ustar` magic at offset 257.
    const buffer = Buffer.alloc(512);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return;
  throw new NotGzipError(describeBytes(head));
}

function describeBytes(head: Buffer): string {
  if (head.length === 0) return 'empty (0 bytes)';
  if (head.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1')) || head.subarray(0, 4).equals(Buffer.from('PK\x05\x06', 'latin1'))) return 'a zip archive';
  if (head.subarray(257, 262).toString('latin1') === 'ustar') return 'an uncompressed tar archive';
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) return 'an HTML page (an error page from the storage or a proxy?)';
  if (text.startsWith('<?xml') || text.startsWith('<error')) return 'an XML document (a storage error message?)';
  if (text.startsWith('{') || text.startsWith('[')) return 'JSON (an error message?)';
  if (head.subarray(0, 3).equals(Buffer.from('BZh', 'latin1'))) return 'a bzip2 stream';
  if (head.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) return 'an xz stream';
  if (head.subarray(0, 4).equals(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]))) return 'a zstd stream';
  const hex = [...head.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  return `not gzip data (it starts with the bytes ${hex})`;
}

/** One tar unpacker through the guard, and what it found: the refusal (if any) and the totals. */
interface Extraction {
  unpack: Unpack;
  refusal: () => string | undefined;
  summary: () => ArchiveSummary;
}

type Tar = typeof import('tar');

function createExtraction(tar: Tar, dir: string, limits: ExtractionLimits & { now: number }, writer?: FileWriter): Extraction {
  const guard = new EntryGuard();
  let refusal: string | undefined;
  let entries = 0;
  let bytes = 0;
  // A PAX header naming GNU.sparse.* keys makes the next entry a sparse file; tar would write its
  // sparse map as the content, so the entry is refused (see the filter).
  let sparseNext = false;
  const seen = new WeakSet<object>();
  // tar's synchronous unpacker, fed chunk by chunk: each chunk's entries are written with plain sync
  // calls (no thread-pool round trip per file system call, 2-3x faster for many small files), and
  // the event loop runs between chunks, so Ctrl-C is still seen within a chunk.
  const unpack: Unpack = tar.x({
    cwd: dir,
    sync: true,
    strict: true,
    // Ownership from the archive means nothing on the deploy host (and root would apply it).
    preserveOwner: false,
    // Directories the archive only implies (a file's parents with no entry of their own): tar's
    // default is 0777 less the umask.
    dmode: SITE_DIRECTORY_MODE,
    filter: (_path: string, entry: ReadEntry | import('node:fs').Stats) => {
      const read = entry as ReadEntry;
      seen.add(read);
      const sparse = sparseNext;
      sparseNext = false;
      if (refusal) return false;
      // From the first refusal on, nothing more is written and the rest is only read through.
      if (sparse) refusal = `entry ${JSON.stringify(read.path)} is a sparse file (PAX GNU.sparse), which mint-admin cannot extract with its real contents`;
      refusal ??= guard.check(read) ?? overLimit(read, (entries += 1), (bytes += FILE_LIKE.has(read.type) ? read.size ?? 0 : 0), limits);
      if (refusal) return false;
      normalise(read, limits.now);
      return true;
    },
  });
  // Entries tar itself skips without asking the filter: types it does not know (GNU sparse 'S',
  // volume labels, multi-volume parts...) and oversized headers. Skipping one would install a site
  // with a file missing, so each refuses the archive by name.
  unpack.on('ignoredEntry', (entry: ReadEntry) => {
    if (seen.has(entry) || refusal) return;
    const key = (entry.header as { typeKey?: string } | undefined)?.typeKey ?? '?';
    refusal = `entry ${JSON.stringify(entry.path)} ${UNKNOWN_TYPES[entry.type] ?? `is a ${entry.type} entry (tar type '${key}'), which mint-admin does not extract`}`;
  });
  unpack.on('meta', (text: string) => {
    if (/(^|\n)\d+ GNU\.sparse\./.test(text)) sparseNext = true;
  });
  skipChecksOfAFreshDirectory(unpack, dir, writer);
  dropBytesAfterTheEnd(unpack);
  return { unpack, refusal: () => refusal, summary: () => ({ files: guard.fileCount, bytes: guard.totalBytes }) };
}

/**
 * Extracts into `dir` (created here), each entry through the guard before it is written. At the
 * first refusal nothing more is written and ArchiveRefusedError names the entry; the caller removes
 * `dir`, which is never the target itself.
 */
export async function extractArchive(file: string, dir: string, signal: AbortSignal, limits: ExtractionLimits & { now: number }): Promise<ArchiveSummary> {
  throwIfAborted(signal);
  const tar = await import('tar');
  await mkdir(dir, { recursive: true, mode: SITE_DIRECTORY_MODE });
  const extraction = createExtraction(tar, dir, limits);
  await run(file, extraction.unpack, signal, extraction.refusal, dir);
  return extraction.summary();
}

/**
 * What the download hands its bytes to as they arrive (downloadBundle): this thread's LiveExtraction,
 * or the same in a worker thread (extract-thread.ts). write() never throws; a returned promise asks
 * the download to wait before the next chunk (the worker is behind). finish() gives the totals of an
 * archive extracted whole, else undefined with nothing left in the directory; stop() ends it on any
 * other way out, and removes what it wrote unless finish() succeeded.
 */
export interface LiveConsumer {
  write(chunk: Buffer, offset: number): void | Promise<void>;
  finish(total: number): Promise<ArchiveSummary | undefined>;
  stop(): Promise<void>;
}

/**
 * Extraction from the download as it arrives (downloadBundle): the same unpacker and guard as
 * extractArchive, fed the bytes of the archive in order while they also go to the work file. It
 * only ever gives a result for an archive it saw whole and in order, from byte 0, with no failure;
 * anything else (a restart from zero or a rewind after a failed write, a refusal, a broken archive,
 * a full disk) makes it stand down and remove what it wrote, and the caller extracts from the
 * complete file as before, which then says exactly what went wrong. The refused entry itself is
 * never written either way: the guard decides before tar writes.
 */
export class LiveExtraction implements LiveConsumer {
  private extraction: Extraction | undefined;
  private fed = 0;
  private failed = false;
  private discarded = false;
  private completed = false;

  private constructor(
    private readonly tar: Tar,
    private readonly dir: string,
    private readonly limits: () => (ExtractionLimits & { now: number }) | undefined,
    /** Writes the small fresh files on a thread of its own (file-writer.ts), in the extraction worker. */
    private readonly writer?: FileWriter,
  ) {}

  /** `limits` is read at the first byte (the bundle's size is known by then). */
  static async create(dir: string, limits: () => (ExtractionLimits & { now: number }) | undefined): Promise<LiveExtraction> {
    return (await LiveExtraction.loader())(dir, limits);
  }

  /** tar loaded now, and the extraction made at once later (the worker loads tar before it has work). */
  static async loader(): Promise<(dir: string, limits: () => (ExtractionLimits & { now: number }) | undefined, writer?: FileWriter) => LiveExtraction> {
    const tar = await import('tar');
    return (dir, limits, writer) => new LiveExtraction(tar, dir, limits, writer);
  }

  /**
   * The archive's bytes from `offset`, as they arrive. Never throws: a failure only stands it down.
   * The synchronous unpacker writes each chunk's entries before write() returns, so nothing queues
   * in it (measured: not one of the 7,612 writes of a 500 MB bundle returned false, and its
   * leftover buffer stayed under 512 bytes). Should a tar release ever queue instead (write()
   * returning false), the live extraction stands down rather than hold chunks in memory, and the
   * extraction from the complete file takes over.
   */
  write(chunk: Buffer, offset: number): void {
    if (this.failed) return;
    if (offset !== this.fed) this.failed = true;
    else {
      try {
        this.extraction ??= this.begin();
        const queued = this.extraction?.unpack.write(chunk) === false;
        this.fed += chunk.length;
        this.writer?.afterChunk();
        if (!this.extraction || this.extraction.refusal() || queued || this.writer?.ok === false) this.failed = true;
      } catch {
        this.failed = true;
      }
    }
    // Removed at once, not at the end: a disk filled by a half-written tree would otherwise fail
    // the rest of the download with a misleading error instead of the extraction with "disk full".
    if (this.failed) this.discard();
  }

  /**
   * Ends the extraction of an archive of `total` bytes: its totals when all of it went through
   * here and was extracted, else undefined (and nothing of it is left in `dir`).
   */
  async finish(total: number): Promise<ArchiveSummary | undefined> {
    const extraction = this.extraction;
    if (!this.failed && extraction && this.fed === total) {
      // tar emits 'close' a microtask after the last entry is written.
      const closed = new Promise<void>((resolve) => {
        extraction.unpack.once('close', resolve);
        extraction.unpack.once('error', () => resolve());
      });
      try {
        extraction.unpack.end();
        await closed;
        this.writer?.drain();
      } catch {
        this.failed = true;
      }
      if (!this.failed && !extraction.refusal() && this.writer?.ok !== false) {
        this.writer?.close();
        this.completed = true;
        return extraction.summary();
      }
    }
    this.failed = true;
    this.discard();
    return undefined;
  }

  /** False once it has stood down: nothing more it is given will be extracted. */
  get active(): boolean {
    return !this.failed;
  }

  /** Ends it wherever it is (a failure or Ctrl-C elsewhere): a tree it never completed is removed. */
  async stop(): Promise<void> {
    if (this.completed) return;
    this.failed = true;
    this.discard();
  }

  private begin(): Extraction | undefined {
    const limits = this.limits();
    if (!limits) return undefined;
    mkdirSync(this.dir, { recursive: true, mode: SITE_DIRECTORY_MODE });
    const extraction = createExtraction(this.tar, this.dir, limits, this.writer);
    extraction.unpack.on('error', () => (this.failed = true));
    return extraction;
  }

  private discard(): void {
    if (this.discarded) return;
    this.discarded = true;
    // Nothing may still be writing into the tree while it is removed.
    this.writer?.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

type TarInternals = Record<symbol, (...args: unknown[]) => unknown> & { cwd: string; dmode: number; fmode: number; umask: number; noMtime?: boolean; transform?: unknown };

/**
 * tar checks every entry against the disk as if extracting over an existing tree: for a file at
 * depth d, d mkdir calls that fail with EEXIST (each a thrown error) plus d lstat calls to walk its
 * parents, then an lstat of the entry itself. Extraction here always goes into a fresh work
 * directory (mkdtemp, 0700: nothing in it but what this archive put there), and the guard refuses
 * any entry under an earlier link entry, so for a path no earlier entry had, none of that can find
 * anything: the parent is a directory this unpacker made (or the cwd) and the entry does not exist.
 * For such entries the parent's mkdir is done once per directory and the entry is made directly;
 * a path seen before (a duplicate, a file replacing a directory...) and the first entry (tar's own
 * cwd check) take tar's full path. tar keeps these steps behind module-private symbols, found by
 * name: if a tar release renames them this returns false and extraction is merely slower (a test
 * holds it to true for the tar in the lock file).
 *
 * Given a writer (file-writer.ts), a fresh regular file small enough is written by it, on its own
 * thread, and every entry tar handles itself waits until those are on disk first, unless it is a
 * fresh directory (which no file handed over can be in the way of).
 */
export function skipChecksOfAFreshDirectory(unpack: object, dir: string, writer?: FileWriter): boolean {
  const self = unpack as unknown as TarInternals;
  const find = (name: string): symbol | undefined => {
    for (let proto = Object.getPrototypeOf(unpack) as object | null; proto; proto = Object.getPrototypeOf(proto) as object | null) {
      const key = Object.getOwnPropertySymbols(proto).find((k) => k.description === name);
      if (key) return key;
    }
    return undefined;
  };
  const [CHECKFS, MAKEFS, MKDIR, ONERROR] = ['checkFs', 'makeFs', 'mkdir', 'onError'].map(find);
  if (!CHECKFS || !MAKEFS || !MKDIR || !ONERROR || self.cwd !== resolvePath(dir)) return false;
  const checkFs = self[CHECKFS]!;
  // Written as tar would (its [FILE] step): its mode, times and no owner change; tar options that
  // would do more (a transform, ownership, no mtimes) keep every file on tar's path.
  const handOver = writer && !self.transform && !self.noMtime && !forcesOwner(self) ? writer : undefined;
  const seen = new Set<string>();
  const madeDirs = new Set<string>([self.cwd]);
  /**
   * tar's mkdir tries every level from the cwd down and catches an EEXIST (a thrown error, with its
   * stack) for each one that is there. The levels this unpacker made are known, so only the missing
   * ones are made, top down, with the mode tar would give them. False (tar's mkdir then does it, and
   * reports any error its way) when a level cannot be made so, or when tar would chmod after mkdir.
   */
  const dirMode = self.dmode | 0o700;
  const tarWouldChmod = (dirMode & self.umask) !== 0;
  const makeDirsDown = (dir: string): boolean => {
    if (tarWouldChmod) return false;
    const missing: string[] = [];
    for (let level = dir; !madeDirs.has(level); level = dirname(level)) {
      if (!level.startsWith(`${self.cwd}/`)) return false;
      missing.push(level);
    }
    try {
      for (const level of missing.reverse()) {
        mkdirSync(level, dirMode);
        madeDirs.add(level);
      }
    } catch {
      return false;
    }
    return true;
  };
  self[CHECKFS] = function (this: TarInternals, ...args: unknown[]) {
    const entry = args[0] as ReadEntry;
    const absolute = String(entry.absolute);
    // Case and Unicode form folded, so that a path a case-insensitive disk would merge is "seen".
    const key = (ASCII.test(absolute) ? absolute : absolute.normalize('NFC')).toLowerCase();
    const fresh = seen.size > 0 && !seen.has(key) && absolute !== this.cwd;
    seen.add(key);
    if (!fresh) {
      handOver?.drain();
      // tar may remove what is there (a directory replaced by a file): forget it as made.
      madeDirs.delete(absolute);
      return checkFs.call(this, entry);
    }
    const parent = dirname(absolute);
    if (!madeDirs.has(parent) && !makeDirsDown(parent)) {
      const error = this[MKDIR]!.call(this, parent, this.dmode);
      if (error) return this[ONERROR]!.call(this, error, entry);
      madeDirs.add(parent);
    }
    if (entry.type === 'Directory') madeDirs.add(absolute);
    else if (handOver && FILE_LIKE.has(entry.type) && (entry.size ?? 0) <= HAND_OVER_MAX_BYTES && handOver.wants()) {
      const file = handOver.take(absolute, typeof entry.mode === 'number' ? entry.mode & 0o7777 : this.fmode, entry.atime, entry.mtime);
      entry.on('data', file.data);
      entry.on('end', file.end);
      return;
    } else if (!FILE_LIKE.has(entry.type)) handOver?.drain();
    return this[MAKEFS]!.call(this, null, entry);
  };
  return true;
}

/**
 * After the two zero blocks that end a tar archive, tar keeps every further byte: each chunk is
 * concatenated with all the ones before it, so a gzip of zeros (an archive that ends at its first
 * block) took time quadratic in its size, and the memory of all of it, before the decompression
 * ratio could refuse it. Those bytes mean nothing (GNU tar ignores them too): from the end on, the
 * inflated chunks still pass tar's ratio check and are then dropped. tar keeps this step behind
 * module-private symbols, found by name: if a tar release renames them this returns false (a test
 * holds it to true for the tar in the lock file).
 */
export function dropBytesAfterTheEnd(unpack: object): boolean {
  const self = unpack as unknown as TarInternals;
  let consume: symbol | undefined;
  for (let proto = Object.getPrototypeOf(unpack) as object | null; proto && !consume; proto = Object.getPrototypeOf(proto) as object | null) {
    consume = Object.getOwnPropertySymbols(proto).find((k) => k.description === 'consumeChunk');
  }
  const sawEnd = Object.getOwnPropertySymbols(unpack).find((k) => k.description === 'sawEOF');
  const consumeChunk = consume && self[consume];
  if (!consume || !sawEnd || typeof consumeChunk !== 'function') return false;
  self[consume] = function (this: TarInternals, ...args: unknown[]) {
    // Without a chunk it is the end of the input, which tar still has to see.
    if (args[0] && (this as unknown as Record<symbol, unknown>)[sawEnd] === true) return;
    return consumeChunk.apply(this, args);
  };
  return true;
}

const ASCII = /^[\x00-\x7f]*$/;
/** tar chowns each file when told to (preserveOwner, uid, gid) or when it must (forceChown). */
function forcesOwner(unpack: object): boolean {
  const options = unpack as { preserveOwner?: boolean; forceChown?: boolean; uid?: number; gid?: number };
  return Boolean(options.preserveOwner || options.forceChown || options.uid !== undefined || options.gid !== undefined);
}
const FILE_LIKE = new Set(['File', 'OldFile', 'ContiguousFile']);
const UNKNOWN_TYPES: Record<string, string> = {
  SparseFile: 'is a GNU sparse file, which mint-admin cannot extract with its real contents',
  GNUDumpDir: 'is a GNU dump directory entry, which mint-admin does not extract',
  Unsupported: 'is of a tar entry type unknown to mint-admin, which it does not extract',
};

function overLimit(entry: ReadEntry, entries: number, bytes: number, limits: ExtractionLimits): string | undefined {
  const raise = limits.given ? 'raise --max-size if it is expected' : 'if that is expected, allow it with --max-size (e.g. --max-size 5GB)';
  if (bytes > limits.maxBytes) return `would make the bundle expand beyond ${formatBytes(limits.maxBytes)} (at entry ${JSON.stringify(entry.path)}); ${raise}`;
  if (entries > limits.maxEntries) return `would make the bundle hold more than ${limits.maxEntries.toLocaleString('en-US')} entries (at entry ${JSON.stringify(entry.path)})`;
  return undefined;
}

/**
 * Modes as a web root wants them whatever the archive says: files 0644 (0755 when executable),
 * directories 0755: never group or world writable, no setuid, setgid or sticky bits. An mtime in
 * the future (a wrong clock on the build host, or worse) becomes now: caches and rsync trust mtimes.
 */
function normalise(entry: ReadEntry, now: number): void {
  if (entry.type === 'Directory') entry.mode = SITE_DIRECTORY_MODE;
  else if (FILE_LIKE.has(entry.type)) entry.mode = typeof entry.mode === 'number' && (entry.mode & 0o111) !== 0 ? 0o755 : SITE_FILE_MODE;
  else if (typeof entry.mode === 'number') entry.mode &= 0o755;
  if (entry.mtime && entry.mtime.getTime() > now) entry.mtime = new Date(now);
}

/**
 * Pipes the file into the tar parser and settles when it has closed, failed or been aborted. The
 * unpacker writes each chunk's entries synchronously, so when this settles no write is on the way.
 */
function run(file: string, parser: Parser, signal: AbortSignal, refusal: () => string | undefined, dir: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const input = createReadStream(file, { highWaterMark: READ_CHUNK });
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      input.unpipe(parser as unknown as NodeJS.WritableStream);
      input.destroy();
      const refused = refusal();
      if (refused) reject(new ArchiveRefusedError(refused));
      else if (error !== undefined) reject(error instanceof MintAdminError ? error : (writeError(error, dir) ?? invalidArchive(error)));
      else resolve();
    };
    const onAbort = () => settle(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    parser.on('error', (error: unknown) => settle(error));
    parser.on('close', () => settle());
    input.on('error', (error) => settle(new MintAdminError(`cannot read the downloaded archive: ${error.message}`)));
    input.pipe(parser as unknown as NodeJS.WritableStream);
  });
}

/** A failure to write (not to read the archive), named as what it is. */
function writeError(error: unknown, dir: string): MintAdminError | undefined {
  const e = error as NodeJS.ErrnoException & { entry?: { path?: string } };
  const entry = e.entry?.path === undefined ? '' : ` (at entry ${JSON.stringify(e.entry.path)})`;
  const say = (what: string) => new MintAdminError(`${what}${entry}; nothing was installed`, { cause: error });
  switch (e.code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return say(`disk full while extracting the bundle into ${dir}: free some space and run the command again`);
    case 'ENAMETOOLONG':
      return say(`a file name in the bundle is too long for the filesystem of ${dir}`);
    case 'EACCES':
    case 'EPERM':
      return say(`permission denied while extracting the bundle into ${dir}`);
    case 'EROFS':
      return say(`${dir} is on a read-only filesystem`);
    case 'EIO':
      return say(`an I/O error while extracting the bundle into ${dir}`);
    default:
      return undefined;
  }
}

function invalidArchive(error: unknown): MintAdminError {
  const message = error instanceof Error ? error.message : String(error);
  if (/decompression ratio exceeded/.test(message)) {
    return new ArchiveRefusedError(`it expands more than 1000 times its compressed size (${message}), as only a decompression bomb does`);
  }
  return new MintAdminError(`the downloaded bundle is not a valid tar.gz archive (${message}); run the command again`, { cause: error });
}
