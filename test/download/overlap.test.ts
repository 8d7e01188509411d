// The download and the extraction overlap (issue 16): files appear in the work directory while the
// archive is still arriving, and a download that must start over from byte 0 starts the extraction
// over too, so nothing is extracted twice.
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sequence, type Handler } from '../helpers/server.js';
import { cutAfter, ignoreRange, serveArchive } from '../helpers/storage.js';
import { EXTRACTIONS, readTree, useHarness, useSampleArchive } from './fixtures.js';

/** Where the extraction runs: set by each pass of describe.each(EXTRACTIONS) below. */
let extraction: URL | false = false;

const sample = useSampleArchive();
const perTest = useHarness();

/** The work directory's tree (.site.mint-admin-XXXXXX/tree), if there is one yet. */
function workTree(): string | undefined {
  const work = readdirSync(perTest.root).find((name) => name.startsWith('.site.mint-admin-'));
  return work && existsSync(join(perTest.root, work, 'tree')) ? join(perTest.root, work, 'tree') : undefined;
}

/** Which file this is: a file extracted again (from the complete archive) is another inode, born later. */
function identity(path: string): string {
  const info = statSync(path, { bigint: true });
  return `${info.ino}@${info.birthtimeNs}`;
}

/**
 * Sends all but the last `tail` bytes, waits (on the real clock, up to 5 s) until files show up in
 * the work directory, records what it saw, then sends the rest.
 */
function holdBackTail(tail: number, seen: { files: string[]; index?: string }[]): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': String(sample.archive.length) });
    res.write(sample.archive.subarray(0, sample.archive.length - tail));
    const started = Date.now();
    const look = () => {
      const tree = workTree();
      const files = tree ? [...readTree(tree).keys()] : [];
      if (files.includes('index.html') || Date.now() - started > 5000) {
        seen.push({
          files,
          index: tree && files.includes('index.html') ? identity(join(tree, 'index.html')) : undefined,
        });
        res.end(sample.archive.subarray(sample.archive.length - tail));
      } else setTimeout(look, 10);
    };
    look();
  };
}

describe.each(EXTRACTIONS)('extracting %s', (_name, worker) => {
  beforeAll(() => {
    extraction = worker;
  });

  describe('extracting while the archive arrives', () => {
    it('writes files of the archive before its last byte has arrived, and installs those very files', async () => {
      const seen: { files: string[]; index?: string }[] = [];
      const h = await perTest.start({
        storage: holdBackTail(1000, seen),
        archive: () => sample.archive,
        target: join(perTest.root, 'site'),
        extraction,
      });
      const result = await h.download();
      expect(seen).toHaveLength(1);
      expect(seen[0]!.files).toContain('index.html');
      expect(readTree(join(perTest.root, 'site'))).toEqual(sample.tree);
      // Not extracted a second time from the file: the installed index.html is the one seen mid-download.
      expect(identity(join(perTest.root, 'site', 'index.html'))).toBe(seen[0]!.index);
      expect(result.files).toBe(6);
      expect(readdirSync(perTest.root)).toEqual(['site']);
    });

    it('goes on extracting across a resumed connection (the bytes still arrive in order)', async () => {
      const h = await perTest.start({
        storage: sequence(
          cutAfter(() => sample.archive, 100_000),
          serveArchive(() => sample.archive),
        ),
        archive: () => sample.archive,
        target: join(perTest.root, 'site'),
        extraction,
      });
      await h.download();
      expect(readTree(join(perTest.root, 'site'))).toEqual(sample.tree);
      expect(h.requests.map((r) => r.headers.range)).toEqual([undefined, 'bytes=100000-']);
    });

    it('after a restart from zero, extracts again from the first byte, and the tree holds nothing twice', async () => {
      const h = await perTest.start({
        storage: sequence(
          cutAfter(() => sample.archive, 200_000),
          ignoreRange(() => sample.archive),
        ),
        archive: () => sample.archive,
        target: join(perTest.root, 'site'),
        extraction,
      });
      const result = await h.download();
      expect(readTree(join(perTest.root, 'site'))).toEqual(sample.tree);
      expect(result.files).toBe(6);
      expect(readdirSync(perTest.root)).toEqual(['site']);
    });
  });
});
