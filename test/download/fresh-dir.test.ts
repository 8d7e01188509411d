// Extraction into the fresh work directory skips tar's per-entry mkdir/lstat walk for paths no
// earlier entry had (issue 16). These archives repeat and replace paths, so both of tar's ways
// (the full check and the skip) run; the tree must be exactly what tar's own checks make.
import { mkdirSync, readdirSync, readFileSync, readlinkSync, lstatSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as tar from 'tar';
import { afterEach, describe, expect, it } from 'vitest';
import { extractArchive, extractionLimits } from '../../src/download/extract.js';
import { FreshTree } from '../../src/download/fresh-tree.js';
import { dropBytesAfterTheEnd, skipChecksOfAFreshDirectory } from '../../src/download/tar-internals.js';
import { tempDir } from '../helpers/cli.js';
import { rawTarGz, type RawEntry } from '../helpers/tar-evil.js';

let root: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  root?.cleanup();
  root = undefined;
});

/** Every entry under `dir`: type, mode, and content or link target. */
function describeTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      const info = lstatSync(path);
      const key = relative(dir, path);
      const mode = (info.mode & 0o7777).toString(8);
      if (info.isDirectory()) {
        out[key] = `dir ${mode}`;
        walk(path);
      } else if (info.isSymbolicLink()) out[key] = `link -> ${readlinkSync(path)}`;
      else out[key] = `file ${mode} nlink=${info.nlink} ${readFileSync(path, 'utf8')}`;
    }
  };
  walk(dir);
  return out;
}

const TRICKY: RawEntry[] = [
  { type: 'file', path: 'guides/a/b/page.html', content: 'first' },
  { type: 'file', path: 'guides/a/b/page.html', content: 'second, the one that stays' },
  { type: 'dir', path: 'empty-then-file' },
  { type: 'file', path: 'empty-then-file', content: 'a file where an empty directory was' },
  { type: 'file', path: 'guides/a/other.html', content: 'other' },
  { type: 'dir', path: 'guides/a' },
  { type: 'file', path: 'Readme.txt', content: 'upper' },
  { type: 'file', path: 'readme.txt', content: 'lower' },
  { type: 'symlink', path: 'latest', target: 'guides' },
  { type: 'file', path: 'latest', content: 'a file replacing the link' },
  { type: 'hardlink', path: 'same.html', target: 'guides/a/other.html' },
  { type: 'file', path: 'deep/x/y/z/end.txt', content: 'end' },
];

describe('extracting into a fresh work directory', () => {
  it('finds the tar internals it needs in the installed tar (a rename in a tar upgrade fails here, not silently)', () => {
    root = tempDir();
    const unpack = tar.x({ cwd: root.path, sync: true });
    expect(skipChecksOfAFreshDirectory(unpack, new FreshTree(root.path, 0o755, 0))).toBe(true);
    expect(dropBytesAfterTheEnd(unpack)).toBe(true);
  });

  it('makes exactly the tree tar makes with all its checks, for repeated and replaced paths', async () => {
    root = tempDir();
    const file = join(root.path, 'tricky.tar.gz');
    writeFileSync(file, rawTarGz(TRICKY));
    const ours = join(root.path, 'ours');
    const summary = await extractArchive(file, ours, new AbortController().signal, { ...extractionLimits(1000), now: Date.now() });
    const theirs = join(root.path, 'theirs');
    mkdirSync(theirs);
    tar.x({ cwd: theirs, sync: true, file, preserveOwner: false });
    expect(describeTree(ours)).toEqual(describeTree(theirs));
    expect(describeTree(ours)['guides/a/b/page.html']).toBe('file 644 nlink=1 second, the one that stays');
    expect(describeTree(ours)['latest']).toBe('file 644 nlink=1 a file replacing the link');
    expect(summary.files).toBe(8);
  });
});
