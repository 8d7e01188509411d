// Unpacks the downloaded tar.gz with the `tar` package into a work directory, refusing the whole
// archive at the first entry that breaks a rule of the guard (guard.ts).
import { createReadStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import type { Parser, ReadEntry, Unpack } from 'tar';
import { throwIfAborted } from '../clock.js';
import { CliError, EXIT_CODES } from '../errors.js';
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

/** The archive breaks a rule of the guard; names the entry. */
export class ArchiveRefusedError extends CliError {
  constructor(reason: string) {
    super(`the bundle was refused, nothing was installed: ${reason}`, EXIT_CODES.api);
  }
}

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
export class NotGzipError extends CliError {
  constructor(what: string) {
    super(`the downloaded bundle is ${what}, not a tar.gz archive (gzip data starts with the bytes 1f 8b); nothing was installed; if it persists, report it to Mintlify; run the command again`, EXIT_CODES.api);
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

/**
 * Extracts into `dir` (created here), each entry through the guard before it is written. At the
 * first refusal nothing more is written and ArchiveRefusedError names the entry; the caller removes
 * `dir`, which is never the target itself.
 */
export async function extractArchive(file: string, dir: string, signal: AbortSignal, limits: ExtractionLimits & { now: number }): Promise<ArchiveSummary> {
  throwIfAborted(signal);
  const tar = await import('tar');
  await mkdir(dir, { recursive: true });
  const guard = new EntryGuard();
  let refusal: string | undefined;
  let entries = 0;
  let bytes = 0;
  // A PAX header naming GNU.sparse.* keys makes the next entry a sparse file; tar would write its
  // sparse map as the content, so the entry is refused (see the filter).
  let sparseNext = false;
  const seen = new WeakSet<object>();
  // tar's synchronous unpacker, fed chunk by chunk from a stream: each chunk's entries are written
  // with plain sync calls (no thread-pool round trip per file system call, 2-3x faster for many small
  // files), and the event loop runs between chunks, so Ctrl-C is still seen within a chunk.
  const unpack: Unpack = tar.x({
    cwd: dir,
    sync: true,
    strict: true,
    // Ownership from the archive means nothing on the deploy host (and root would apply it).
    preserveOwner: false,
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
  await run(file, unpack, signal, () => refusal, dir);
  return { files: guard.fileCount, bytes: guard.totalBytes };
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
  if (entry.type === 'Directory') entry.mode = 0o755;
  else if (FILE_LIKE.has(entry.type)) entry.mode = typeof entry.mode === 'number' && (entry.mode & 0o111) !== 0 ? 0o755 : 0o644;
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
      else if (error !== undefined) reject(error instanceof CliError ? error : (writeError(error, dir) ?? invalidArchive(error)));
      else resolve();
    };
    const onAbort = () => settle(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    parser.on('error', (error: unknown) => settle(error));
    parser.on('close', () => settle());
    input.on('error', (error) => settle(new CliError(`cannot read the downloaded archive: ${error.message}`, EXIT_CODES.api)));
    input.pipe(parser as unknown as NodeJS.WritableStream);
  });
}

/** A failure to write (not to read the archive), named as what it is. */
function writeError(error: unknown, dir: string): CliError | undefined {
  const e = error as NodeJS.ErrnoException & { entry?: { path?: string } };
  const entry = e.entry?.path === undefined ? '' : ` (at entry ${JSON.stringify(e.entry.path)})`;
  const say = (what: string) => new CliError(`${what}${entry}; nothing was installed`, EXIT_CODES.api, { cause: error });
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

function invalidArchive(error: unknown): CliError {
  const message = error instanceof Error ? error.message : String(error);
  if (/decompression ratio exceeded/.test(message)) {
    return new ArchiveRefusedError(`it expands more than 1000 times its compressed size (${message}), as only a decompression bomb does`);
  }
  return new CliError(`the downloaded bundle is not a valid tar.gz archive (${message}); run the command again`, EXIT_CODES.api, { cause: error });
}
