// A response body read chunk by chunk, each handled before the next, for the download (fetch.ts).
import type { Readable } from 'node:stream';

/**
 * Gives each chunk of `body` to `take` as it arrives, one at a time: while the promise `take` returns
 * is pending the body is paused, and an error of the body (a dropped connection, Ctrl-C) is only
 * acted on once it has settled, as `for await` would (a write of the file in flight then counts its
 * bytes before the resume asks for the rest). Resolves at the body's end; rejects with the body's
 * error or with what `take` threw (the body is then destroyed). Events rather than `for await`: its
 * iterator cost a promise, a microtask and a read() per network chunk on the download's busiest
 * thread (docs/performance.md, "Where the CPU goes, thread by thread").
 */
export function eachChunk(body: Readable, take: (chunk: Buffer) => Promise<void> | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let waiting = false;
    let ended = false;
    /** Why the body stopped short (its error, or a close without an end), acted on once nothing is waiting. */
    let stoppedShort: { error: unknown } | undefined;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      body.destroy();
      reject(error);
    };
    const next = () => {
      if (settled) return;
      if (stoppedShort) fail(stoppedShort.error);
      else if (ended) {
        settled = true;
        resolve();
      } else body.resume();
    };
    const onData = (chunk: Buffer) => {
      if (settled) return;
      let result: Promise<void> | undefined;
      try {
        result = take(chunk);
      } catch (error) {
        return fail(error);
      }
      if (!result) return;
      body.pause();
      waiting = true;
      result.then(() => {
        waiting = false;
        next();
      }, fail);
    };
    const stop = (error: unknown) => {
      stoppedShort ??= { error };
      if (!waiting) next();
    };
    body.on('data', onData);
    body.once('end', () => {
      ended = true;
      if (!waiting) next();
    });
    body.once('error', stop);
    // A body destroyed without an error never ends: its close says so.
    body.once('close', () => {
      if (!ended) stop(body.errored ?? new Error('the connection closed before the end of the body'));
    });
  });
}
