// The extraction worker's file writer (src/download/file-writer.ts): small fresh files are written
// on a thread of their own while tar parses on. Driven through the real ThreadedExtraction and the
// built worker, against the same extraction with the writer left out: the same tree, entry for entry
// (modes, times, links, a path given twice), and every way it fails ending with nothing left.
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { extractionLimits, type ArchiveSummary } from '../../src/download/extract.js';
import { BootedWorker, ThreadedExtraction } from '../../src/download/extract-thread.js';
import { randomBytes } from 'node:crypto';
import { FILES_BEFORE_START, HAND_OVER_MAX_BYTES } from '../../src/download/file-writer.js';
import { tempDir } from '../helpers/cli.js';
import { paxRecords, rawTarGz, type RawEntry } from '../helpers/tar-evil.js';
import { describeTree as describeExactly } from '../helpers/tar-sites.js';
import { EXTRACTION_WORKER } from './fixtures.js';

let root: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  root?.cleanup();
  root = undefined;
});

const limits = (size: number) => () => ({ ...extractionLimits(size), now: Date.now() });

async function extract(dir: string, archive: Buffer, { writeFiles = true, chunk = 64 * 1024, written = (_files: number) => undefined as void } = {}): Promise<ArchiveSummary | undefined> {
  const live = await ThreadedExtraction.start(dir, limits(archive.length), BootedWorker.boot(EXTRACTION_WORKER, { writeFiles }));
  for (let at = 0; at < archive.length; at += chunk) await live.write(archive.subarray(at, at + chunk), at);
  const summary = await live.finish(archive.length);
  written(live.filesWrittenBehind);
  return summary;
}

/** Everything extraction decides about each path: kind, mode, mtime, content or link, hard-link groups. */
function describeTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const inodes = new Map<number, string>();
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      const key = relative(dir, path);
      const stat = lstatSync(path);
      const mode = (stat.mode & 0o7777).toString(8);
      if (stat.isDirectory()) {
        out[key] = `dir ${mode}`;
        walk(path);
      } else if (stat.isSymbolicLink()) out[key] = `symlink -> ${readlinkSync(path)}`;
      else {
        const sameAs = inodes.get(stat.ino);
        inodes.set(stat.ino, sameAs ?? key);
        out[key] = `file ${mode} ${stat.mtimeMs} ${readFileSync(path).toString('base64')}${sameAs ? ` (same file as ${sameAs})` : ''}`;
      }
    }
  };
  walk(dir);
  return out;
}

const MTIME = Date.UTC(2025, 5, 1, 12, 0, 0);

/** Tiny pages in folders, then every kind of entry that must wait for the files handed over. */
function mixedSite(): RawEntry[] {
  const entries: RawEntry[] = [{ type: 'dir', path: 'docs' }];
  for (let i = 0; i < 3000; i++) entries.push({ type: 'file', path: `docs/s${i % 13}/p${i}.html`, content: `<p>page ${i}</p>`, mtime: MTIME + i * 1000 });
  entries.push(
    { type: 'file', path: 'empty.txt', content: '' },
    { type: 'file', path: 'bin/run.sh', content: '#!/bin/sh\necho hi\n', mode: 0o775 },
    { type: 'file', path: 'at-the-limit.bin', content: Buffer.alloc(HAND_OVER_MAX_BYTES, 7) },
    { type: 'file', path: 'over-the-limit.bin', content: Buffer.alloc(HAND_OVER_MAX_BYTES + 1, 9) },
    // Each of these needs a file handed over to be on disk already.
    { type: 'hardlink', path: 'docs/alias.html', target: 'docs/s5/p5.html' },
    { type: 'symlink', path: 'docs/latest.html', target: 's7/p7.html' },
    { type: 'file', path: 'docs/s1/p1.html', content: 'the second copy wins' },
    { type: 'file', path: 'docs/s2/p2.html', content: Buffer.alloc(HAND_OVER_MAX_BYTES * 2, 1) },
    // The same, right after the file they need: it is still waiting to be handed over.
    { type: 'file', path: 'docs/new.html', content: 'new' },
    { type: 'hardlink', path: 'docs/new-alias.html', target: 'docs/new.html' },
    { type: 'file', path: 'docs/twice.html', content: 'first' },
    { type: 'file', path: 'docs/twice.html', content: 'second' },
  );
  for (let i = 3000; i < 3200; i++) entries.push({ type: 'file', path: `docs/s${i % 13}/p${i}.html`, content: `<p>page ${i}</p>` });
  return entries;
}

