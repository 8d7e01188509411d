// Files written on a thread of their own while the extraction's thread parses on. Each file costs
// four system calls (open, write, futimes, close), mostly the kernel's time, and tar's JavaScript
// parses and checks each entry for about as long again, where GNU tar's C takes a fraction of that;
// on two threads the two overlap. Measured on the 2-core bench machine with a prototype, 200,000
// files of 100 B on disk: GNU tar ~8 s, tar's unpacker alone ~14 s, parsing there and writing here
// ~10 s.
//
// Two kinds of work come here, once an archive has had FILES_BEFORE_START files:
// - every call of the reader of plain entries (write-behind.ts), in its order, with the chunk of the
//   tar stream the files' bytes are in, moved here rather than copied;
// - from tar's unpacker (after the reader handed it the stream), only what cannot meet anything
//   else: a regular file at a path no earlier entry had, in a directory the extraction already made
//   (skipChecksOfAFreshDirectory, tar-internals.ts, decides), of at most HAND_OVER_MAX_BYTES, copied
//   into batches. Anything else waits until every file handed over is on disk (drain) before tar
//   touches the disk for it: a duplicate path, a hard link to a file written here, a directory
//   replaced by a file. The reader drains too before it hands tar the stream.
// Files are opened O_EXCL | O_NOFOLLOW: nothing can be there.
//
// The two threads share four counters (a SharedArrayBuffer): batches written, failed, stop, gone. The
// extraction's thread waits on them with Atomics.wait, so it is only ever used off the main thread
// (the extraction worker, extract-worker.ts); a failure here only makes the live extraction stand
// down, and the extraction from the complete file then says what went wrong.
import { isMainThread, Worker, type MessagePort } from 'node:worker_threads';
import { WORKER_YOUNG_GENERATION_MB } from './worker-heap.js';
import { CallList, CallRunner, type CallBatch } from './write-behind.js';

/**
 * tar's files up to this size are written here. The gain is per entry and the cost (a copy, a third thread
 * on two cores) grows with the bytes: measured on tmpfs against the same build writing nothing here,
 * 50,000 files of 100 B took 1.7-2.5 s instead of 3.5-4.1 s, 40,000 of 1.5 KB 2.1-2.4 s instead of
 * 2.4-2.9 s; 30,000 of 3 KB were no faster, and 10,000 of 10 KB slower (1.6-2.2 s against 1.4-1.7 s
 * with a 64 KB limit).
 */
export const HAND_OVER_MAX_BYTES = 2048;
/**
 * Files written on the extraction's thread before the writer starts: a worker's boot costs ~40 ms of
 * CPU, which a file handed over repays by ~35 us (measured: 50,000 files of 100 B, 1.8 s sooner), so
 * an archive with a few files never starts it.
 */
export const FILES_BEFORE_START = 1000;
/**
 * The file at which the writer's thread starts to boot: it takes ~140 ms on the two busy cores of
 * the bench machine, in which the extraction's thread gets through ~2,000 files of 5.8 KB. Booted
 * at the thousandth, the extraction waited ~70-100 ms on a full queue for it (docs/performance.md).
 */
export const FILES_BEFORE_BOOT = 100;
/** A batch is sent at this many bytes or files, or at the end of each chunk the extraction is given. */
const BATCH_BYTES = 1 << 20;
const BATCH_FILES = 4096;
/**
 * A batch buffer's size: a batch is sent once it reaches BATCH_BYTES, so it holds at most one file
 * more. The writer gives each back for a later batch: a fresh buffer costs a page fault per 4 KB.
 */
const BATCH_CAPACITY = BATCH_BYTES + HAND_OVER_MAX_BYTES;
/** Batches the writer may have unwritten before the extraction waits: memory stays flat. */
const MAX_PENDING_BATCHES = 8;
/** No batch written for this long: the writer is taken as dead, and the extraction stands down. */
const STALLED_MS = 60_000;
/** Waits are this long at most, so that a termination of the thread is never held up by one. */
const WAIT_SLICE_MS = 100;

const DONE = 0;
const FAILED = 1;
const STOP = 2;
/** Set as the writer's thread ends: one that ends while batches are unwritten failed. */
const GONE = 3;

/** Per file in a batch: mode, atime, mtime (NaN: none), length of its bytes. */
const META_FIELDS = 4;
const NO_BYTES = new Uint8Array(0);

export type ToWriter = { kind: 'batch'; paths: string[]; meta: Float64Array; bytes: Uint8Array } | CallBatch | { kind: 'end' };

/** A buffer given back: a batch's, for this writer's next batch, or a chunk's the reader's calls came with (write-behind.ts), for the download's. */
type FromWriter = { kind: 'batch' | 'chunk'; buffer: ArrayBuffer };

