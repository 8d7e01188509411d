// The reader of plain entries' file-system calls, made on the writer thread (file-writer.ts) instead
// of its own. Why: on an archive of incompressible pages the extraction worker was the slowest of the
// download's threads, and about 0.4 s of its 0.8-1.1 s went to the kernel (open, write, futimes,
// close for each file; more on a disk than on tmpfs), where `curl | tar` has those calls in tar's
// process, beside gzip's inflation. Here the worker only reads the entries and lists the calls they
// make, in order, and the writer thread makes them.
//
// Nothing is copied for it: a write names its bytes by their place in the chunk of the tar stream
// they came in, and the chunk's buffer moves to the writer thread with the calls (a transfer, not a
// copy), which sends it back to the extraction worker, then on to the download's thread, for a later
// batch. Every call of the reader goes this way once the writer has started (the directories made,
// and their times, too), so the calls are made in exactly the order the reader would have made them.
import { closeSync, futimesSync, mkdirSync, openSync, utimesSync, writeSync } from 'node:fs';
import { FRESH_FILE_FLAGS } from './fresh-tree.js';

const OPEN = 1;
const WRITE = 2;
const CLOSE = 3;
const MKDIR = 4;
const TIMES = 5;
/** Per call: its kind, then three numbers (see the methods of CallList). */
const FIELDS = 4;

/** The calls of one chunk of the tar stream; `bytes`, the chunk itself, when a call writes from it. */
export interface CallBatch {
  kind: 'calls';
  paths: string[];
  calls: Float64Array;
  bytes: Uint8Array | undefined;
}

/** The extraction worker's side: the calls of the chunk being read, in order. Times are in ms since the epoch, NaN for none. */
export class CallList {
  private paths: string[] = [];
  private calls: number[] = [];
  private writes = 0;
  /** Files opened through the list, in all: for --debug, and the tests. */
  filesOpened = 0;

  /** Creates a file where nothing can be (O_EXCL | O_NOFOLLOW); the writes and the close that follow are its. */
  open(path: string, mode: number): void {
    this.push(OPEN, this.paths.push(path) - 1, mode, 0);
    this.filesOpened++;
  }

  /** Bytes of the open file, at `offset` in the chunk the list is taken with. */
  write(offset: number, length: number): void {
    this.push(WRITE, offset, length, 0);
    this.writes++;
  }

  /** Sets the open file's times when it has an mtime (atime NaN: now), as tar does, then closes it. */
  close(atime: number, mtime: number): void {
    this.push(CLOSE, atime, mtime, 0);
  }

  mkdir(path: string, mode: number): void {
    this.push(MKDIR, this.paths.push(path) - 1, mode, 0);
  }

  /** A directory's times (atime NaN: now). */
  times(path: string, atime: number, mtime: number): void {
    this.push(TIMES, this.paths.push(path) - 1, atime, mtime);
  }

  get empty(): boolean {
    return this.calls.length === 0;
  }

  /** The calls so far, with the chunk whose bytes they write, and an empty list for the next chunk. */
  take(chunk: Uint8Array): CallBatch {
    const batch: CallBatch = { kind: 'calls', paths: this.paths, calls: Float64Array.from(this.calls), bytes: this.writes > 0 ? chunk : undefined };
    this.paths = [];
    this.calls = [];
    this.writes = 0;
    return batch;
  }

  private push(kind: number, a: number, b: number, c: number): void {
    this.calls.push(kind, a, b, c);
  }
}

/** The writer thread's side: makes each batch's calls; a file may stay open from one batch to the next. */
export class CallRunner {
  private fd: number | undefined;
  private path = '';

  /** Makes the calls in order; `stopped` is asked before each (true: the open file is closed, the rest skipped). Throws at the first that fails. */
  run({ paths, calls, bytes }: CallBatch, stopped: () => boolean): void {
    for (let i = 0; i < calls.length; i += FIELDS) {
      if (stopped()) return this.abandon();
      const a = calls[i + 1]!;
      const b = calls[i + 2]!;
      switch (calls[i]) {
        case OPEN:
          this.path = paths[a]!;
          this.fd = openSync(this.path, FRESH_FILE_FLAGS, b);
          break;
        case WRITE:
          for (let done = 0; done < b; ) done += writeSync(this.fd!, bytes!, a + done, b - done);
          break;
        case CLOSE:
          this.close(a, b);
          break;
        case MKDIR:
          mkdirSync(paths[a]!, b);
          break;
        case TIMES:
          utimesSync(paths[a]!, seconds(b), calls[i + 3]! / 1000);
          break;
      }
    }
  }

  /** Closes a file left open (the writer stopped, or a call failed) at once; Node would close it only as the thread ends. */
  abandon(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) closeSync(fd);
  }

  private close(atime: number, mtime: number): void {
    const fd = this.fd!;
    this.fd = undefined;
    try {
      if (!Number.isNaN(mtime)) {
        try {
          futimesSync(fd, seconds(atime), mtime / 1000);
        } catch {
          utimesSync(this.path, seconds(atime), mtime / 1000);
        }
      }
    } finally {
      closeSync(fd);
    }
  }
}

/** A time of the list in seconds, as the fs calls take it; NaN is now. */
function seconds(ms: number): number {
  return (Number.isNaN(ms) ? Date.now() : ms) / 1000;
}
