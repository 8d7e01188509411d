// The live extraction in a worker thread (src/download/extract-thread.ts), driven directly with the
// bytes of real archives: the tree it leaves, how it holds the download back, and every way it
// stands down (a gap in the bytes, a refusal, broken gzip, a bomb, a crashed worker, stop()), after
// which nothing it wrote is left.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { extractionLimits, LiveExtraction, type ArchiveSummary } from '../../src/download/extract.js';
import { BootedWorker, ThreadedExtraction } from '../../src/download/extract-thread.js';
import { tempDir } from '../helpers/cli.js';
import { rawTar, rawTarGz, type RawEntry } from '../helpers/tar-evil.js';
import { EXTRACTION_WORKER, readTree } from './fixtures.js';

let root: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  root?.cleanup();
  root = undefined;
});

const limits = (size: number) => () => ({ ...extractionLimits(size), now: Date.now() });

/** Feeds `archive` in chunks of `chunk` bytes as the download would, waiting whenever asked to. */
async function feed(live: { write: (c: Buffer, o: number) => void | Promise<void> }, archive: Buffer, chunk = 64 * 1024): Promise<number> {
  let waits = 0;
  for (let at = 0; at < archive.length; at += chunk) {
    const busy = live.write(archive.subarray(at, at + chunk), at);
    if (busy) {
      waits++;
      await busy;
    }
  }
  return waits;
}

function site(files: number, bytes: number): RawEntry[] {
  const entries: RawEntry[] = [];
  for (let i = 0; i < files; i++) {
    const text = createHash('sha256').update(String(i)).digest('hex');
    entries.push({ type: 'file', path: `section-${i % 7}/page-${i}.html`, content: text.repeat(Math.ceil(bytes / text.length)).slice(0, bytes) });
  }
  return entries;
}

async function threaded(dir: string, size: number, workerFile = EXTRACTION_WORKER): Promise<ThreadedExtraction> {
  return ThreadedExtraction.start(dir, limits(size), BootedWorker.boot(workerFile));
}

