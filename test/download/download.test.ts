import { describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CliError, TargetRefusedError, InterruptedError, NetworkError } from '../../src/errors.js';
import { sequence, type Handler } from '../helpers/server.js';
import { cutAfter, ignoreRange, serveArchive, shortBody, stallAfter, storageError } from '../helpers/storage.js';
import { readTree, SIGNATURE, useHarness, useSampleArchive, type Harness } from './fixtures.js';
import { exitCodeOf } from '../../src/cli/cli-errors.js';

const sample = useSampleArchive();
const perTest = useHarness();
let target: string;
let h: Harness | undefined;

async function setup(storage: Handler, extra: { sizeBytes?: () => number } = {}): Promise<Harness> {
  target = join(perTest.root, 'site');
  h = await perTest.start({ storage, archive: () => sample.archive, target, ...extra });
  return h;
}

async function caught(promise: Promise<unknown>): Promise<CliError> {
  try {
    await promise;
  } catch (error) {
    return error as CliError;
  }
  throw new Error('expected a rejection');
}

const SOURCE_BYTES = () => [...sample.tree.values()].reduce((sum, b64) => sum + Buffer.from(b64, 'base64').length, 0);

describe('a download that goes well', () => {
  it('extracts the archive file by file, reports the totals and leaves nothing beside the target', async () => {
    const { download, requests, stderr, links } = await setup(serveArchive(() => sample.archive));
    const result = await download();
    expect(readTree(target)).toEqual(sample.tree);
    expect(result).toEqual({
      directory: target,
      files: 6,
      bytes: SOURCE_BYTES(),
      bundle: { sizeBytes: sample.archive.length, expiresAt: '2026-11-22T12:15:00.000Z' },
    });
    expect(readdirSync(perTest.root)).toEqual(['site']);
    expect(links).toHaveLength(1);
    expect(requests).toHaveLength(1);
    expect(stderr()).toBe(
      [
        'Requesting a download link',
        `Extracting the ${(sample.archive.length / 1000).toFixed(1)} KB archive`,
        `Extracted 6 files (${(SOURCE_BYTES() / 1000).toFixed(1)} KB) into ${target}`,
        '',
      ].join('\n'),
    );
  });

  it('sends the storage no Authorization header, no cookie, nothing but the user agent', async () => {
    const { download, requests } = await setup(
      sequence(
        cutAfter(() => sample.archive, 4096),
        serveArchive(() => sample.archive),
      ),
    );
    await download();
    expect(requests.map((r) => Object.keys(r.headers).sort())).toEqual([
      ['connection', 'host', 'user-agent'],
      ['connection', 'host', 'range', 'user-agent'],
    ]);
    expect(requests[0]!.headers['user-agent']).toMatch(/^mint-admin\/\d+\.\d+\.\d+/);
  });

  it('creates missing parent directories of the target', async () => {
    const { download } = await setup(serveArchive(() => sample.archive));
    const result = await download({ target: join(perTest.root, 'deploy', 'v1', 'site') });
    expect(readTree(result.directory)).toEqual(sample.tree);
  });

  it('extracts into an existing empty directory', async () => {
    const { download } = await setup(serveArchive(() => sample.archive));
    mkdirSync(target);
    await download();
    expect(readTree(target)).toEqual(sample.tree);
  });

  it('keeps the archive at --archive, written in one rename', async () => {
    const { download } = await setup(serveArchive(() => sample.archive));
    const archivePath = join(perTest.root, 'keep', 'site.tar.gz');
    await download({ archivePath });
    expect(readFileSync(archivePath).equals(sample.archive)).toBe(true);
    expect(readdirSync(join(perTest.root, 'keep'))).toEqual(['site.tar.gz']);
    expect(readdirSync(perTest.root).sort()).toEqual(['keep', 'site']);
  });
});

