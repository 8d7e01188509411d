// Tree for tree against GNU tar: each mix (text pages, incompressible files, a docs mix with links,
// long and unicode names, empty directories and a large file), archived by GNU tar in each format
// and by node-tar, extracted by the download and by `tar -xzf`: the same paths, kinds, contents,
// link targets, file mtimes and (for a web root) modes 0644/0755.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { create as createTar } from 'tar';
import { describe, expect, it } from 'vitest';
import { serveArchive } from '../helpers/storage.js';
import { tempDir } from '../helpers/cli.js';
import { useHarness } from './fixtures.js';

const GNU_TAR = /GNU tar/.test(spawnSync('tar', ['--version'], { encoding: 'utf8' }).stdout ?? '');

const MIXES: Record<string, (dir: string) => void> = {
  text: (dir) => {
    for (let i = 0; i < 300; i++) put(dir, `section-${i % 7}/page-${i}.html`, `<p>page ${i}</p>`.repeat(1 + (i % 40)));
  },
  incompressible: (dir) => {
    for (let i = 0; i < 200; i++) put(dir, `assets/${i % 5}/img-${i}.webp`, randomBytes(100 + i * 37));
  },
  docs: (dir) => {
    put(dir, 'index.html', '<h1>docs</h1>');
    put(dir, `${'long-directory-name-'.repeat(6)}/${'a-very-long-file-name-'.repeat(8)}.html`, 'long');
    put(dir, 'ünïcödé/页面.html', 'unicode');
    put(dir, 'media/intro.mp4', randomBytes(3 << 20));
    put(dir, 'scripts/run.sh', '#!/bin/sh\n', 0o755);
    mkdirSync(join(dir, 'empty/deeper'), { recursive: true });
    symlinkSync('index.html', join(dir, 'home.html'));
    symlinkSync('../index.html', join(dir, 'media/up.html'));
    linkSync(join(dir, 'index.html'), join(dir, 'copy.html'));
  },
};

function put(dir: string, path: string, content: string | Buffer, mode = 0o644): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content, { mode });
}

/** Every entry under `dir`: kind, content or link target, file mtime (s) and mode. */
function describeTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      const stat = lstatSync(path);
      const key = relative(dir, path);
      if (stat.isSymbolicLink()) out.set(key, `link ${readlinkSync(path)}`);
      else if (stat.isDirectory()) {
        out.set(key, `dir ${(stat.mode & 0o777).toString(8)}`);
        walk(path);
      } else
        out.set(
          key,
          `file ${(stat.mode & 0o777).toString(8)} ${Math.floor(stat.mtimeMs / 1000)} ${readFileSync(path).toString('base64')}`,
        );
    }
  };
  walk(dir);
  return out;
}

describe.skipIf(!GNU_TAR)('the download against GNU tar, tree for tree', () => {
  const perTest = useHarness();
  const archivers: [string, (source: string, file: string) => Promise<void>][] = [
    ...['pax', 'gnu', 'posix'].map((format): [string, (source: string, file: string) => Promise<void>] => [
      `GNU tar --format=${format}`,
      async (source, file) => {
        const made = spawnSync('tar', [`--format=${format}`, '-czf', file, '-C', source, '.'], { encoding: 'utf8' });
        if (made.status !== 0) throw new Error(made.stderr);
      },
    ]),
    // Packed synchronously: node-tar's asynchronous pack can wait forever on a hard link (isaacs/node-tar#460),
    // about one run in twenty-five for the docs mix.
    [
      'node-tar',
      async (source, file) => createTar({ sync: true, gzip: true, cwd: source, file, portable: true }, ['.']),
    ],
  ];

  it.each(Object.keys(MIXES).flatMap((mix) => archivers.map(([by, make]) => [mix, by, make] as const)))(
    '%s by %s',
    async (mix, _by, make) => {
      const work = tempDir();
      try {
        const source = join(work.path, 'source');
        mkdirSync(source);
        MIXES[mix]!(source);
        // In the past of the download's (fake) clock, which clamps later mtimes to its now.
        spawnSync('find', [source, '-exec', 'touch', '-h', '-d', '2021-01-01T00:00:00Z', '{}', '+']);
        const file = join(work.path, 'bundle.tar.gz');
        await make(source, file);
        const archive = readFileSync(file);
        const gnu = join(work.path, 'gnu');
        mkdirSync(gnu);
        // As a web root gets them: GNU tar under umask 022 and without --same-permissions.
        expect(spawnSync('sh', ['-c', `umask 022 && tar -xzf '${file}' -C '${gnu}'`]).status).toBe(0);
        const target = join(perTest.root, 'site');
        const h = await perTest.start({ storage: serveArchive(() => archive), archive: () => archive, target });
        await h.download();
        const [ours, theirs] = [describeTree(target), describeTree(gnu)];
        const differences = [...new Set([...ours.keys(), ...theirs.keys()])].filter(
          (key) => ours.get(key) !== theirs.get(key),
        );
        expect(
          differences.map((key) => `${key}: ${ours.get(key)?.slice(0, 40)} / ${theirs.get(key)?.slice(0, 40)}`),
        ).toEqual([]);
        expect(ours.size).toBeGreaterThan(10);
      } finally {
        work.cleanup();
      }
    },
  );
});
