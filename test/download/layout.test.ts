// The filesystem as it really is: the link layout's one-rename swap under a concurrent reader,
// leftovers of a killed run, clean-up that cannot change the outcome, parents removed on failure,
// free space and mount points, all on real files (and a real tmpfs where mounting is possible).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliError, TargetRefusedError, UsageError } from '../../src/errors.js';
import type { Handler } from '../helpers/server.js';
import { CAN_MOUNT_TMPFS, TMPFS_SKIP_NOTE } from '../helpers/tmpfs.js';
import { serveArchive, storageError } from '../helpers/storage.js';
import { rawTarGz } from '../helpers/tar-evil.js';
import { useHarness, type Harness } from './fixtures.js';

const perTest = useHarness();

const site = (version: string) =>
  rawTarGz([
    { type: 'file', path: 'index.html', content: `<h1>${version}</h1>` },
    { type: 'file', path: 'a/b.html', content: version },
  ]);

async function setup(
  archive: () => Buffer,
  opts: { target?: string; sizeBytes?: () => number } = {},
): Promise<{ h: Harness; target: string; root: string }> {
  const target = opts.target ?? join(perTest.root, 'site');
  const h = await perTest.start({ storage: serveArchive(archive), archive, target, sizeBytes: opts.sizeBytes });
  return { h, target, root: perTest.root };
}

async function caught(promise: Promise<unknown>): Promise<CliError> {
  try {
    await promise;
  } catch (error) {
    return error as CliError;
  }
  throw new Error('expected a rejection');
}