describe('extraction in a worker thread', () => {
  it('leaves the same tree and totals as the extraction on the download thread', async () => {
    root = tempDir();
    const archive = rawTarGz(site(300, 5000));
    const here = await LiveExtraction.create(join(root.path, 'here'), limits(archive.length));
    await feed(here, archive);
    const expected = await here.finish(archive.length);
    const there = await threaded(join(root.path, 'there'), archive.length);
    await feed(there, archive);
    const summary = await there.finish(archive.length);
    expect(summary).toEqual<ArchiveSummary>({ files: 300, bytes: 300 * 5000 });
    expect(summary).toEqual(expected);
    expect(readTree(join(root.path, 'there'))).toEqual(readTree(join(root.path, 'here')));
    // stop() after a finished extraction leaves its tree alone (it is installed from there).
    await there.stop();
    expect(readTree(join(root.path, 'there')).size).toBe(300);
  });

  it('holds the download back while the worker is behind, and still extracts everything', async () => {
    root = tempDir();
    // 40 MB of tar from ~30 MB of gzip in one write: far more than may be in flight at once.
    const archive = rawTarGz([{ type: 'file', path: 'big.bin', content: randomBytes(30 << 20).toString('base64').slice(0, 40 << 20) }]);
    const live = await threaded(join(root.path, 'tree'), archive.length);
    const waits = await feed(live, archive, archive.length);
    expect(waits).toBe(1);
    expect(await live.finish(archive.length)).toEqual({ files: 1, bytes: 40 << 20 });
  });

  it.each<[string, (archive: Buffer) => Buffer[] | [Buffer, number][], RegExp]>([
    ['a gap in the bytes (a restart the caller did not announce)', (a) => [[a.subarray(0, 1000), 0], [a.subarray(2000), 2000]], /^the download went on from byte 2000, not 1000 /],
    ['gzip data that is broken half way', (a) => [Buffer.concat([a.subarray(0, a.length >> 1), Buffer.alloc(64, 0xff), a.subarray((a.length >> 1) + 64)])], /^the archive is not a readable tar stream \(gzip: /],
    ['an archive that stops short', (a) => [a.subarray(0, a.length - 100)], /^it saw \d+ of the archive's \d+ bytes$/],
  ])('stands down on %s and leaves nothing, saying why', async (_name, parts, why) => {
    root = tempDir();
    const archive = rawTarGz(site(50, 4000));
    const dir = join(root.path, 'tree');
    const live = await threaded(dir, archive.length);
    let total = 0;
    for (const part of parts(archive)) {
      const [bytes, offset] = Array.isArray(part) ? part : [part, total];
      await live.write(bytes, offset);
      total = offset + bytes.length;
    }
    expect(await live.finish(archive.length)).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
    expect(live.stoodDown).toMatch(why);
  });

  it.each<[string, () => Buffer, RegExp]>([
    ['at an entry the guard refuses, before writing it', () => rawTarGz([...site(20, 1000), { type: 'symlink', path: 'etc', target: '/etc' }, ...site(20, 1000)]), /^the archive is refused \(.*"etc"/],
    // 200 MB of zeros in one entry: ~200 KB of gzip.
    ["on a bomb past tar's 1000:1 ratio, without inflating it whole", () => gzipSync(rawTar([{ type: 'file', path: 'zeros', content: Buffer.alloc(200 << 20) }])), /^the archive inflates beyond tar's 1000:1 limit$/],
    // No tar at all: the worker is still answering batches when the stand-down comes.
    ['on gzip of nothing but zeros, ignoring what the worker says after', () => gzipSync(Buffer.alloc(64 << 20)), /^the archive inflates beyond tar's 1000:1 limit$/],
  ])('stands down %s, saying why', async (_name, archiveOf, why) => {
    root = tempDir();
    const archive = archiveOf();
    const dir = join(root.path, 'tree');
    const live = await threaded(dir, archive.length);
    await feed(live, archive);
    expect(await live.finish(archive.length)).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
    expect(live.stoodDown).toMatch(why);
  });

  it('stands down when the worker dies, and the download is not held', async () => {
    root = tempDir();
    const broken = join(root.path, 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('this worker fails as it loads');\n");
    const archive = rawTarGz(site(30, 1000));
    const live = await threaded(join(root.path, 'tree'), archive.length, pathToFileURL(broken));
    await feed(live, archive, 1024);
    expect(await live.finish(archive.length)).toBeUndefined();
    expect(existsSync(join(root.path, 'tree'))).toBe(false);
    expect(live.stoodDown).toMatch(/^the extraction worker (failed|ended)/);
  });

  it('gives the same tree whatever the chunks, in a few batch buffers the worker gives back', async () => {
    root = tempDir();
    // ~40 MB of tar: 40 batches or more, from network chunks that never fall on a tar block.
    const archive = rawTarGz(site(4000, 10_000));
    const here = await LiveExtraction.create(join(root.path, 'here'), limits(archive.length));
    await feed(here, archive);
    await here.finish(archive.length);
    const there = await threaded(join(root.path, 'there'), archive.length);
    await feed(there, archive, 7919);
    expect(await there.finish(archive.length)).toEqual({ files: 4000, bytes: 4000 * 10_000 });
    expect(readTree(join(root.path, 'there'))).toEqual(readTree(join(root.path, 'here')));
    // At most what may be unanswered at once (8 MB in 1 MB batches), not one per batch.
    expect(there.buffersAllocated).toBeGreaterThan(0);
    expect(there.buffersAllocated).toBeLessThanOrEqual(10);
  });

  it('stands down at once with a worker that ended before a download took it', async () => {
    root = tempDir();
    const broken = join(root.path, 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('this worker fails as it loads');\n");
    const booted = BootedWorker.boot(pathToFileURL(broken));
    await booted.ended;
    const archive = rawTarGz(site(30, 1000));
    const dir = join(root.path, 'tree');
    const live = await ThreadedExtraction.start(dir, limits(archive.length), booted);
    await feed(live, archive, 1024);
    expect(await live.finish(archive.length)).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
  });

  it('end() ends a worker no download took', async () => {
    const booted = BootedWorker.boot(EXTRACTION_WORKER);
    await booted.end();
    await booted.ended;
    await expect(booted.take()).rejects.toThrow('already used');
  });

  it('a worker booted for a download that never came does not keep the process alive', () => {
    root = tempDir();
    // A script file: under `node -e` the process ends even with a worker that holds it.
    const script = join(root.path, 'boot-only.mjs');
    const module = new URL('../../dist/download/extract-thread.js', import.meta.url).href;
    writeFileSync(script, `import { BootedWorker } from ${JSON.stringify(module)};\nBootedWorker.boot(new URL(${JSON.stringify(EXTRACTION_WORKER.href)}));\nconsole.log('booted');\n`);
    const child = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 20_000 });
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
    expect(child.stdout).toBe('booted\n');
  });

  it('stop() half way ends the worker and removes what it wrote; later bytes are ignored', async () => {
    root = tempDir();
    const archive = rawTarGz(site(400, 4000));
    const dir = join(root.path, 'tree');
    const live = await threaded(dir, archive.length);
    const half = archive.length >> 1;
    await live.write(archive.subarray(0, half), 0);
    await live.stop();
    expect(existsSync(dir)).toBe(false);
    expect(live.write(archive.subarray(half), half)).toBeUndefined();
    expect(await live.finish(archive.length)).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
  });
});
