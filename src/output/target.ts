// Where data goes: stdout, or the -o file. The file is checked before any request (a typo in the
// path must not cost a rate-limited request) but only created once the first page is in, so a
// failed first request leaves an older file of that name alone. It is written in place, not via a
// temp file: if an export stops early, the rows written so far are what the resume hint builds on.
import { constants, createWriteStream, type WriteStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

export interface OutputTarget {
  /** The stream to write to; the file is created (mode 0666 less the umask) on the first call. */
  open(): Promise<NodeJS.WritableStream>;
  /** Flushes and closes the file; a no-op for stdout. */
  close(): Promise<void>;
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

export async function fileTarget(path: string): Promise<OutputTarget> {
  await checkWritable(path);
  let stream: WriteStream | undefined;
  return {
    async open() {
      if (stream) return stream;
      const opened = createWriteStream(path);
      await new Promise<void>((ok, fail) => opened.once('open', () => ok()).once('error', fail));
      opened.on('error', heard);
      return (stream = opened);
    },
    async close() {
      if (!stream || stream.destroyed) return;
      const closing = stream;
      await new Promise<void>((ok, fail) => {
        closing.once('error', fail);
        closing.end(() => ok());
      });
    },
  };
}

async function checkWritable(path: string): Promise<void> {
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`-o ${path}: is a directory; give a file name`);
  const target = existing ? path : dirname(resolve(path));
  try {
    await access(target, constants.W_OK);
  } catch {
    throw new UsageError(
      existing ? `-o ${path}: the file is not writable` : `-o ${path}: cannot create a file in ${target} (missing or not writable)`,
    );
  }
}