describe('resuming and retrying', () => {
  it('resumes a dropped connection with a Range request from the bytes it has', async () => {
    const { download, requests, clock } = await setup(
      sequence(
        cutAfter(() => sample.archive, 100_000),
        serveArchive(() => sample.archive),
      ),
    );
    await download();
    expect(readTree(target)).toEqual(sample.tree);
    expect(requests.map((r) => r.headers.range)).toEqual([undefined, 'bytes=100000-']);
    expect(clock.sleeps).toEqual([375]);
  });

  it('resumes when the body is shorter than the bundle size even though Content-Length agreed with it', async () => {
    const { download, requests } = await setup(
      sequence(
        shortBody(() => sample.archive, 5000),
        serveArchive(() => sample.archive),
      ),
    );
    await download();
    expect(readTree(target)).toEqual(sample.tree);
    expect(requests.map((r) => r.headers.range)).toEqual([undefined, 'bytes=5000-']);
  });

  it('starts again from zero when the storage ignores Range and answers 200', async () => {
    const { download, requests } = await setup(
      sequence(
        cutAfter(() => sample.archive, 70_000),
        ignoreRange(() => sample.archive),
      ),
    );
    await download();
    expect(readTree(target)).toEqual(sample.tree);
    expect(requests.map((r) => r.headers.range)).toEqual([undefined, 'bytes=70000-']);
  });

  it('retries a 503 with backoff', async () => {
    const { download, clock } = await setup(
      sequence(
        storageError(503, 'SlowDown'),
        serveArchive(() => sample.archive),
      ),
    );
    await download();
    expect(readTree(target)).toEqual(sample.tree);
    expect(clock.sleeps).toEqual([375]);
  });

  it('gives up after 6 tries when every connection drops, leaving nothing behind', async () => {
    const { download, requests, clock } = await setup(cutAfter(() => sample.archive, 0));
    const error = await caught(download());
    expect(error).toBeInstanceOf(NetworkError);
    expect(exitCodeOf(error)).toBe(1);
    expect(error.message).toMatch(
      /^the connection to the bundle storage was dropped; .* \(gave up after 6 tries\); run the command again$/,
    );
    expect(requests).toHaveLength(6);
    expect(clock.sleeps).toEqual([375, 750, 1500, 3000, 6000]);
    expect(readdirSync(perTest.root)).toEqual([]);
  });

  it('refuses a storage that sends more bytes than the bundle size, after the same tries', async () => {
    const { download, requests } = await setup(
      serveArchive(() => sample.archive),
      { sizeBytes: () => sample.archive.length - 10 },
    );
    const error = await caught(download());
    expect(error.message).toBe(
      `download failed: the storage announced ${sample.archive.length} bytes but the bundle is ${sample.archive.length - 10} bytes (gave up after 6 tries); run the command again`,
    );
    expect(exitCodeOf(error)).toBe(1);
    expect(requests).toHaveLength(6);
    expect(readdirSync(perTest.root)).toEqual([]);
  });
});

describe('expired links and refusals', () => {
  it('asks for a fresh link when the storage answers 403, and goes on with it', async () => {
    const { download, requests, links } = await setup(
      sequence(
        storageError(403, 'AccessDenied'),
        serveArchive(() => sample.archive),
      ),
    );
    await download();
    expect(readTree(target)).toEqual(sample.tree);
    expect(links).toHaveLength(2);
    expect(requests.map((r) => r.url)).toEqual(links.map((l) => l.slice(l.indexOf('/bundle'))));
  });

  it('keeps the bytes it has across a fresh link of the same size', async () => {
    const { download, requests } = await setup(
      sequence(
        cutAfter(() => sample.archive, 50_000),
        storageError(403, 'AccessDenied'),
        serveArchive(() => sample.archive),
      ),
    );
    await download();
    expect(readTree(target)).toEqual(sample.tree);
    expect(requests.map((r) => r.headers.range)).toEqual([undefined, 'bytes=50000-', 'bytes=50000-']);
  });

  it('stops after 3 fresh links in a row are refused, without printing a signature', async () => {
    const { download, links } = await setup(storageError(403, 'AccessDenied'));
    const error = await caught(download());
    expect(error.message).toBe(
      "the bundle storage refused 4 download links in a row (403 AccessDenied); run the command again, and check the machine's clock if it keeps happening",
    );
    expect(exitCodeOf(error)).toBe(1);
    expect(links).toHaveLength(4);
    expect(readdirSync(perTest.root)).toEqual([]);
  });

  it.each([
    [404, 'NoSuchKey'],
    [400, 'InvalidArgument'],
  ])('fails at once on %i with the URL redacted', async (status, code) => {
    const { download, requests, url } = await setup(storageError(status, code));
    const error = await caught(download());
    expect(error.message).toBe(
      `the bundle storage refused the download (${status} ${code}) of ${url}/bundle.tar.gz?X-Amz-Expires=900&X-Amz-Signature=REDACTED; run the command again for a fresh link`,
    );
    expect(error.message).not.toContain(SIGNATURE);
    expect(exitCodeOf(error)).toBe(1);
    expect(requests).toHaveLength(1);
    expect(readdirSync(perTest.root)).toEqual([]);
  });
});

