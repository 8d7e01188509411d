// Where data goes: stdout, or the -o file. The file is checked before any request (a typo in the
// path must not cost a rate-limited request) but only created once the first page is in, so a
// failed first request leaves an older file of that name alone. It is written in place, not via a
// temp file: if an export stops early, the rows written so far are what the resume hint builds on.
//
// Each write to the file is a whole page of whole rows (writer.ts), and the file keeps that promise
// when the disk fills: a write that fails part-way is cut back (ftruncate) to where it started, the
// failure is reported through writeChunk, and the stream stays usable, so the writer can still
// close a JSON document in the room the cut freed.
//
// A target that cannot seek (a FIFO, /dev/stdout on a pipe or a terminal, bash's `>(...)`) gets
// plain sequential writes instead: a positional write there fails with ESPIPE, and bytes a pipe has
// taken cannot be taken back. A FIFO's reader may never come or may stop reading, so a FIFO is
// written without blocking, and Ctrl-C ends the wait for its reader (fifo.ts).
import { lstat, open, rm, stat, type FileHandle } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { checkWritableFile } from './check-writable.js';
import { openFifo, writeFifo } from './fifo.js';
import { WRITE_FAILURE } from './writer.js';

export interface OutputTarget {
  /** The stream to write to; the file is created (mode 0666 less the umask) on the first call. */
  open(): Promise<NodeJS.WritableStream>;
  /** Flushes and closes the file; a no-op for stdout. */
  close(): Promise<void>;
  /** Closes the file and removes it when it is a regular file this target made or replaced; a no-op otherwise. */
  discard?(): Promise<void>;
}

/** Failed writes reject in writeChunk; this keeps the 'error' event Node also emits from crashing. */
const heard = () => undefined;

export function stdoutTarget(stdout: NodeJS.WritableStream): OutputTarget {
  return {
    async open() {
      if (!stdout.listeners('error').includes(heard)) stdout.on('error', heard);
      return stdout;
    },
    close: async () => undefined,
  };
}

/** What a FIFO's wait for its reader needs: the run's signal (Ctrl-C ends the wait) and a line for the user. */
export interface FifoWait {
  signal: AbortSignal;
  reporter: { info(message: string): void };
}

export async function fileTarget(path: string, run?: FifoWait): Promise<OutputTarget> {
  await checkWritableFile(path, `-o ${path}`);
  let stream: Writable | undefined;
  // Only a regular file at `path` itself may be removed: never a FIFO, a device or what a link names.
  let regular = false;
  const close = async () => {
    if (!stream || stream.destroyed) return;
    const closing = stream;
    await new Promise<void>((ok, fail) => {
      closing.once('error', fail);
      closing.end(() => ok());
    });
  };
  return {
    async open() {
      if (stream) return stream;
      const WholeWritesFile = await wholeWritesFileClass();
      const fifo = (await stat(path).catch(() => undefined))?.isFIFO() ?? false;
      const waiting = () => run?.reporter.info(`-o ${path}: waiting for a reader to open this FIFO (Ctrl-C stops)`);
      const file = fifo ? await openFifo(path, run?.signal, waiting) : await open(path, 'w');
      const seekable =
        !fifo &&
        (await file.stat().then(
          (s) => s.isFile(),
          () => false,
        ));
      regular = seekable && ((await lstat(path).catch(() => undefined))?.isFile() ?? false);
      return (stream = new WholeWritesFile(file, seekable ? undefined : { fifo, signal: run?.signal }));
    },
    close,
    async discard() {
      await close().catch(() => undefined);
      if (regular) await rm(path, { force: true });
    },
  };
}

/** How a target that cannot seek is written: sequentially, and a FIFO without blocking. */
interface Sequential {
  fifo: boolean;
  signal: AbortSignal | undefined;
}
type WholeWritesFileClass = new (file: FileHandle, sequential: Sequential | undefined) => Writable;

/**
 * A file stream where a failed write leaves the file as it was before that write (see the top).
 * Defined on first use: extending Writable loads Node's streams, which every command that
 * merely registers beside `searches list` would otherwise pay at start-up.
 */
let wholeWritesFile: Promise<WholeWritesFileClass> | undefined;
function wholeWritesFileClass(): Promise<WholeWritesFileClass> {
  return (wholeWritesFile ??= import('node:stream').then(({ Writable }) => {
    return class WholeWritesFile extends Writable {
      /** Bytes of whole writes: the length the file is cut back to when a write fails. */
      private committed = 0;
      [WRITE_FAILURE]: Error | undefined;

      constructor(
        private readonly file: FileHandle,
        /** Undefined for a regular file: positional writes, cut back on failure. */
        private readonly sequential: Sequential | undefined,
      ) {
        super({ decodeStrings: true });
      }

      override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
        this.writeWhole(chunk).then(() => done(), done);
      }

      private async writeWhole(chunk: Buffer): Promise<void> {
        try {
          for (let at = 0; at < chunk.length; ) at += await this.writeSome(chunk, at);
          this.committed += chunk.length;
        } catch (error) {
          if (!this.sequential) await this.file.truncate(this.committed).catch(() => undefined);
          this[WRITE_FAILURE] = error as Error;
        }
      }

      private async writeSome(chunk: Buffer, at: number): Promise<number> {
        // After Ctrl-C a FIFO still takes what it has room for (a reader gets a closed document), but
        // nothing waits for room any more.
        if (this.sequential?.fifo) return writeFifo(this.file, chunk, at, this.sequential.signal);
        const position = this.sequential ? null : this.committed + at;
        return (await this.file.write(chunk, at, chunk.length - at, position)).bytesWritten;
      }

      override _final(done: (error?: Error | null) => void): void {
        this.file.close().then(() => done(), done);
      }

      override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
        this.file.close().then(
          () => done(error),
          () => done(error),
        );
      }
    };
  }));
}
