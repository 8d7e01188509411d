// The archive's bytes to the tree: inflated by zlib, read (tar-reader.ts), each entry through the guard and the limits,
// then written (tree-writer.ts). Inflated bytes are counted as zlib emits them, so a bomb is refused within one
// output chunk past the ratio; after the archive's end they are only counted.
// zlib inflates on the thread pool: each output chunk is read and written in a turn of its own (setImmediate), so
// zlib inflates the next meanwhile; past MAX_QUEUED waiting bytes zlib is paused, so memory stays flat.
import { createGunzip, type Gunzip } from 'node:zlib';
import { ArchiveRefusedError, MintAdminError, RUN_AGAIN } from '../errors.js';
import { formatBytes } from '../output/progress.js';
import { EntryGuard, pathKey } from './guard.js';
import type { ArchiveSummary, ExtractionLimits } from './limits.js';
import { FILE_TYPES, TarReader, type TarEntry } from './tar-reader.js';
import { TreeWriter } from './tree-writer.js';

/** No docs bundle expands more than this many times; gzip itself cannot go much past it. */
export const MAX_RATIO = 1000;
/** Below this much inflated, the ratio is not judged (the first bytes of any stream expand a lot). */
const RATIO_FLOOR = 1 << 20;
/** zlib's output chunk: the unit the reader, the writer and the bomb count work in. */
const INFLATE_CHUNK = 256 * 1024;
const MAX_QUEUED = 4 * INFLATE_CHUNK;

// One extraction into `dir`, fed the gzip stream with write(), then finish(). Every failure is a MintAdminError (a
// refusal, a failure to write, not a tar.gz); after one nothing more is written and the caller removes `dir`.
export class Extraction {
  private readonly gunzip: Gunzip;
  private readonly reader: TarReader;
  private readonly guard = new EntryGuard();
  private readonly writer: TreeWriter;
  private failure: MintAdminError | undefined;
  private waiting: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  private inflated = 0;
  /** Inflated chunks not read yet, their bytes, and whether a turn to read them is scheduled. */
  private queue: Buffer[] = [];
  private queued = 0;
  private scheduled = false;
  private entries = 0;
  private bytes = 0;

  constructor(
    private readonly dir: string,
    private readonly limits: ExtractionLimits & { now: number },
  ) {
    this.writer = new TreeWriter(dir, limits.now);
    this.reader = new TarReader({
      entry: (entry) => this.entry(entry),
      body: (chunk) => this.writer.body(chunk),
      end: () => this.writer.end(),
    });
    this.gunzip = createGunzip({ chunkSize: INFLATE_CHUNK });
    this.gunzip.on('data', (chunk: Buffer) => this.inflate(chunk));
    this.gunzip.on('error', (error) => this.fail(invalidArchive(error)));
  }