describe('the target directory', () => {
  const OLD = { 'index.html': 'old home', 'old/page.html': 'old page' };
  const writeOld = () => {
    for (const [path, content] of Object.entries(OLD)) {
      mkdirSync(join(target, path, '..'), { recursive: true });
      writeFileSync(join(target, path), content);
    }
  };
  const oldTree = () => new Map(Object.entries(OLD).map(([p, c]) => [p, Buffer.from(c).toString('base64')]));

  it('refuses a non-empty target without --force before asking for a link', async () => {
    const { download, links, requests } = await setup(serveArchive(() => sample.archive));
    writeOld();
    const error = await caught(download());
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect(error).toMatchObject({ reason: 'not-empty', target });
    expect(error.message).toBe(`${target} is not empty; allow replacing its contents, or choose another directory`);
    expect(exitCodeOf(error)).toBe(2);
    expect(links).toHaveLength(0);
    expect(requests).toHaveLength(0);
    expect(readTree(target)).toEqual(oldTree());
  });

  it('replaces a non-empty target with --force and removes the old content', async () => {
    const { download } = await setup(serveArchive(() => sample.archive));
    writeOld();
    await download({ force: true });
    expect(readTree(target)).toEqual(sample.tree);
    expect(readdirSync(perTest.root)).toEqual(['site']);
  });

  it('keeps the old content with --force when the archive turns out to be damaged', async () => {
    const damaged = Buffer.from(sample.archive);
    damaged.fill(0x41, 2000, 2100);
    const { download } = await setup(serveArchive(() => damaged));
    writeOld();
    const error = await caught(download({ force: true }));
    expect(error.message).toMatch(
      /^the downloaded bundle is not a valid tar\.gz archive \(.+\); run the command again$/,
    );
    expect(exitCodeOf(error)).toBe(1);
    expect(readTree(target)).toEqual(oldTree());
    expect(readdirSync(perTest.root)).toEqual(['site']);
  });

  it('removes the temp file and leaves the target as it was when aborted mid-download', async () => {
    const controller = new AbortController();
    const reason = new InterruptedError();
    const { download } = await setup(
      stallAfter(
        () => sample.archive,
        64 * 1024,
        () => controller.abort(reason),
      ),
    );
    writeOld();
    const error = await caught(download({ force: true, signal: controller.signal }));
    expect(error).toBe(reason);
    expect(readTree(target)).toEqual(oldTree());
    expect(readdirSync(perTest.root)).toEqual(['site']);
  });
});

describe('a stalled download', () => {
  const writeOld = () => {
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'index.html'), 'old home');
  };
  const oldTree = () => new Map([['index.html', Buffer.from('old home').toString('base64')]]);
  it.each([
    ['the default limit: under 1024 bytes in 60s', undefined, 'less than 1024 bytes arrived in 60s'],
    ['a limit of 5s', { stallMs: 5000 }, 'less than 1024 bytes arrived in 5s'],
  ])(
    'ends with an error naming the limit (%s), the target as it was, nothing left beside it',
    async (_name, limits, words) => {
      // The storage sends its headers and a few bytes, then nothing (or a byte now and then, which is
      // no better); the fake clock then moves a window on at a time until the download gives up. It
      // keeps moving rather than jumping once: a window extended by the time the reading was held
      // (stall.ts) needs another step, and when the bytes are read depends on the machine's load.
      let clock: { advance(ms: number): void } | undefined;
      let ticker: NodeJS.Timeout | undefined;
      const { download } = await setup(
        stallAfter(
          () => sample.archive,
          100,
          () => {
            ticker = setInterval(() => clock?.advance((limits?.stallMs ?? 60_000) + 1), 20);
          },
        ),
      );
      clock = h!.clock;
      writeOld();
      const error = await caught(download({ force: true, ...(limits ? { limits } : {}) })).finally(() =>
        clearInterval(ticker),
      );
      expect(error.message).toBe(
        `the download stalled: ${words} (check your connection or proxy settings); run the command again`,
      );
      expect(exitCodeOf(error)).toBe(1);
      expect(readTree(target)).toEqual(oldTree());
      expect(readdirSync(perTest.root)).toEqual(['site']);
    },
  );
});
