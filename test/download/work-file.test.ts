// The archive is kept on disk only when --archive asks for it. Otherwise its bytes go only to the
// extraction, as with `curl | tar`: a resume continues that extraction, a restart from byte 0 starts
// it over, and a refused archive is never downloaded a second time.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArchiveRefusedError } from '../../src/download/index.js';
import type { DownloadProgressEvent } from '../../src/download/index.js';
import { sequence, type Handler } from '../helpers/server.js';
import { cutAfter, ignoreRange, serveArchive } from '../helpers/storage.js';
import { rawTarGz } from '../helpers/tar-evil.js';
import { EXTRACTIONS, readTree, useHarness, useSampleArchive, type Harness } from './fixtures.js';

const sample = useSampleArchive();

/** The work file, as the download sees it when its last byte has arrived (phase 'extract'). */
function workFileWhenDownloaded(root: string): {
  events: (event: DownloadProgressEvent) => void;
  seen: () => boolean | undefined;
} {
  let seen: boolean | undefined;
  return {
    events: (event) => {
      if (event.phase !== 'extract') return;
      const work = readdirSync(root).filter((name) => name.startsWith('.site'));
      seen = work.some((dir) => existsSync(join(root, dir, 'bundle.tar.gz')));
    },
    seen: () => seen,
  };
}

/** A storage answering 206 for a range it was not asked for: the download must start again from byte 0. */
const wrongRange: Handler = (_req, res) => {
  res.writeHead(206, { 'content-range': 'bytes 10-19/20', 'content-length': '10' });
  res.end(Buffer.alloc(10));
};

describe.each(EXTRACTIONS)('the archive on disk, extracting %s', (_name, extraction) => {
  const perTest = useHarness();
  let h: Harness;
  const debug: string[] = [];
  const start = async (storage: Handler, archive = () => sample.archive) => {
    debug.length = 0;
    h = await perTest.start({ storage, archive, target: join(perTest.root, 'site'), extraction });
    return h;
  };

  it('is not written at all when only the site is asked for', async () => {
    await start(serveArchive(() => sample.archive));
    const work = workFileWhenDownloaded(perTest.root);
    await h.download({ onProgress: work.events, debug: (line) => debug.push(line) });
    expect(readTree(join(perTest.root, 'site'))).toEqual(sample.tree);
    expect(work.seen()).toBe(false);
  });

  it('is written as it arrives with --archive, and kept there', async () => {
    await start(serveArchive(() => sample.archive));
    const work = workFileWhenDownloaded(perTest.root);
    const archivePath = join(perTest.root, 'site.tar.gz');
    await h.download({ archivePath, onProgress: work.events, debug: (line) => debug.push(line) });
    expect(work.seen()).toBe(true);
    expect(readFileSync(archivePath).equals(sample.archive)).toBe(true);
  });

  it('is not needed for a resume: the extraction goes on with the bytes after the break', async () => {
    await start(
      sequence(
        cutAfter(() => sample.archive, 100_000),
        serveArchive(() => sample.archive),
      ),
    );
    await h.download({ debug: (line) => debug.push(line) });
    expect(h.requests.map((r) => r.headers.range)).toEqual([undefined, 'bytes=100000-']);
    expect(readTree(join(perTest.root, 'site'))).toEqual(sample.tree);
  });

  it('is not needed when the storage ignores Range: the bytes already extracted are skipped', async () => {
    await start(
      sequence(
        cutAfter(() => sample.archive, 70_000),
        ignoreRange(() => sample.archive),
      ),
    );
    await h.download({ debug: (line) => debug.push(line) });
    expect(h.requests.map((r) => r.headers.range)).toEqual([undefined, 'bytes=70000-']);
    expect(readTree(join(perTest.root, 'site'))).toEqual(sample.tree);
  });

  it('is not needed when the download must start over from byte 0: the extraction starts over too', async () => {
    await start(
      sequence(
        cutAfter(() => sample.archive, 70_000),
        wrongRange,
        serveArchive(() => sample.archive),
      ),
    );
    await h.download({ debug: (line) => debug.push(line) });
    expect(h.requests.map((r) => r.headers.range)).toEqual([undefined, 'bytes=70000-', undefined]);
    expect(readTree(join(perTest.root, 'site'))).toEqual(sample.tree);
    expect(debug).toContain(
      'download: starting again from byte 0: the storage answered a different range (bytes 10-19/20) than bytes=70000-',
    );
  });

  it('is not needed to name the entry of a refused archive: it is downloaded once', async () => {
    const archive = rawTarGz([
      { type: 'file', path: 'index.html', content: '<h1>hi</h1>' },
      { type: 'file', path: '../x', content: 'pwned' },
    ]);
    await start(
      serveArchive(() => archive),
      () => archive,
    );
    const error = await h.download({ debug: (line) => debug.push(line) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArchiveRefusedError);
    expect((error as Error).message).toBe(
      `the bundle was refused, nothing was installed: entry "../x" has a '..' component`,
    );
    expect(h.requests).toHaveLength(1);
    expect(readdirSync(perTest.root)).toEqual([]);
  });
});
