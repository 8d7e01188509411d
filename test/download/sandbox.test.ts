// downloadBundle against the sandbox's API and storage origins: real presigned links, a storage that
// refuses Authorization (400) and expired links (403), and its truncation fault.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createDispatcher } from '../../src/api/http.js';
import type { Bundle } from '../../src/api/types.js';
import { downloadBundle } from '../../src/download/index.js';
import { createReporter } from '../../src/cli/io.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { FakeClock } from '../helpers/clock.js';
import { captureIO } from '../helpers/io.js';
import { call, completedExport } from '../sandbox/helpers.js';
import { readTree } from './fixtures.js';

let sandbox: Sandbox;
let jobId: string;
let expected: Map<string, string>;
beforeAll(async () => {
  sandbox = await startSandbox({ bundle: { files: 120, bytesPerFile: 2000 }, seed: 7 });
  jobId = (await completedExport(sandbox)).jobId;
  expected = new Map([...(await sandbox.bundleFiles())].map(([path, content]) => [path, content.toString('base64')]));
});
afterAll(() => sandbox.close());

let root: ReturnType<typeof tempDir>;
afterEach(() => {
  sandbox.faults.reset();
  root.cleanup();
});

async function download() {
  root = tempDir();
  const clock = new FakeClock();
  const dispatcher = createDispatcher({});
  sandbox.requests.length = 0;
  try {
    const result = await downloadBundle({
      getBundle: async () => (await call<Bundle>(sandbox, 'POST', `/v1/static-export/jobs/${jobId}/bundle`)).body,
      target: join(root.path, 'site'),
      force: false,
      dispatcher,
      clock,
      random: () => 0.5,
      signal: new AbortController().signal,
      reporter: createReporter(captureIO().io, { json: false, quiet: true, color: false }, clock),
      debug: () => undefined,
    });
    return { result, clock, storage: sandbox.requests.filter((r) => r.origin === 'storage') };
  } finally {
    await dispatcher.close();
  }
}

describe('downloading a sandbox bundle', () => {
  it('extracts exactly the files of the export, without sending the storage any credential', async () => {
    const { result, storage } = await download();
    expect(readTree(result.directory)).toEqual(expected);
    expect(result.files).toBe(120);
    expect(result.bytes).toBe([...expected.values()].reduce((sum, b64) => sum + Buffer.from(b64, 'base64').length, 0));
    expect(storage).toHaveLength(1);
    expect(storage[0]!.headers.authorization).toBeUndefined();
    expect(readdirSync(root.path)).toEqual(['site']);
  });

  it('gets past an expired link and two dropped connections', async () => {
    sandbox.faults.expireNextLinks(1);
    sandbox.faults.truncateDownloadAt(20_000, 2);
    const { result, storage, clock } = await download();
    expect(readTree(result.directory)).toEqual(expected);
    expect(storage.map((r) => r.headers.range)).toEqual([undefined, undefined, 'bytes=20000-', 'bytes=40000-']);
    expect(clock.sleeps).toHaveLength(2);
  });
});
