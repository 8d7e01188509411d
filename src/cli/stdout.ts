// stdout without Node's streams until something needs them. No imports beyond node:fs: the entry
// (main.ts) prints --help with it, and that path must stay close to bare Node start-up.
import { writeSync } from 'node:fs';

/**
 * stdout for a run that may only print a line or two (`--help`, `config path`): plain writes go
 * straight to fd 1 with writeSync, which is what process.stdout does for files and pipes on Linux, without
 * loading Node's streams (a cost every start-up would pay). Anything more (a pipeline, 'drain', end()), a full
 * non-blocking pipe (EAGAIN) or a failed write hands stdout over to process.stdout for good, so
 * writes never overtake each other and errors surface as they always did; EPIPE (a reader that left)
 * calls `onReaderGone`.
 */
export function lazyStdout(onReaderGone: () => void): { stream: NodeJS.WritableStream; flush(): Promise<void> } {
  let real: NodeJS.WriteStream | undefined;
  const stream = (): NodeJS.WriteStream => {
    if (real) return real;
    real = process.stdout;
    real.on('error', (error: NodeJS.ErrnoException) => {
      // `mint-admin ... | head`: the reader has what it wanted, which is success, not an error (main.ts
      // exits 0: only the entry decides how the process ends).
      if (error.code === 'EPIPE') onReaderGone();
      else throw error;
    });
    return real;
  };
  const write = (
    chunk: string | Uint8Array,
    encoding?: BufferEncoding | ((error?: Error | null) => void),
    callback?: (error?: Error | null) => void,
  ): boolean => {
    const done = typeof encoding === 'function' ? encoding : callback;
    const bytes =
      typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : chunk;
    if (real) return real.write(bytes, done);
    let offset = 0;
    try {
      while (offset < bytes.length) offset += writeSync(1, bytes, offset);
    } catch {
      return stream().write(bytes.subarray(offset), done);
    }
    if (done) process.nextTick(done);
    return true;
  };
  const proxy = new Proxy({} as NodeJS.WritableStream, {
    get: (_, name) => {
      if (name === 'write' && !real) return write;
      const value: unknown = Reflect.get(stream(), name);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(real) : value;
    },
    set: (_, name, value) => Reflect.set(stream(), name, value),
    has: (_, name) => Reflect.has(stream(), name),
  });
  const flush = () => (real ? new Promise<void>((resolve) => real!.write('', () => resolve())) : Promise.resolve());
  return { stream: proxy, flush };
}
