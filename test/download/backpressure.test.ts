// Backpressure from the live extraction to the network: fetchBundle reads no further chunk while
// onData's promise is pending (so undici stops reading the socket instead of the chunks queueing in
// memory), the work file stays complete and byte-exact, and the time the consumer holds the reading
// is never counted by the stall watch.
import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createDispatcher } from '../../src/api/http.js';
import type { Bundle } from '../../src/api/types.js';
import { fetchBundle, type FetchBundleOptions } from '../../src/download/fetch.js';
import { FakeClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/server.js';

// Random bytes: nothing compresses or dedups them on the way.
const BODY = randomBytes(4 * 1024 * 1024);

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** A storage that writes the whole body at once (the socket buffers what the client does not read). */
async function storage(): Promise<{ getBundle: () => Promise<Bundle> }> {
  const server = await startServer({
    'GET /bundle.tar.gz': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': String(BODY.length) });
      res.end(BODY);
    },
  });
  cleanup.push(() => server.close());
  const bundle: Bundle = {
    jobId: 'se_1',
    bundleUrl: `${server.url}/bundle.tar.gz`,
    sizeBytes: BODY.length,
    expiresAt: '2026-11-22T12:15:00.000Z',
  };
  return { getBundle: async () => bundle };
}

function options(
  getBundle: () => Promise<Bundle>,
  clock: FakeClock,
  onData: FetchBundleOptions['onData'],
): FetchBundleOptions & { dir: string; file: string } {
  const dir = tempDir();
  cleanup.push(dir.cleanup);
  const dispatcher = createDispatcher({});
  cleanup.push(() => dispatcher.close());
  return {
    dir: dir.path,
    getBundle,
    file: join(dir.path, 'bundle.tar.gz'),
    dispatcher,
    clock,
    random: () => 0.5,
    signal: new AbortController().signal,
    debug: () => undefined,
    onProgress: () => undefined,
    onData,
  };
}

describe('a consumer slower than the network', () => {
  it('gets no chunk while it still works on the previous one, and the file is byte-exact', async () => {
    const { getBundle } = await storage();
    // The slow consumer does real work per chunk: an append to a file of its own.
    let busy = 0;
    let overlapping = 0;
    let calls = 0;
    let copied = 0;
    let wrongOffsets = 0;
    let copy = '';
    const opts = options(getBundle, new FakeClock(), async (chunk, offset) => {
      calls++;
      if (busy > 0) overlapping++;
      busy++;
      try {
        // (Counted, not asserted here: a rejection of onData is ignored by design.)
        if (offset !== copied) wrongOffsets++;
        await appendFile(copy, chunk);
        copied += chunk.length;
      } finally {
        busy--;
      }
    });
    copy = join(opts.dir, 'consumer-copy');
    const result = await fetchBundle(opts);
    expect(result.bytes).toBe(BODY.length);
    // Before onData's promise was awaited, chunks that had arrived were handed over while earlier
    // ones were still being written.
    expect(overlapping).toBe(0);
    expect(wrongOffsets).toBe(0);
    expect(calls).toBeGreaterThan(4);
    expect((await readFile(opts.file)).equals(BODY)).toBe(true);
    expect((await readFile(copy)).equals(BODY)).toBe(true);
  });

  it('is not taken for a stalled storage however long it holds the reading', async () => {
    const { getBundle } = await storage();
    const clock = new FakeClock();
    let release: () => void = () => undefined;
    let held = 0;
    const opts = options(getBundle, clock, (_chunk, offset) => {
      if (offset !== 0) return undefined;
      // The first chunk takes ten stall windows of the clock to go to disk: every one of them ends
      // while the socket is not being read, with (almost) nothing received.
      held++;
      return new Promise<void>((resolve) => {
        release = resolve;
        for (let i = 0; i < 10; i++) clock.advance(60_001);
        setImmediate(resolve);
      });
    });
    const result = await fetchBundle(opts);
    release();
    expect(held).toBe(1);
    expect(result.bytes).toBe(BODY.length);
    expect((await readFile(opts.file)).equals(BODY)).toBe(true);
  });
});
