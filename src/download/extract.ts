// Unpacks the downloaded tar.gz with the `tar` package into a work directory, refusing the whole
// archive at the first entry that breaks a rule of the guard (guard.ts).
import { createReadStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import type { Parser, ReadEntry, Unpack } from 'tar';
import { throwIfAborted } from '../clock.js';
import { CliError, EXIT_CODES } from '../errors.js';
import { EntryGuard } from './guard.js';

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

/** Not a gzip stream (by its first bytes): names what it is instead, so the message says what went wrong. */
export class NotGzipError extends CliError {
  constructor(what: string) {
    super(`the downloaded bundle is ${what}, not a tar.gz archive (gzip data starts with the bytes 1f 8b); nothing was installed; run the command again, and report it to Mintlify if it persists`, EXIT_CODES.api);
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
export async function extractArchive(file: string, dir: string, signal: AbortSignal): Promise<ArchiveSummary> {
  throwIfAborted(signal);
  const tar = await import('tar');
  await mkdir(dir, { recursive: true });
  const guard = new EntryGuard();
  let refusal: string | undefined;
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
      // From the first refusal on, nothing more is written and the rest is only read through.
      refusal ??= guard.check(read);
      if (refusal) return false;
      // No setuid, setgid or sticky bits from a downloaded archive.
      if (typeof read.mode === 'number') read.mode &= 0o777;
      return true;
    },
  });
  await run(file, unpack, signal, () => refusal);
  return { files: guard.fileCount, bytes: guard.totalBytes };
}

/**
 * Pipes the file into the tar parser and settles when it has closed, failed or been aborted. The
 * unpacker writes each chunk's entries synchronously, so when this settles no write is on the way.
 */
function run(file: string, parser: Parser, signal: AbortSignal, refusal: () => string | undefined): Promise<void> {
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
      else if (error !== undefined) reject(error instanceof CliError ? error : invalidArchive(error));
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

function invalidArchive(error: unknown): CliError {
  const message = error instanceof Error ? error.message : String(error);
  return new CliError(`the downloaded bundle is not a valid tar.gz archive (${message}); run the command again`, EXIT_CODES.api, { cause: error });
}