describe('the file writer of the extraction worker', () => {
  it('leaves the same tree as the worker without it, for every kind of entry after the files it took', async () => {
    root = tempDir();
    const archive = rawTarGz(mixedSite());
    const expected = await extract(join(root.path, 'alone'), archive, { writeFiles: false });
    expect(await extract(join(root.path, 'in-one-chunk'), archive, { chunk: archive.length })).toEqual(expected);
    expect(await extract(join(root.path, 'with-writer'), archive, { chunk: 7919 })).toEqual(expected);
    const tree = describeTree(join(root.path, 'with-writer'));
    expect(tree).toEqual(describeTree(join(root.path, 'alone')));
    expect(describeTree(join(root.path, 'in-one-chunk'))).toEqual(tree);
    expect(tree['docs/new.html']).toContain('(same file as docs/new-alias.html)');
    expect(tree['docs/twice.html']).toContain(Buffer.from('second').toString('base64'));
    expect(tree['docs/s1/p1.html']).toContain(Buffer.from('the second copy wins').toString('base64'));
    // (the walk meets alias.html first)
    expect(tree['docs/s5/p5.html']).toContain('(same file as docs/alias.html)');
    expect(tree['bin/run.sh']).toMatch(/^file 755 /);
    expect(tree['docs/s3/p3.html']).toMatch(new RegExp(`^file 644 ${MTIME + 3000} `));
  });

  it("makes the reader of plain entries' calls in its order: files across batches, directories and their times, PAX headers cut between batches", async () => {
    root = tempDir();
    const archived = Date.UTC(2026, 0, 1);
    const pax = (path: string, mtime: number): RawEntry => ({ type: 'raw', flag: 'x', path: `PaxHeader/${path}`, content: paxRecords({ path, mtime: (mtime / 1000).toFixed(3), atime: '1700000000.5' }) });
    const entries: RawEntry[] = [];
    const add = (path: string, content: Buffer, mtime = MTIME) => entries.push(pax(path, mtime), { type: 'file', path: `short-${entries.length}`, content, mtime });
    // Files the extraction's thread writes itself, then the writer thread's from the next one on.
    for (let i = 0; i < FILES_BEFORE_START; i++) add(`first/s${i % 7}/p${i}.html`, randomBytes(i % 3000), MTIME + i);
    entries.push({ type: 'dir', path: 'early' });
    for (let i = 0; i < 300; i++) add(`early/p${i}.bin`, randomBytes((i * 997) % 20_000), MTIME - i * 1000);
    // Larger than a batch (1 MB): its writes span batches, and the file stays open between them.
    add('media/intro.mp4', randomBytes(3 << 20));
    add('empty.txt', Buffer.alloc(0));
    // Directories whose entries come after their files keep the archive's mtime; made before, they don't.
    add('d/e/f/g/h.html', randomBytes(700));
    entries.push({ type: 'dir', path: 'd/e/f' }, { type: 'dir', path: 'd' });
    for (let i = 0; i < 300; i++) add(`last/p${i}.html`, randomBytes(5800), MTIME + i);
    const archive = rawTarGz(entries);
    const counts: number[] = [];
    const expected = await extract(join(root.path, 'alone'), archive, { writeFiles: false, written: (n) => counts.push(n) });
    expect(expected).toEqual({ files: FILES_BEFORE_START + 603, bytes: expect.any(Number) });
    for (const chunk of [7919, 64 * 1024, archive.length]) {
      const dir = join(root.path, `with-writer-${chunk}`);
      expect(await extract(dir, archive, { chunk, written: (n) => counts.push(n) })).toEqual(expected);
      expect(describeExactly(dir)).toEqual(describeExactly(join(root.path, 'alone')));
      expect([lstatSync(join(dir, 'd')).mtimeMs, lstatSync(join(dir, 'd/e/f')).mtimeMs]).toEqual([archived, archived]);
      expect(lstatSync(join(dir, 'd/e')).mtimeMs).not.toBe(archived);
      expect(lstatSync(join(dir, 'early')).mtimeMs).not.toBe(archived);
    }
    // Every file after the first thousand was written on the writer thread.
    expect(counts).toEqual([0, 603, 603, 603]);
  });

  it.each([
    // Among the first thousand small files (the writer has not started: the reader of plain entries writes them).
    ['p4.html'],
    ['p2004.html'],
  ])('never overwrites a file already there: %s met with O_EXCL, with or without the writer, and the live extraction stands down', async (name) => {
    root = tempDir();
    const archive = rawTarGz(mixedSite());
    const folder = `s${Number(name.slice(1, -5)) % 13}`;
    // The work directory is always fresh: a file there can only be something else's doing.
    for (const tree of ['alone', 'with-writer']) {
      mkdirSync(join(root.path, tree, 'docs', folder), { recursive: true });
      writeFileSync(join(root.path, tree, 'docs', folder, name), 'was here');
    }
    expect(await extract(join(root.path, 'alone'), archive, { writeFiles: false })).toBeUndefined();
    expect(await extract(join(root.path, 'with-writer'), archive)).toBeUndefined();
    expect(existsSync(join(root.path, 'alone'))).toBe(false);
    expect(existsSync(join(root.path, 'with-writer'))).toBe(false);
  });

  it('stop() while the writer is behind leaves nothing, and nothing comes back after', async () => {
    root = tempDir();
    const entries: RawEntry[] = [];
    for (let i = 0; i < 20_000; i++) entries.push({ type: 'file', path: `d${i % 50}/f${i}.txt`, content: `file ${i}` });
    const archive = rawTarGz(entries);
    const dir = join(root.path, 'tree');
    const live = await ThreadedExtraction.start(dir, limits(archive.length), BootedWorker.boot(EXTRACTION_WORKER));
    const most = Math.floor(archive.length * 0.8);
    await live.write(archive.subarray(0, most), 0);
    await live.stop();
    expect(existsSync(dir)).toBe(false);
    // Any file still being written would land after the removal.
    await sleep(300);
    expect(existsSync(dir)).toBe(false);
  });

  it('an archive the guard refuses after files were handed over leaves nothing', async () => {
    root = tempDir();
    const entries: RawEntry[] = [];
    for (let i = 0; i < 5000; i++) entries.push({ type: 'file', path: `d${i % 20}/f${i}.txt`, content: `file ${i}` });
    entries.push({ type: 'symlink', path: 'etc', target: '/etc' });
    const archive = rawTarGz(entries);
    const dir = join(root.path, 'tree');
    expect(await extract(dir, archive)).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
  });
});
