import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { completedExport, untarGz } from './helpers.js';

const START = Date.UTC(2026, 9, 1, 12, 0, 0);
let clock = START;
let sandbox: Sandbox;
let archive: Buffer;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock, searchTermCount: 10 });
  sandbox.faults.exportPollsToFinish = 1;
  const { bundleUrl } = await completedExport(sandbox);
  archive = Buffer.from(await (await fetch(bundleUrl)).arrayBuffer());
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.faults.reset();
  sandbox.faults.exportPollsToFinish = 1;
  sandbox.setBundleArchive(null);
  clock = START;
});

/** Reads a body until it ends or breaks; a cut connection shows as `error`. */
async function download(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  const chunks: Buffer[] = [];
  let error: unknown;
  try {
    for await (const chunk of res.body) chunks.push(chunk as Buffer);
  } catch (e) {
    error = e;
  }
  return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), error };
}

describe('storage origin', () => {
  it('serves a tar.gz whose files match bundleFiles() one by one, with no wrapper directory', async () => {
    const { bundleUrl, sizeBytes } = await completedExport(sandbox);
    const res = await download(bundleUrl);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    expect(res.headers['content-length']).toBe(String(sizeBytes));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.body.length).toBe(sizeBytes);

    const extracted = await untarGz(res.body);
    const expected = await sandbox.bundleFiles();
    expect([...extracted.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, content] of expected) expect(extracted.get(path)?.equals(content), path).toBe(true);
    expect(expected.has('index.html')).toBe(true);
    expect(expected.has('guides/getting-started.html')).toBe(true);
    expect(expected.has('images/logo.png')).toBe(true);
    expect([...expected.keys()].some((p) => /^_next\/static\/.+\.css$/.test(p))).toBe(true);
    expect([...expected.keys()].some((p) => /^_next\/static\/.+\.js$/.test(p))).toBe(true);
    expect(expected.size).toBe(40);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const { bundleUrl } = await completedExport(sandbox);
    const res = await request(bundleUrl, { method: 'HEAD' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(archive.length));
    expect(await res.body.text()).toBe('');
  });

  it('refuses a request that carries an Authorization header with 400, as S3 does', async () => {
    const { bundleUrl } = await completedExport(sandbox);
    const res = await download(bundleUrl, { authorization: `Bearer ${sandbox.apiKey}` });
    expect(res.status).toBe(400);
    expect(res.body.toString()).toContain('<Code>InvalidArgument</Code>');
  });

  it('refuses an expired link with 403 once the clock passes expiresAt', async () => {
    const { bundleUrl, expiresAt } = await completedExport(sandbox);
    clock = Date.parse(expiresAt) - 1;
    expect((await download(bundleUrl)).status).toBe(200);
    clock = Date.parse(expiresAt);
    const res = await download(bundleUrl);
    expect(res.status).toBe(403);
    expect(res.body.toString()).toContain('Request has expired');
  });

  it('hands out already-expired links with expireNextLinks', async () => {
    sandbox.faults.expireNextLinks(1);
    expect((await download((await completedExport(sandbox)).bundleUrl)).status).toBe(403);
    expect((await download((await completedExport(sandbox)).bundleUrl)).status).toBe(200);
  });

  it.each([
    ['an edited signature', (u: URL) => u.searchParams.set('X-Amz-Signature', '0'.repeat(64))],
    ['a lengthened expiry', (u: URL) => u.searchParams.set('X-Amz-Expires', '604800')],
    [
      'another job id',
      (u: URL) => {
        u.pathname = '/se_0000000000000000/bundle.tar.gz';
      },
    ],
    ['no signature', (u: URL) => u.searchParams.delete('X-Amz-Signature')],
  ])('refuses %s with 403', async (_name, edit) => {
    const url = new URL((await completedExport(sandbox)).bundleUrl);
    edit(url);
    const res = await download(url.toString());
    expect(res.status).toBe(403);
    expect(res.body.toString()).toContain('SignatureDoesNotMatch');
  });

  it('resumes with Range: bytes=N- as 206 with Content-Range and the right bytes', async () => {
    const { bundleUrl } = await completedExport(sandbox);
    const offset = 1234;
    const res = await download(bundleUrl, { range: `bytes=${offset}-` });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${offset}-${archive.length - 1}/${archive.length}`);
    expect(res.headers['content-length']).toBe(String(archive.length - offset));
    expect(res.body.equals(archive.subarray(offset))).toBe(true);
  });

  it('serves a closed range and answers 416 past the end', async () => {
    const { bundleUrl } = await completedExport(sandbox);
    const closed = await download(bundleUrl, { range: 'bytes=10-19' });
    expect(closed.status).toBe(206);
    expect(closed.body.equals(archive.subarray(10, 20))).toBe(true);
    const past = await download(bundleUrl, { range: `bytes=${archive.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${archive.length}`);
  });

  it('truncateDownloadAt sends the full Content-Length, then cuts after exactly that many bytes, once', async () => {
    const { bundleUrl } = await completedExport(sandbox);
    sandbox.faults.truncateDownloadAt(5000);
    const cut = await download(bundleUrl);
    expect(cut.status).toBe(200);
    expect(cut.headers['content-length']).toBe(String(archive.length));
    expect(cut.body.length).toBe(5000);
    expect(cut.error).toBeDefined();
    expect(cut.body.equals(archive.subarray(0, 5000))).toBe(true);

    // The resume the CLI would do next gets the rest, and the cut does not repeat.
    const rest = await download(bundleUrl, { range: 'bytes=5000-' });
    expect(rest.error).toBeUndefined();
    expect(Buffer.concat([cut.body, rest.body]).equals(archive)).toBe(true);
  });

  it('truncateDownloadAt with times cuts that many downloads', async () => {
    const { bundleUrl } = await completedExport(sandbox);
    sandbox.faults.truncateDownloadAt(100, 2);
    expect((await download(bundleUrl)).body.length).toBe(100);
    expect((await download(bundleUrl)).body.length).toBe(100);
    expect((await download(bundleUrl)).body.length).toBe(archive.length);
  });

  it('throttleBytesPerSecond slows the download down', async () => {
    const { bundleUrl } = await completedExport(sandbox);
    sandbox.faults.throttleBytesPerSecond = archive.length * 5; // about 200 ms for the whole archive
    const started = performance.now();
    const res = await download(bundleUrl);
    expect(res.body.equals(archive)).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('serves the exact bytes given to setBundleArchive, and reports their size', async () => {
    const custom = gzipSync(Buffer.from('not really a tar'));
    sandbox.setBundleArchive(custom);
    const { bundleUrl, sizeBytes } = await completedExport(sandbox);
    expect(sizeBytes).toBe(custom.length);
    expect((await download(bundleUrl)).body.equals(custom)).toBe(true);
    sandbox.setBundleArchive(null);
    expect((await download(bundleUrl)).body.equals(archive)).toBe(true);
  });

  it('records storage requests in order with the API ones', async () => {
    const before = sandbox.requests.length;
    const { bundleUrl } = await completedExport(sandbox);
    await download(bundleUrl);
    const origins = sandbox.requests.slice(before).map((r) => `${r.origin} ${r.method}`);
    expect(origins.at(-1)).toBe('storage GET');
    expect(origins.slice(0, -1).every((o) => o.startsWith('api '))).toBe(true);
  });
});

describe('generated bundle', () => {
  it('is deterministic from the seed and sized by the BundleSpec', async () => {
    const spec = { files: 120, bytesPerFile: 20_000 };
    const [a, b, c] = await Promise.all([
      startSandbox({ seed: 7, bundle: spec, searchTermCount: 1 }),
      startSandbox({ seed: 7, bundle: spec, searchTermCount: 1 }),
      startSandbox({ seed: 8, bundle: spec, searchTermCount: 1 }),
    ]);
    try {
      const [fa, fb, fc] = await Promise.all([a.bundleFiles(), b.bundleFiles(), c.bundleFiles()]);
      expect(fa.size).toBe(120);
      expect(fa.get('index.html')?.equals(fb.get('index.html')!)).toBe(true);
      expect(fa.get('index.html')?.equals(fc.get('index.html')!)).toBe(false);
      const total = [...fa.values()].reduce((sum, f) => sum + f.length, 0);
      expect(total).toBeGreaterThan(120 * 20_000 * 0.95);
      expect(total).toBeLessThan(120 * 20_000 * 1.05);

      for (const s of [a, b]) s.faults.exportPollsToFinish = 1;
      const [ba, bb] = await Promise.all([completedExport(a), completedExport(b)]);
      expect(ba.sizeBytes).toBe(bb.sizeBytes);
      // Half of every file is random data, so the archive stays a sizeable fraction of the site.
      expect(ba.sizeBytes).toBeGreaterThan(total * 0.4);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});
