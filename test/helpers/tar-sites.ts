// Sites and archives for the tests that compare an extraction with tar's own: a site with what real
// bundles and GNU tar's formats make of it, GNU tar's archives of it, chunkings that cut a stream
// everywhere, and a description of the tree an extraction left.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';

export const GNU_TAR = spawnSync('tar', ['--version'], { encoding: 'utf8' }).stdout?.includes('GNU tar') ?? false;
/** The extraction's "now": a file's mtime past it becomes it. */
export const NOW = Date.UTC(2026, 10, 25);

/** A site with what real bundles and GNU tar's formats make of it: long and unicode names, links, odd sizes, sub-second and future mtimes (beyondUstar: a name and a link target ustar cannot hold). */
export function writeSite(
  dir: string,
  { beyondUstar, hardLink = true }: { beyondUstar: boolean; hardLink?: boolean },
): void {
  const put = (path: string, content: string | Buffer, mtime?: Date) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
    if (mtime) utimesSync(join(dir, path), mtime, mtime);
  };
  const bytes = (n: number, seed: string) => {
    const out = Buffer.alloc(n);
    for (let at = 0; at < n; at += 32) createHash('sha256').update(`${seed}-${at}`).digest().copy(out, at);
    return out;
  };
  put('index.html', '<h1>Home</h1>\n', new Date('2024-01-02T03:04:05.123Z'));
  put('empty.txt', '');
  for (const n of [1, 511, 512, 513, 1024, 6000])
    put(`sizes/file-${n}.bin`, bytes(n, String(n)), new Date(Date.UTC(2023, 5, 1) + n * 1.5));
  put('café/ünïcødé-页面.html', 'unicode\n');
  put('emoji/🚀-launch.html', 'emoji\n');
  const deep = 'guides/' + 'very-long-section-name/'.repeat(6) + 'page.html';
  put(deep, 'deep page\n');
  if (beyondUstar) put(`assets/${'x'.repeat(150)}.css`, 'long component\n');
  put('future.html', 'from a build host with a wrong clock\n', new Date(NOW + 86_400_000 * 400));
  put('bin/run.sh', '#!/bin/sh\n');
  chmodSync(join(dir, 'bin/run.sh'), 0o755);
  mkdirSync(join(dir, 'empty-dir'));
  symlinkSync('index.html', join(dir, 'home.html'));
  if (beyondUstar) symlinkSync('../' + deep, join(dir, 'emoji/deep-link.html'));
  symlinkSync('guides', join(dir, 'guides-link'));
  if (hardLink) linkSync(join(dir, 'sizes/file-513.bin'), join(dir, 'sizes/hard-513.bin'));
  for (let i = 0; i < 40; i++) put(`many/section-${i % 7}/page-${i}.html`, bytes(i * 37, `p${i}`));
}

export function gnuTar(args: string[], dir: string, file: string): Buffer {
  const r = spawnSync('tar', [...args, '-cf', file, '-C', dir, '.'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`GNU tar ${args.join(' ')} failed: ${r.stderr}`);
  return readFileSync(file);
}

/** Deterministic chunk sizes: whole blocks (the live extraction's batches) or any length (tar's inflater, from a file). */
export function chunker(seed: number, blocks: boolean): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return blocks ? 512 * (1 + (state % 24)) : 1 + (state % 9_000);
  };
}

/** Type, mode, content, link target and inode sharing of everything under `dir`; mtimes of files (a directory's changes as files go into it). */
export function describeTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const inodes = new Map<bigint, string>();
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      const info = lstatSync(path, { bigint: true });
      const key = relative(dir, path);
      const mode = (info.mode & 0o7777n).toString(8);
      if (info.isDirectory()) {
        out[key] = `dir ${mode}`;
        walk(path);
      } else if (info.isSymbolicLink()) out[key] = `link -> ${readlinkSync(path)}`;
      else {
        const first = inodes.get(info.ino);
        inodes.set(info.ino, first ?? key);
        out[key] =
          `file ${mode} mtime=${info.mtimeNs} nlink=${info.nlink} same-as=${first ?? '-'} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
      }
    }
  };
  walk(dir);
  return out;
}
