// eachChunk (src/download/each-chunk.ts): the download's body read chunk by chunk with events, held
// to what the `for await` loop it replaced did: one chunk at a time, the body paused while one is
// being handled, an error of the body acted on only once that chunk is done (a write of the file in
// flight must count its bytes before a resume asks for the rest), and whatever `take` throws ends it.
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/api/http.js';
import { eachChunk } from '../../src/download/each-chunk.js';
import { startServer } from '../helpers/server.js';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** Lets every callback already due run (stream events, promise reactions): no clock involved. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** The outcome of `reading`, recorded in `events` as it happens. */
function watch(reading: Promise<void>, events: string[]): Promise<void> {
  return reading.then(
    () => void events.push('resolved'),
    (error: Error) => void events.push(`rejected: ${error.message}`),
  );
}

/** eachChunk over `body` with a take that holds the first chunk until `release` is called; events: 'take', 'done', then the outcome. */
function holdingTheFirstChunk(body: Readable): { events: string[]; release: () => void; outcome: Promise<void> } {
  const events: string[] = [];
  const handling = deferred();
  const outcome = watch(
    eachChunk(body, () => {
      events.push('take');
      return handling.promise.then(() => void events.push('done'));
    }),
    events,
  );
  return { events, release: handling.resolve, outcome };
}

describe('eachChunk', () => {
  it('gives the chunks in order, one at a time, with the body paused while one is being handled', async () => {
    const body = new PassThrough();
    const events: string[] = [];
    const first = deferred();
    const outcome = watch(
      eachChunk(body, (chunk) => {
        events.push(`take ${chunk}`);
        return chunk.toString() === 'a' ? first.promise : undefined;
      }),
      events,
    );
    body.write('a');
    await turn();
    body.write('b');
    body.end('c');
    await turn();
    expect(events).toEqual(['take a']);
    expect(body.isPaused()).toBe(true);
    first.resolve();
    await outcome;
    expect(events).toEqual(['take a', 'take b', 'take c', 'resolved']);
  });

  it('ends while a chunk is being handled: resolves once that chunk is done', async () => {
    const body = new PassThrough();
    const { events, release, outcome } = holdingTheFirstChunk(body);
    body.end('only');
    await turn();
    await turn();
    expect(events).toEqual(['take']);
    release();
    await outcome;
    expect(events).toEqual(['take', 'done', 'resolved']);
  });

  it('a body that fails while a chunk is being handled: rejects with its error only after that chunk is done', async () => {
    const body = new PassThrough();
    const { events, release, outcome } = holdingTheFirstChunk(body);
    body.write('a');
    await turn();
    // (events.once would reject at the 'error' that comes first.)
    const closed = new Promise((resolve) => body.once('close', resolve));
    body.destroy(new Error('the connection dropped'));
    await closed;
    await turn();
    expect(events).toEqual(['take']);
    release();
    await outcome;
    expect(events).toEqual(['take', 'done', 'rejected: the connection dropped']);
  });

  it('a body closed without an error before its end rejects, saying so', async () => {
    const body = new PassThrough();
    const events: string[] = [];
    const outcome = watch(eachChunk(body, () => undefined), events);
    body.write('a');
    await turn();
    body.destroy();
    await outcome;
    expect(events).toEqual(['rejected: the connection closed before the end of the body']);
  });

  it.each([
    ['throws', () => {
      throw new Error('no room');
    }],
    ['returns a promise that rejects', () => Promise.reject(new Error('no room'))],
  ])('a take that %s: rejects with its error, reads no further chunk and destroys the body', async (_how, failing) => {
    const body = new PassThrough();
    const events: string[] = [];
    let takes = 0;
    const outcome = watch(
      eachChunk(body, () => {
        takes++;
        return failing();
      }),
      events,
    );
    body.write('a');
    body.write('b');
    await outcome;
    expect(events).toEqual(['rejected: no room']);
    expect(takes).toBe(1);
    expect(body.destroyed).toBe(true);
  });

  it("undici's body over loopback, the connection dropped while a chunk is being handled: the error comes after that chunk", async () => {
    let drop: () => void = () => undefined;
    const server = await startServer({
      'GET /bundle.tar.gz': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': String(1 << 20) });
        res.write(Buffer.alloc(16 * 1024, 1));
        drop = () => res.socket?.destroy();
      },
    });
    cleanup.push(() => server.close());
    const dispatcher = createDispatcher({});
    cleanup.push(() => dispatcher.close());
    const { body } = await request(`${server.url}/bundle.tar.gz`, { dispatcher });
    const events: string[] = [];
    const handling = deferred();
    let taken = 0;
    const outcome = watch(
      eachChunk(body as unknown as Readable, (chunk) => {
        taken += chunk.length;
        if (events.length > 0) return undefined;
        events.push('take');
        return handling.promise.then(() => void events.push('done'));
      }),
      events,
    );
    while (events.length === 0) await turn();
    const failed = once(body, 'error');
    drop();
    await failed;
    await turn();
    expect(events).toEqual(['take']);
    handling.resolve();
    await outcome;
    expect(events[0]).toBe('take');
    expect(events[1]).toBe('done');
    expect(events[2]).toMatch(/^rejected: /);
    expect(taken).toBeLessThanOrEqual(16 * 1024);
  });
});
