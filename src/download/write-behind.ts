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
// Before that, the reader makes the same calls at once through CallRunner, which also makes tar's
// small files on the writer thread (file-writer.ts): one sequence of calls per file, wherever it runs.
import { closeSync, futimesSync, mkdirSync, openSync, utimesSync, writeSync } from 'node:fs';
import { FRESH_FILE_FLAGS } from './fresh-tree.js';

const OPEN = 1;
const WRITE = 2;
const CLOSE = 3;
const MKDIR = 4;
const TIMES = 5;
/** Per call: its kind, then three numbers (see the methods of CallList). */
const FIELDS = 4;

/**
 * The file-system calls of an extraction into a fresh tree, made at once (CallRunner) or listed for
 * the writer thread (CallList). Times are in ms since the epoch, NaN for none.
 */
export interface FileCalls {
  /** Creates a file where nothing can be (O_EXCL | O_NOFOLLOW); the writes and the close that follow are its. */
  open(path: string, mode: number): void;
  /** `length` bytes of the open file, from `offset` in `chunk`. */
  write(chunk: Uint8Array, offset: number, length: number): void;
  /** Sets the open file's times when it has an mtime (atime NaN: now), as tar does, then closes it. */
  close(atime: number, mtime: number): void;
  mkdir(path: string, mode: number): void;
  /** A directory's times (atime NaN: now). */
  times(path: string, atime: number, mtime: number): void;
}

/** The calls of one chunk of the tar stream; `bytes`, the chunk itself, when a call writes from it. */
export interface CallBatch {
  kind: 'calls';
  paths: string[];
  calls: Float64Array;
  bytes: Uint8Array | undefined;
}

/** The extraction worker's side: the calls of the chunk being read, in order, for the writer thread. */
export class CallList implements FileCalls {
  private paths: string[] = [];
  private calls: number[] = [];
  private writes = 0;
  /** Files opened through the list, in all: for --debug, and the tests. */
  filesOpened = 0;

  open(path: string, mode: number): void {
    this.push(OPEN, this.paths.push(path) - 1, mode, 0);
    this.filesOpened++;
  }

  /** Only the place is listed: the chunk goes with the list (take). */
  write(_chunk: Uint8Array, offset: number, length: number): void {
    this.push(WRITE, offset, length, 0);
    this.writes++;
  }

  close(atime: number, mtime: number): void {
    this.push(CLOSE, atime, mtime, 0);
  }

  mkdir(path: string, mode: number): void {
    this.push(MKDIR, this.paths.push(path) - 1, mode, 0);
  }

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

/**
 * The calls made at once: by the reader until the writer thread starts, and on the writer thread for
 * each batch listed (run), where a file may stay open from one batch to the next. Throws at the first
 * that fails.
 */
export class CallRunner implements FileCalls {
  private fd: number | undefined;
  private path = '';

  /** Makes the listed calls in order; `stopped` is asked before each (true: the open file is closed, the rest skipped). */
  run({ paths, calls, bytes }: CallBatch, stopped: () => boolean): void {
    for (let i = 0; i < calls.length; i += FIELDS) {
      if (stopped()) return this.abandon();
      const a = calls[i + 1]!;
      const b = calls[i + 2]!;
      switch (calls[i]) {
        case OPEN:
          this.open(paths[a]!, b);
          break;
        case WRITE:
          this.write(bytes!, a, b);
          break;
        case CLOSE:
          this.close(a, b);
          break;
        case MKDIR:
          this.mkdir(paths[a]!, b);
          break;
        case TIMES:
          this.times(paths[a]!, b, calls[i + 3]!);
          break;
      }
    }
  }

  open(path: string, mode: number): void {
    this.path = path;
    this.fd = openSync(path, FRESH_FILE_FLAGS, mode);
  }

  write(chunk: Uint8Array, offset: number, length: number): void {
    for (let done = 0; done < length; ) done += writeSync(this.fd!, chunk, offset + done, length - done);
  }

  mkdir(path: string, mode: number): void {
    mkdirSync(path, mode);
  }

  times(path: string, atime: number, mtime: number): void {
    utimesSync(path, seconds(atime), mtime / 1000);
  }

  /** Closes a file left open (the writer stopped, or a call failed) at once; Node would close it only as the thread ends. */
  abandon(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) closeSync(fd);
  }

  close(atime: number, mtime: number): void {
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
