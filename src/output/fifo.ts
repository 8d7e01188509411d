// A FIFO (mkfifo, or a shell pipe reached as /dev/stdout or bash's `>(...)`, /dev/fd/N) is opened and
// written without blocking. A blocking open waits in a libuv worker thread until a reader comes, a
// blocking write until the reader reads, and libuv joins its worker threads at exit: a run stuck
// there ignored Ctrl-C, and not even process.exit could end it. Here an open that finds no reader
// (ENXIO) and a write that finds the pipe full (EAGAIN) are tried again after a short pause, until
// the run's signal says stop. The pauses are short (1 ms, doubling to 50 ms) so a reader that keeps
// up is barely slowed.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

const LONGEST_PAUSE_MS = 50;

/** Opens a FIFO for writing once a reader has it open; `waiting` is called once if none has yet. */
export async function openFifo(
  path: string,
  signal: AbortSignal | undefined,
  waiting?: () => void,
): Promise<FileHandle> {
  for (let pause = 1; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await open(path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
    }
    if (pause === 1) waiting?.();
    await pauseUnlessAborted(pause, signal);
  }
}

/** Writes `chunk` from `at` on, waiting for room; the bytes written (at least one). */
export async function writeFifo(
  file: FileHandle,
  chunk: Buffer,
  at: number,
  signal: AbortSignal | undefined,
): Promise<number> {
  for (let pause = 1; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return (await file.write(chunk, at, chunk.length - at, null)).bytesWritten;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    }
    await pauseUnlessAborted(pause, signal);
  }
}

/** Appends `text` to a FIFO (a reader of step outputs, say), as appendFile does for a file. */
export async function appendToFifo(
  path: string,
  text: string,
  signal: AbortSignal | undefined,
  waiting?: () => void,
): Promise<void> {
  const file = await openFifo(path, signal, waiting);
  try {
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; ) at += await writeFifo(file, bytes, at, signal);
  } finally {
    await file.close();
  }
}

function pauseUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