  /** The next bytes; past MAX_QUEUED of input not inflated yet, a promise of zlib's 'drain' (or the failure). */
  write(chunk: Buffer): Promise<void> | undefined {
    if (this.failure) throw this.failure;
    this.gunzip.write(chunk);
    if (this.gunzip.writableLength <= MAX_QUEUED) return undefined;
    return new Promise<void>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.gunzip.once('drain', () => this.settle());
    });
  }

  /** The end of the gzip stream: the totals of a complete archive, extracted whole. */
  async finish(): Promise<ArchiveSummary> {
    if (!this.failure) {
      await new Promise<void>((resolve) => {
        this.waiting = { resolve, reject: () => resolve() };
        // The output may have ended already: zlib ends it at the end of the gzip data when zero padding follows.
        if (this.gunzip.readableEnded) this.settle();
        else this.gunzip.once('end', () => this.settle());
        this.gunzip.end(); // 'end' comes once the output is read, which the 'data' listener does.
      });
    }
    this.drain();
    if (this.failure) throw this.failure;
    this.step(() => {
      this.reader.finish();
      this.writer.finish();
    });
    if (this.failure) throw this.failure;
    return { files: this.guard.fileCount, bytes: this.guard.totalBytes };
  }

  /** Stops where it is (a failure elsewhere, Ctrl-C): nothing more is written. */
  abandon(): void {
    this.fail(new MintAdminError('the extraction was stopped'));
  }

  private settle(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (this.failure) waiting?.reject(this.failure);
    else waiting?.resolve();
  }

  private fail(error: MintAdminError): void {
    if (this.failure) return;
    this.failure = error;
    this.writer.abandon();
    this.gunzip.destroy();
    this.settle();
  }

  /** Runs a step of the reader or the writer, its failure named. */
  private step(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.fail(error instanceof MintAdminError ? error : (writeError(error, this.dir) ?? invalidArchive(error)));
    }
  }

  private inflate(chunk: Buffer): void {
    if (this.failure) return;
    this.inflated += chunk.length;
    const compressed = this.gunzip.bytesWritten;
    if (this.inflated > RATIO_FLOOR && this.inflated > MAX_RATIO * compressed) {
      const what = `${formatBytes(this.inflated)} from ${formatBytes(compressed)}`;
      const bomb = `it expands more than ${MAX_RATIO} times its compressed size (${what}), as only a decompression bomb does`;
      this.fail(new ArchiveRefusedError(bomb));
      return;
    }
    if (this.reader.ended) return;
    this.queue.push(chunk);
    this.queued += chunk.length;
    if (this.queued > MAX_QUEUED) this.gunzip.pause();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  /** Reads and writes the inflated chunks waiting, in order; then lets zlib go on. */
  private drain(): void {
    this.scheduled = false;
    for (let chunk = this.queue.shift(); chunk && !this.failure; chunk = this.queue.shift()) {
      this.queued -= chunk.length;
      const next = chunk;
      if (!this.reader.ended) this.step(() => this.reader.write(next));
    }
    this.queue = [];
    this.queued = 0;
    if (this.failure) return;
    if (this.gunzip.isPaused()) this.gunzip.resume();
  }

  /** The guard, the limits, then the writer: the first entry that breaks a rule refuses the archive. */
  private entry(entry: TarEntry): void {
    const refusal = this.guard.check(entry);
    if (refusal) throw new ArchiveRefusedError(refusal);
    this.count(entry);
    this.writer.entry(entry, pathKey(entry.path), entry.type === 'Link' ? pathKey(entry.linkpath) : '');
  }

  /** Counts an admitted entry; refuses the archive once it holds more than its limits allow. */
  private count(entry: TarEntry): void {
    const { maxBytes, maxEntries, given } = this.limits;
    this.entries += 1;
    if (FILE_TYPES.has(entry.type)) this.bytes += entry.size;
    if (this.bytes > maxBytes) {
      const rule = `would make the bundle expand beyond ${formatBytes(maxBytes)} (at entry ${JSON.stringify(entry.path)})`;
      // The rule alone too: a face names its own way to allow more (the CLI's --max-size, a script's maxBytes).
      const nextStep = given
        ? 'raise the size limit if it is expected'
        : 'if that is expected, allow a larger size (such as 5 GB)';
      throw new ArchiveRefusedError(rule, { sizeLimit: maxBytes, nextStep });
    }
    if (this.entries > maxEntries)
      throw new ArchiveRefusedError(
        `would make the bundle hold more than ${maxEntries.toLocaleString('en-US')} entries (at entry ${JSON.stringify(entry.path)})`,
      );
  }
}

const diskFull = (dir: string) =>
  `disk full while extracting the bundle into ${dir}: free some space and run the command again`;
const denied = (dir: string) => `permission denied while extracting the bundle into ${dir}`;
const moved = (dir: string) => `${dir} was moved or removed while the bundle was extracted into it`;
/** Failures to write (the reader's have no code) by their code, named as what they are; any other code as itself. */
const WRITE_ERRORS = new Map<string, (dir: string) => string>([
  ['ENOSPC', diskFull],
  ['EDQUOT', diskFull],
  ['ENAMETOOLONG', (dir) => `a file name in the bundle is too long for the filesystem of ${dir}`],
  ['EACCES', denied],
  ['EPERM', denied],
  ['EROFS', (dir) => `${dir} is on a read-only filesystem`],
  ['EIO', (dir) => `an I/O error while extracting the bundle into ${dir}`],
  // The work directory is made fresh and each directory in it once: a path gone missing was moved by someone else.
  ['ENOENT', moved],
  ['ENOTDIR', moved],
]);

export function writeError(error: unknown, dir: string): MintAdminError | undefined {
  const e = error as NodeJS.ErrnoException & { entry?: { path?: string } };
  if (e.code === undefined) return undefined;
  const what = WRITE_ERRORS.get(e.code)?.(dir) ?? `could not write the bundle into ${dir} (${e.message})`;
  const entry = e.entry?.path === undefined ? '' : ` (at entry ${JSON.stringify(e.entry.path)})`;
  return new MintAdminError(`${what}${entry}; nothing was installed`, { cause: error });
}

export function invalidArchive(error: unknown): MintAdminError {
  // The tar reader's or zlib's own words: the only account of what is wrong with the bytes.
  const message = error instanceof Error ? error.message : String(error);
  const problem = `the downloaded bundle is not a valid tar.gz archive (${message})`;
  return new MintAdminError(problem, { cause: error, nextStep: RUN_AGAIN });
}
