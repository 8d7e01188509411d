// Reading a FIFO (mkfifo, bash's `<(...)`) without a blocking open: that waits for a writer in a
// libuv worker thread the process cannot leave, so Ctrl-C and SIGTERM did nothing until a writer came
// (the same trap src/output/fifo.ts avoids for writing). Opened O_NONBLOCK the open returns at once;
// the fd is then read through a libuv pipe, which waits in epoll: Linux reports neither data nor
// hang-up before a first writer has come and gone, so "no writer yet" is a wait, not an end of input,
// and the wait ends when the signal says stop.
import { constants, open } from 'node:fs';
import { Socket } from 'node:net';
import { BoundedBytes } from './input-limit.js';

/** The whole text a FIFO's writers send, up to their end; rejects with `signal.reason` on abort, InputTooLarge past `maxBytes`. */
export function readFifo(
  path: string,
  signal: AbortSignal,
  waiting?: () => void,
  maxBytes = Infinity,
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    open(path, constants.O_RDONLY | constants.O_NONBLOCK, (error, fd) => {
      if (error) return reject(error);
      const pipe = new Socket({ fd, readable: true, writable: false });
      const into = new BoundedBytes(maxBytes);
      const onAbort = () => {
        pipe.destroy();
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      waiting?.();
      pipe.on('data', (chunk: Buffer) => {
        try {
          into.add(chunk);
        } catch (error) {
          signal.removeEventListener('abort', onAbort);
          pipe.destroy();
          reject(error);
        }
      });
      pipe.on('end', () => {
        signal.removeEventListener('abort', onAbort);
        pipe.destroy();
        resolve(into.text());
      });
      pipe.on('error', (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      });
    });
  });
}
