// The download and the extraction overlap (issue 16): files appear in the work directory while the
// archive is still arriving, and whenever that live extraction cannot stand for the whole archive
// (a restart from zero, a refusal) the extraction from the complete file takes over.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { sequence, type Handler } from '../helpers/server.js';
import { cutAfter, ignoreRange, serveArchive } from '../helpers/storage.js';
import { EXTRACTIONS, harness, readTree, tarGzOf, writeSourceTree, type Harness } from './fixtures.js';

/** Where the extraction runs: set by each pass of describe.each(EXTRACTIONS) below. */
let extraction: URL | false = false;

let source: ReturnType<typeof tempDir>;
let archive: Buffer;
let sourceTree: Map<string, string>;
beforeAll(async () => {
  source = tempDir();
  writeSourceTree(join(source.path, 'site'));
  archive = await tarGzOf(join(source.path, 'site'), join(source.path, 'site.tar.gz'));
  sourceTree = readTree(join(source.path, 'site'));
});
afterAll(() => source.cleanup());

let root: ReturnType<typeof tempDir>;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  root.cleanup();
});

/** The work directory's tree (.site.mint-admin-XXXXXX/tree), if there is one yet. */
function workTree(): string | undefined {
  const work = readdirSync(root.path).find((name) => name.startsWith('.site.mint-admin-'));
  return work && existsSync(join(root.path, work, 'tree')) ? join(root.path, work, 'tree') : undefined;
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
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': String(archive.length) });
    res.write(archive.subarray(0, archive.length - tail));
    const started = Date.now();
    const look = () => {
      const tree = workTree();
      const files = tree ? [...readTree(tree).keys()] : [];
      if (files.includes('index.html') || Date.now() - started > 5000) {
        seen.push({ files, index: tree && files.includes('index.html') ? identity(join(tree, 'index.html')) : undefined });
        res.end(archive.subarray(archive.length - tail));
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
      root = tempDir();
      const seen: { files: string[]; index?: string }[] = [];
      h = await harness({ storage: holdBackTail(1000, seen), archive: () => archive, target: join(root.path, 'site'), extraction });
      const result = await h.download();
      expect(seen).toHaveLength(1);
      expect(seen[0]!.files).toContain('index.html');
      expect(readTree(join(root.path, 'site'))).toEqual(sourceTree);
      // Not extracted a second time from the file: the installed index.html is the one seen mid-download.
      expect(identity(join(root.path, 'site', 'index.html'))).toBe(seen[0]!.index);
      expect(result.files).toBe(6);
      expect(readdirSync(root.path)).toEqual(['site']);
    });

    it('goes on extracting across a resumed connection (the bytes still arrive in order)', async () => {
      root = tempDir();
      h = await harness({ storage: sequence(cutAfter(() => archive, 100_000), serveArchive(() => archive)), archive: () => archive, target: join(root.path, 'site'), extraction });
      await h.download();
      expect(readTree(join(root.path, 'site'))).toEqual(sourceTree);
      expect(h.requests.map((r) => r.headers.range)).toEqual([undefined, 'bytes=100000-']);
    });

    it('after a restart from zero, extracts from the complete file instead, and the tree holds nothing twice', async () => {
      root = tempDir();
      h = await harness({ storage: sequence(cutAfter(() => archive, 200_000), ignoreRange(() => archive)), archive: () => archive, target: join(root.path, 'site'), extraction });
      const result = await h.download();
      expect(readTree(join(root.path, 'site'))).toEqual(sourceTree);
      expect(result.files).toBe(6);
      expect(readdirSync(root.path)).toEqual(['site']);
    });
  });
});