/** A separate process reading `file` in a tight loop until `stop` exists; reports reads, misses and the contents seen. */
function reader(file: string, stop: string): Promise<{ reads: number; misses: number; seen: string[] }> {
  const script = `
    const fs = require('node:fs');
    let reads = 0, misses = 0; const seen = new Set();
    fs.writeFileSync(process.argv[2] + '.ready', '');
    while (!fs.existsSync(process.argv[2])) {
      try { seen.add(fs.readFileSync(process.argv[1], 'utf8')); reads++; } catch { misses++; }
    }
    process.stdout.write(JSON.stringify({ reads, misses, seen: [...seen].sort() }));`;
  const child = spawn(process.execPath, ['-e', script, file, stop], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  return new Promise((resolve, reject) =>
    child.on('close', () => (out ? resolve(JSON.parse(out)) : reject(new Error('reader failed')))),
  );
}

async function until(path: string): Promise<void> {
  while (!existsSync(path)) await new Promise((r) => setTimeout(r, 5));
}

describe('the link layout (--link)', () => {
  it('swaps releases under a concurrent reader with zero misses, over several --force installs', async () => {
    let version = 'v0';
    const { h, target, root } = await setup(() => site(version));
    await h.download({ link: true, release: 'r0' });
    const stop = join(root, 'stop');
    const reading = reader(join(target, 'index.html'), stop);
    await until(`${stop}.ready`);
    for (let i = 1; i <= 8; i++) {
      version = `v${i}`;
      await h.download({ link: true, force: true, release: `r${i}`, keep: 2 });
    }
    writeFileSync(stop, '');
    const seen = await reading;
    expect(seen.misses).toBe(0);
    expect(seen.reads).toBeGreaterThan(100);
    // Every read was a whole file of one release.
    expect(seen.seen.every((s) => /^<h1>v\d<\/h1>$/.test(s))).toBe(true);
    expect(readFileSync(join(target, 'index.html'), 'utf8')).toBe('<h1>v8</h1>');
    expect(readlinkSync(target)).toBe(join('.site-releases', 'r8'));
    // --keep-releases 2: the newest two stay, the rest were pruned; no work directory is left.
    expect(readdirSync(join(root, '.site-releases')).sort()).toEqual(['r7', 'r8']);
    expect(readdirSync(root).sort()).toEqual(['.site-releases', 'site', 'stop', 'stop.ready']);
  });

  it('installs the same job twice as two releases, and reports the link as the directory', async () => {
    const { h, target, root } = await setup(() => site('v1'));
    expect((await h.download({ link: true, release: 'se_1' })).directory).toBe(target);
    await h.download({ link: true, force: true, release: 'se_1' });
    expect(readdirSync(join(root, '.site-releases')).sort()).toEqual(['se_1', 'se_1-2']);
    expect(readlinkSync(target)).toBe(join('.site-releases', 'se_1-2'));
    expect(h.stderr()).toContain(`into ${target} (release ${join(root, '.site-releases', 'se_1-2')})`);
  });

  it("keeps a link of the user's own (docs -> releases/r1): new release beside r1, r1 kept, link swapped", async () => {
    const { h, root } = await setup(() => site('v2'), {});
    mkdirSync(join(root, 'releases', 'r1'), { recursive: true });
    writeFileSync(join(root, 'releases', 'r1', 'index.html'), 'old');
    const { symlinkSync } = await import('node:fs');
    symlinkSync('releases/r1', join(root, 'docs'));
    await h.download({ target: join(root, 'docs'), force: true, release: 'se_2' });
    expect(readlinkSync(join(root, 'docs'))).toBe(join('releases', 'se_2'));
    expect(readFileSync(join(root, 'docs', 'index.html'), 'utf8')).toBe('<h1>v2</h1>');
    expect(readFileSync(join(root, 'releases', 'r1', 'index.html'), 'utf8')).toBe('old');
    expect(readdirSync(join(root, 'releases')).sort()).toEqual(['r1', 'se_2']);
  });
});

describe('a plain directory after a killed run', () => {
  /** The state a run SIGKILLed between its two renames leaves: no target, the old tree in its work directory. */
  function killedBetweenRenames(root: string): string {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const work = join(root, '.site.mint-admin-AbC123');
    mkdirSync(join(work, 'previous'), { recursive: true });
    mkdirSync(join(work, 'tree'), { recursive: true });
    writeFileSync(join(work, 'lock'), `${dead.stdout}\n`);
    writeFileSync(join(work, 'previous', 'index.html'), 'the old site');
    return work;
  }

  it('restores the old tree first and says so; without --force it is then kept', async () => {
    const { h, target, root } = await setup(() => site('v1'));
    const work = killedBetweenRenames(root);
    const error = await caught(h.download());
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect(error).toMatchObject({ reason: 'not-empty', target });
    expect(error.message).toBe(`${target} is not empty; allow replacing its contents, or choose another directory`);
    expect(readFileSync(join(target, 'index.html'), 'utf8')).toBe('the old site');
    expect(h.stderr()).toBe(
      `restored ${target} from an interrupted earlier run (it was left in ${work})\nremoved ${work}, left by an interrupted earlier run\n`,
    );
    expect(h.requests).toHaveLength(0);
    expect(readdirSync(root)).toEqual(['site']);
  });

  it("removes a leftover whose target is in place, and leaves a live run's work directory alone", async () => {
    const { h, target, root } = await setup(() => site('v1'));
    const dead = killedBetweenRenames(root);
    mkdirSync(target);
    writeFileSync(join(target, 'index.html'), 'new');
    const live = join(root, '.other.mint-admin-Live12');
    mkdirSync(live);
    writeFileSync(join(live, 'lock'), `${process.pid}\n`);
    await h.download({ force: true });
    expect(h.stderr().split('\n')[0]).toBe(`removed ${dead}, left by an interrupted earlier run`);
    expect(readdirSync(root).sort()).toEqual(['.other.mint-admin-Live12', 'site']);
    expect(readFileSync(join(target, 'index.html'), 'utf8')).toBe('<h1>v1</h1>');
  });
});

describe('failures before the install', () => {
  it('remove the parent directories this run created', async () => {
    const target = join(perTest.root, 'a', 'b', 'c', 'site');
    const h = await perTest.start({ storage: storageError(404, 'NoSuchKey'), archive: () => site('v1'), target });
    await caught(h.download());
    expect(readdirSync(perTest.root)).toEqual([]);
  });

  it('remove the parent directories of --archive this run created, and leave existing ones', async () => {
    mkdirSync(join(perTest.root, 'keep'));
    const target = join(perTest.root, 'keep', 'x', 'site');
    const h = await perTest.start({ storage: storageError(404, 'NoSuchKey'), archive: () => site('v1'), target });
    await caught(h.download({ archivePath: join(perTest.root, 'arch', 'ives', 'site.tgz') }));
    expect(readdirSync(perTest.root)).toEqual(['keep']);
    expect(readdirSync(join(perTest.root, 'keep'))).toEqual([]);
  });
});

describe.skipIf(!CAN_MOUNT_TMPFS)(`on a real small filesystem${TMPFS_SKIP_NOTE}`, () => {
  function mountTmpfs(dir: string, size: string): () => void {
    mkdirSync(dir, { recursive: true });
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).status).toBe(0);
    return () => void spawnSync('umount', ['-l', dir]);
  }

  it('refuses a bundle larger than the free space before fetching a byte', async () => {
    const { h, root } = await setup(() => site('v1'), { sizeBytes: () => 5_000_000 });
    const unmount = mountTmpfs(join(root, 'vol'), '1m');
    try {
      const target = join(root, 'vol', 'site');
      const error = await caught(h.download({ target }));
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toBe(
        `not enough free space for ${target}: the bundle is 5.0 MB and needs at least 10.0 MB with its extraction, but ${join(root, 'vol')} has 1.0 MB free; free some space or choose another directory`,
      );
      expect(h.requests).toHaveLength(0);
      expect(readdirSync(join(root, 'vol'))).toEqual([]);
    } finally {
      unmount();
    }
  });

  it('names a disk that fills during extraction as disk full, and leaves nothing behind', async () => {
    const big = rawTarGz([{ type: 'file', path: 'big.bin', content: Buffer.alloc(3_000_000, 1) }]);
    const { h, root } = await setup(() => big);
    const unmount = mountTmpfs(join(root, 'vol'), '2m');
    try {
      const target = join(root, 'vol', 'site');
      const error = await caught(h.download({ target }));
      expect(error.message).toMatch(
        new RegExp(
          `^disk full while extracting the bundle into ${join(root, 'vol')}/\\.site\\.mint-admin-\\w{6}/tree: free some space and run the command again \\(at entry "big.bin"\\); nothing was installed$`,
        ),
      );
      expect(readdirSync(join(root, 'vol'))).toEqual([]);
    } finally {
      unmount();
    }
  });

  it('names a work directory moved away during extraction as moved, not as an invalid archive', async () => {
    const archive = rawTarGz([
      { type: 'file', path: 'first.bin', content: randomBytes(200_000) },
      { type: 'dir', path: 'late/' },
      { type: 'file', path: 'late/page.html', content: 'late' },
    ]);
    let moved!: () => void;
    const go = new Promise<void>((resolve) => (moved = resolve));
    // Half the archive, then the rest once the work directory has been moved away.
    const halves: Handler = (_req, res) => {
      res.writeHead(200, { 'content-length': String(archive.length) });
      res.write(archive.subarray(0, 100_000));
      void go.then(() => res.end(archive.subarray(100_000)));
    };
    const target = join(perTest.root, 'site');
    const h = await perTest.start({ storage: halves, archive: () => archive, target });
    let work: string | undefined;
    const error = await caught(
      h.download({
        target,
        onProgress: (event) => {
          if (work !== undefined || event.phase !== 'download' || event.bytes === 0) return;
          work = readdirSync(perTest.root).find((name) => name.startsWith('.site.mint-admin-'));
          renameSync(join(perTest.root, work!), join(perTest.root, 'moved'));
          moved();
        },
      }),
    );
    // The entry is the first one written after the move: the one in the chunk that told of progress, or a later one.
    expect(error.message).toMatch(
      new RegExp(
        `^${join(perTest.root, work!, 'tree')} was moved or removed while the bundle was extracted into it \\(at entry "(first\\.bin|late/)"\\); nothing was installed$`,
      ),
    );
    expect(existsSync(target)).toBe(false);
  });

  it('succeeds with a warning naming the path when the old tree cannot be removed', async () => {
    // A mount point inside the old site makes its removal fail (EBUSY), as a read-only directory does for a non-root user.
    const { h, target } = await setup(() => site('v1'));
    mkdirSync(join(target, 'mnt'), { recursive: true });
    writeFileSync(join(target, 'old.html'), 'old');
    mountTmpfs(join(target, 'mnt'), '1m');
    let kept: string | undefined;
    try {
      const result = await h.download({ force: true });
      expect(result.directory).toBe(target);
      expect(readFileSync(join(target, 'index.html'), 'utf8')).toBe('<h1>v1</h1>');
      const warnings = h
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('warning:'));
      kept = /could not remove (\S+\/previous);/.exec(warnings[0] ?? '')?.[1];
      expect(warnings).toEqual([
        `warning: could not remove ${kept}; remove it by hand (the install itself succeeded or was not affected)`,
      ]);
      expect(kept).toMatch(new RegExp(`^${target.replace('/site', '')}/\\.site\\.mint-admin-\\w{6}/previous$`));
    } finally {
      // The mount moved with the old tree; unmount it where it now is.
      for (const at of [
        kept,
        ...readdirSync(join(target, '..'))
          .filter((n) => n.startsWith('.site.mint-admin-'))
          .map((n) => join(target, '..', n, 'previous')),
      ]) {
        if (at) spawnSync('umount', ['-l', join(at, 'mnt')]);
      }
    }
  });
});