export interface WriterData {
  role: 'file-writer';
  state: Int32Array;
}

export function isWriterData(data: unknown): data is WriterData {
  return typeof data === 'object' && data !== null && (data as { role?: unknown }).role === 'file-writer';
}

interface PendingFile {
  path: string;
  mode: number;
  atime: number;
  mtime: number;
  chunks: Buffer[];
  length: number;
}

/** The extraction's side: takes entries from tar and sends them to the writer thread in batches. */
export class FileWriter {
  private posted = 0;
  private ready: PendingFile[] = [];
  private readyBytes = 0;
  /** The entry whose bytes are still arriving (tar gives one entry at a time). */
  private current: PendingFile | undefined;
  private dead = false;
  private closed = false;
  private spare: ArrayBuffer[] = [];
  private chunkBack: (buffer: ArrayBuffer) => void = () => undefined;
  /** Files asked about by wants(). */
  private filesSeen = 0;
  /** The reader of plain entries' calls for the chunk being read (write-behind.ts). */
  readonly calls = new CallList();
  private filesTaken = 0;
  private worker: Worker | undefined;
  private readonly state = new Int32Array(new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT));

  private constructor(private readonly file: URL) {}

  /** A writer of the script `file` (the extraction worker's own), or none on the main thread; its thread starts once wanted. */
  static start(file: URL): FileWriter | undefined {
    return isMainThread ? undefined : new FileWriter(file);
  }

  /**
   * Asked for each small fresh file tar writes, and for each file of the reader of plain entries:
   * true from the FILES_BEFORE_START + 1st on (the writer then takes the file, or the reader's
   * calls), false before and after close(). The thread boots from the FILES_BEFORE_BOOT-th, so that
   * it is up by then.
   */
  wants(): boolean {
    // Once stopped, a file taken would be sent to a thread that has been told to end.
    if (this.closed) return false;
    const seen = ++this.filesSeen;
    if (seen === FILES_BEFORE_BOOT) this.boot();
    return seen > FILES_BEFORE_START;
  }

  private boot(): void {
    const workerData: WriterData = { role: 'file-writer', state: this.state };
    const worker = new Worker(this.file, { workerData, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
    this.worker = worker;
    // The extraction's thread ends when its work is done; the writer never holds it (it is drained
    // by then, and a thread that ends takes its sub-threads with it).
    worker.unref();
    worker.on('error', () => (this.dead = true));
    worker.on('exit', () => (this.dead = true));
    worker.on('message', ({ kind, buffer }: FromWriter) => {
      if (kind === 'chunk') this.chunkBack(buffer);
      else if (buffer.byteLength === BATCH_CAPACITY) this.spare.push(buffer);
    });
  }

  /** Files given to the writer thread: tar's small ones and the reader's. */
  get filesSent(): number {
    return this.filesTaken + this.calls.filesOpened;
  }

  /** False once a write failed or the thread was lost: the extraction then stands down. */
  get ok(): boolean {
    return !this.dead && Atomics.load(this.state, FAILED) === 0;
  }

  /**
   * Takes a fresh regular file of at most HAND_OVER_MAX_BYTES; tar's entry gives its bytes to
   * `data` and then calls `end` (tar's times: `atime` else now, `mtime` else none set).
   */
  take(path: string, mode: number, atime?: Date, mtime?: Date): { data: (chunk: Buffer) => void; end: () => void } {
    this.filesTaken++;
    const file: PendingFile = { path, mode, atime: atime?.getTime() ?? Date.now(), mtime: mtime?.getTime() ?? Number.NaN, chunks: [], length: 0 };
    this.current = file;
    return {
      data: (chunk) => {
        file.chunks.push(chunk);
        file.length += chunk.length;
      },
      end: () => {
        this.current = undefined;
        this.ready.push(file);
        this.readyBytes += file.length;
        if (this.readyBytes >= BATCH_BYTES || this.ready.length >= BATCH_FILES) this.flush();
      },
    };
  }

  /**
   * After each chunk tar was given: what is complete goes to the writer, the bytes of an entry still
   * arriving are copied (the chunk's buffer is given back for the next one), and the extraction
   * waits while the writer is too far behind.
   */
  afterChunk(): void {
    this.flush();
    const current = this.current;
    if (current) current.chunks = current.chunks.map((chunk) => Buffer.from(chunk));
    this.waitFor(this.posted - MAX_PENDING_BATCHES);
  }

  /**
   * Sends the reader's calls for `chunk` (write-behind.ts), with the chunk when they write from it:
   * its buffer then moves to the writer thread (detached here), and comes back, written, to
   * whenChunkBack's callback. Dropped once the writer failed (the extraction then stands down).
   */
  sendCalls(chunk: Uint8Array): void {
    const worker = this.worker;
    if (this.calls.empty) return;
    if (!worker || !this.ok) {
      this.calls.take(NO_BYTES);
      return;
    }
    const batch = this.calls.take(chunk);
    this.flush();
    this.posted++;
    const transfer = [batch.calls.buffer as ArrayBuffer];
    if (batch.bytes) transfer.push(batch.bytes.buffer as ArrayBuffer);
    worker.postMessage(batch satisfies ToWriter, transfer);
  }

  /** `back` is given each chunk that moved here with its calls, once they are made (or skipped, after a failure or stop()). */
  whenChunkBack(back: (buffer: ArrayBuffer) => void): void {
    this.chunkBack = back;
  }

  /** Returns once every file handed over is written (or the writer failed). */
  drain(): void {
    this.flush();
    this.waitFor(this.posted);
  }

  /**
   * Stops the writer: when this returns it writes nothing more, so what it wrote can be removed.
   * Batches not yet written are skipped.
   */
  stop(): void {
    this.ready = [];
    this.readyBytes = 0;
    this.current = undefined;
    this.calls.take(NO_BYTES);
    Atomics.store(this.state, STOP, 1);
    this.waitFor(this.posted);
    this.close();
  }

  /** Lets the thread end (after drain() or stop()). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.dead) this.worker?.postMessage({ kind: 'end' } satisfies ToWriter);
  }

  /** The complete files, copied into one buffer moved to the writer. */
  private flush(): void {
    const worker = this.worker;
    if (this.ready.length === 0 || !this.ok || !worker) return;
    const files = this.ready;
    const size = this.readyBytes;
    const bytes = size <= BATCH_CAPACITY ? new Uint8Array(this.spare.pop() ?? new ArrayBuffer(BATCH_CAPACITY), 0, size) : new Uint8Array(size);
    const meta = new Float64Array(files.length * META_FIELDS);
    const paths: string[] = [];
    let at = 0;
    files.forEach((file, i) => {
      for (const chunk of file.chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      paths.push(file.path);
      meta.set([file.mode, file.atime, file.mtime, file.length], i * META_FIELDS);
    });
    this.ready = [];
    this.readyBytes = 0;
    this.posted++;
    worker.postMessage({ kind: 'batch', paths, meta, bytes } satisfies ToWriter, [bytes.buffer, meta.buffer]);
  }

  /** Blocks until `target` batches are written, the writer failed, or it stalled. */
  private waitFor(target: number): void {
    let seen = Atomics.load(this.state, DONE);
    let since = Date.now();
    while (seen < target && this.ok) {
      Atomics.wait(this.state, DONE, seen, WAIT_SLICE_MS);
      const now = Atomics.load(this.state, DONE);
      // Its 'exit' event cannot reach this thread while it waits here.
      if (now < target && Atomics.load(this.state, GONE) === 1) this.dead = true;
      else if (now !== seen) {
        seen = now;
        since = Date.now();
      } else if (Date.now() - since > STALLED_MS) {
        this.dead = true;
      }
    }
  }
}

/** The writer thread: writes each batch, counts it written, and stops at the first failure. */
export function runFileWriter(port: MessagePort, { state }: WriterData): void {
  const runner = new CallRunner();
  const stopped = () => Atomics.load(state, STOP) === 1;
  process.once('exit', () => {
    Atomics.store(state, GONE, 1);
    Atomics.notify(state, DONE);
  });
  port.on('message', (message: ToWriter) => {
    if (message.kind === 'end') {
      runner.abandon();
      return port.close();
    }
    try {
      if (Atomics.load(state, FAILED) === 0) {
        if (message.kind === 'calls') runner.run(message, stopped);
        else writeBatch(runner, message, state);
      }
    } catch {
      Atomics.store(state, FAILED, 1);
      runner.abandon();
    } finally {
      Atomics.add(state, DONE, 1);
      Atomics.notify(state, DONE);
    }
    const buffer = message.bytes?.buffer as ArrayBuffer | undefined;
    if (buffer) port.postMessage({ kind: message.kind === 'calls' ? 'chunk' : 'batch', buffer } satisfies FromWriter, [buffer]);
  });
}

/** tar's small files, each as the reader's calls make one (write-behind.ts). */
function writeBatch(runner: CallRunner, { paths, meta, bytes }: Extract<ToWriter, { kind: 'batch' }>, state: Int32Array): void {
  let at = 0;
  for (let i = 0; i < paths.length; i++) {
    if (Atomics.load(state, STOP) === 1) return;
    const [mode, atime, mtime, length] = meta.subarray(i * META_FIELDS, (i + 1) * META_FIELDS) as unknown as number[];
    runner.open(paths[i]!, mode!);
    runner.write(bytes, at, length!);
    runner.close(atime!, mtime!);
    at += length!;
  }
}
