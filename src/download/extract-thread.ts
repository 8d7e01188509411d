// The live extraction split over two threads, as curl | tar splits it over processes: this thread
// receives the archive and inflates it, straight into the batches the worker is sent
// (batch-inflater.ts); a worker thread (extract-worker.ts)
// runs the tar unpacker and the guard on the inflated stream. On one thread the three run one after
// another and the unpacker waited for the inflation (measured on tmpfs, 10,000 files: about a fifth
// of the time is inflation, most of the rest the unpacker's per-entry work and its file writes).
//
// Same contract as the LiveExtraction it wraps (live-extraction.ts, LiveConsumer): it only ever gives a
// result for an archive it saw whole and in order, and anything unusual makes it stand down (the
// worker is ended, then what it wrote removed) so that the extraction from the file says what went
// wrong. Inflation failures and a decompression ratio beyond tar's own limit stand it down too.
import { existsSync, rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { BatchInflater } from './batch-inflater.js';
import type { ArchiveSummary, ExtractionLimits } from './limits.js';
import { LiveExtraction, STAND_DOWN, type LiveConsumer } from './live-extraction.js';
import { BootedWorker } from './booted-worker.js';
import type { FromWorker, ToWorker } from './extract-worker.js';

export { BootedWorker };

/**
 * Inflated bytes go to the worker at once while it waits for them, and otherwise in batches of up to
 * this size (one message per ~100 entries of a docs site, instead of one per network chunk).
 */
const BATCH_BYTES = 1 << 20;
/**
 * Batches hold whole tar blocks (the tail waits for the next batch): tar then never keeps part of a
 * batch for its next write (it keeps a tail shorter than a block and copies it and the whole next
 * batch into a new buffer), so the worker can give each batch's buffer back for the next one.
 */
const TAR_BLOCK = 512;
/** Inflated bytes the worker may have unanswered before the download waits: memory stays flat. */
const MAX_IN_FLIGHT_BYTES = 8 << 20;
/** tar's own default (Parser maxDecompressionRatio): beyond it the extraction from the file refuses the archive by name. */
const MAX_DECOMPRESSION_RATIO = 1000;

type Limits = () => (ExtractionLimits & { now: number }) | undefined;

/**
 * The worker's script beside this module, as each build names it: dist/cli/extract-worker.cjs
 * beside the CLI's bundle, extract-worker.js beside the library and the development build. Run from
 * the TypeScript sources (the unit tests) there is none, and extraction stays on this thread.
 */
export function extractionWorkerFile(): URL | undefined {
  for (const name of ['extract-worker.cjs', 'extract-worker.js']) {
    const url = new URL(`./${name}`, import.meta.url);
    if (existsSync(url)) return url;
  }
  return undefined;
}

/** A live extraction in the worker given (see BootedWorker), else on this thread. */
export async function startLiveExtraction(dir: string, limits: Limits, worker: BootedWorker | undefined): Promise<LiveConsumer> {
  return worker ? ThreadedExtraction.start(dir, limits, worker) : LiveExtraction.create(dir, limits);
}

export class ThreadedExtraction implements LiveConsumer {
  /** Archive bytes taken, in order from byte 0. */
  private fed = 0;
  /** Tar bytes inflated into batch buffers; those not yet sent wait in the inflater's. */
  private readonly inflater: BatchInflater;
  private sent = 0;
  private answered = 0;
  /**
   * Batch buffers the worker gave back, inflated into again for the next batches: a fresh buffer
   * costs a page fault every 4 KB (profiled, 10,000 files: 154 ms building batches in new buffers,
   * 54 ms refilling these).
   */
  private spare: ArrayBuffer[] = [];
  /** Batch buffers allocated: a handful for a whole download, as they are recycled. */
  private allocated = 0;
  /** The worker told its directory and limits (with the first bytes). */
  private begun = false;
  private failed = false;
  private why: string | undefined;
  private completed = false;
  private heardDone = false;
  private readDirectly = 0;
  private writtenBehind = 0;
  /** The worker ended and its directory removed, once standing down began. */
  private ended: Promise<void> | undefined;
  private settle: (summary: ArchiveSummary | undefined) => void = () => undefined;
  private readonly outcome = new Promise<ArchiveSummary | undefined>((resolve) => (this.settle = resolve));
  private resume: (() => void) | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly dir: string,
    private readonly limits: Limits,
  ) {
    worker.on('message', (message: FromWorker) => this.heard(message));
    worker.on('error', (error: Error) => this.standDown(`the extraction worker failed (${error.message})`));
    // It exits by itself after 'done'; before that, an exit is a crash.
    worker.on('exit', (code) => (this.heardDone ? undefined : this.standDown(`the extraction worker ended early (exit code ${code})`)));
    this.inflater = new BatchInflater(
      () => this.batchBuffer(),
      (batch) => this.sendFull(batch),
    );
  }

  /** An extraction into `dir` in the worker, which may still be booting: what it is sent waits for it. */
  static async start(dir: string, limits: Limits, booted: BootedWorker): Promise<ThreadedExtraction> {
    // Nothing but microtasks from here to the listeners the constructor adds: an exit cannot slip between.
    const { worker, exited } = await booted.take();
    const extraction = new ThreadedExtraction(worker, dir, limits);
    if (exited) extraction.standDown('the extraction worker ended before the download began');
    return extraction;
  }

  write(chunk: Buffer, offset: number): void | Promise<void> {
    if (this.failed) return;
    if (offset !== this.fed) return this.standDown(STAND_DOWN.gap(offset, this.fed));
    if (!this.begun) {
      const limits = this.limits();
      if (!limits) return this.standDown(STAND_DOWN.refused('no limits for it yet'));
      this.post({ kind: 'begin', dir: this.dir, limits });
      this.begun = true;
    }
    this.fed += chunk.length;
    try {
      this.inflater.write(chunk);
    } catch (error) {
      return this.standDown(STAND_DOWN.broken(`gzip: ${error instanceof Error ? error.message : String(error)}`));
    }
    if (this.failed) return;
    if (this.sent === this.answered) this.sendWaiting();
    if (this.sent - this.answered <= MAX_IN_FLIGHT_BYTES) return;
    return new Promise<void>((resolve) => (this.resume = resolve));
  }

  async finish(total: number): Promise<ArchiveSummary | undefined> {
    if (!this.failed && this.begun && this.fed === total) {
      try {
        this.inflater.end();
      } catch (error) {
        this.standDown(STAND_DOWN.broken(`gzip: ${error instanceof Error ? error.message : String(error)}`));
      }
      if (!this.failed) {
        this.sendWaiting(true);
        this.post({ kind: 'end', total: this.inflater.inflated });
      }
      const summary = await this.outcome;
      if (summary && !this.failed) {
        this.completed = true;
        await this.worker.terminate();
        return summary;
      }
    }
    this.standDown(STAND_DOWN.short(this.fed, total));
    await this.ended;
    return undefined;
  }

  async stop(): Promise<void> {
    if (this.completed) return;
    this.standDown(STAND_DOWN.stopped);
    await this.ended;
  }

  get stoodDown(): string | undefined {
    return this.failed ? this.why : undefined;
  }

  get entriesReadDirectly(): number {
    return this.readDirectly;
  }

  get filesWrittenBehind(): number {
    return this.writtenBehind;
  }

  /** Batch buffers allocated so far (the rest were buffers the worker gave back). */
  get buffersAllocated(): number {
    return this.allocated;
  }

  /** A batch the inflater filled (whole blocks: BATCH_BYTES is a multiple of them); false stops the inflation. */
  private sendFull(batch: Uint8Array): boolean {
    if (this.failed) return false;
    if (this.inflater.inflated / this.fed > MAX_DECOMPRESSION_RATIO) {
      this.standDown(`the archive inflates beyond tar's ${MAX_DECOMPRESSION_RATIO}:1 limit`);
      return false;
    }
    this.send(batch);
    return true;
  }

  /** What is inflated so far, in whole tar blocks (everything, at the end), sent before its buffer is full. */
  private sendWaiting(last = false): void {
    if (this.failed) return;
    const pending = this.inflater.pending;
    const length = last ? pending : pending - (pending % TAR_BLOCK);
    if (length > 0) this.send(this.inflater.take(length));
  }

  /** Moves a batch's buffer to the worker rather than copying it. */
  private send(data: Uint8Array): void {
    const offset = this.sent;
    this.sent += data.length;
    this.post({ kind: 'chunk', data, offset }, [data.buffer as ArrayBuffer]);
  }

  private batchBuffer(): Uint8Array {
    const spare = this.spare.pop();
    if (spare) return new Uint8Array(spare);
    this.allocated++;
    return new Uint8Array(new ArrayBuffer(BATCH_BYTES));
  }

  private heard(message: FromWorker): void {
    // Once stood down the worker is being ended, but what it said before that still arrives: its
    // acks would send batches that are gone, and nothing it says counts now.
    if (this.failed) return;
    switch (message.kind) {
      case 'ack':
        this.answered += message.bytes;
        if (message.buffer.byteLength === BATCH_BYTES) this.spare.push(message.buffer);
        if (this.sent === this.answered) this.sendWaiting();
        if (this.sent - this.answered <= MAX_IN_FLIGHT_BYTES / 2) this.wake();
        return;
      case 'failed':
        return this.standDown(message.reason);
      case 'done':
        this.heardDone = true;
        this.readDirectly = message.readDirectly;
        this.writtenBehind = message.writtenBehind;
        if (!message.summary) this.why ??= message.reason;
        return this.settle(message.summary);
    }
  }

  private post(message: ToWorker, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(message, transfer);
  }

  private wake(): void {
    const resume = this.resume;
    this.resume = undefined;
    resume?.();
  }

  /** Ends the worker, then removes what it wrote (never while it may still be writing); the first reason is kept. */
  private standDown(why: string): void {
    this.why ??= why;
    if (this.failed) return;
    this.failed = true;
    this.wake();
    this.settle(undefined);
    this.ended = this.worker.terminate().then(
      () => removeQuietly(this.dir),
      () => removeQuietly(this.dir),
    );
  }
}

/** The caller removes the whole work directory on its way out anyway; a failure here only delays that. */
function removeQuietly(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // left for downloadBundle's removal of the work directory
  }
}