it('leaves no temp link behind after a link install', async () => {
  const { h, root } = await setup(() => site('v1'));
  await h.download({ link: true, release: 'r1' });
  expect(readdirSync(root).sort()).toEqual(['.site-releases', 'site']);
  expect(lstatSync(join(root, 'site')).isSymbolicLink()).toBe(true);
});

it('removes an --archive staged by a run killed over a day ago, and leaves a recent one', async () => {
  const { utimesSync } = await import('node:fs');
  const { h, root } = await setup(() => site('v1'));
  const old = join(root, '.site.tgz.mint-admin-0a1b2c3d.partial');
  const recent = join(root, '.site.tgz.mint-admin-4e5f6a7b.partial');
  writeFileSync(old, 'x');
  writeFileSync(recent, 'x');
  // Ages by the download's clock, not the machine's (the library's AdminClient hands it its own).
  const twoDaysAgo = (h.clock.now() - 2 * 24 * 3600 * 1000) / 1000;
  const anHourAgo = (h.clock.now() - 3600 * 1000) / 1000;
  utimesSync(old, twoDaysAgo, twoDaysAgo);
  utimesSync(recent, anHourAgo, anHourAgo);
  await h.download({ archivePath: join(root, 'site.tgz') });
  expect(h.stderr().split('\n')[0]).toBe(`removed ${old}, left by an interrupted earlier run`);
  expect(readdirSync(root).sort()).toEqual(['.site.tgz.mint-admin-4e5f6a7b.partial', 'site', 'site.tgz']);
});
