import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkArchivePath, checkTarget } from '../../src/download/index.js';
import type { TargetOptions } from '../../src/download/target.js';
import { TargetRefusedError, UsageError } from '../../src/errors.js';
import { withFlags } from '../../src/cli/commands/export/target-flags.js';
import { tempDir } from '../helpers/cli.js';
import { IS_ROOT } from '../helpers/other-user.js';
import { CAN_MOUNT_TMPFS, TMPFS_SKIP_NOTE } from '../helpers/tmpfs.js';
import { exitCodeOf } from '../../src/cli/cli-errors.js';

let root: ReturnType<typeof tempDir>;
beforeEach(() => {
  root = tempDir();
});
afterEach(() => {
  chmodSync(root.path, 0o700);
  root.cleanup();
});

/**
 * The refusal as the CLI prints it. The engine's own words name no flag (a library user passes
 * `force: true`, not --force); a refused target carries its reason and paths, and the CLI words it
 * with its flags (withFlags), keeping class and data.
 */
async function usageError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect(exitCodeOf(error)).toBe(2);
    expect((error as Error).message).not.toMatch(/--|-o |mint-admin /);
    const worded = withFlags(error) as Error;
    if (error instanceof TargetRefusedError) {
      expect(worded).toBeInstanceOf(TargetRefusedError);
      expect(worded).toMatchObject({
        reason: error.reason,
        target: error.target,
        archivePath: error.archivePath,
        protectedAs: error.protectedAs,
      });
      expect(exitCodeOf(worded)).toBe(2);
    }
    return worded.message;
  }
  throw new Error('expected a UsageError');
}

const check = (path: string, opts: Partial<TargetOptions> = {}) =>
  checkTarget(path, { force: false, cwd: '/', home: '/nonexistent-home', ...opts });

describe('checkTarget', () => {
  it.each([
    ['an absent directory', () => undefined, false],
    ['an absent directory under absent parents', () => undefined, false, 'a/b/site'],
    ['an empty directory', (p: string) => mkdirSync(p), false],
    ['a non-empty directory with --force', (p: string) => (mkdirSync(p), writeFileSync(join(p, 'f'), 'x')), true],
  ])('accepts %s, in the directory layout', async (_name, prepare, force, name = 'site') => {
    const path = join(root.path, name);
    prepare(path);
    expect(await check(path, { force })).toMatchObject({ path, layout: 'directory', workParent: join(path, '..') });
  });

  it('resolves a relative target against the working directory', async () => {
    expect((await check('some/relative/dir')).path).toBe(join(process.cwd(), 'some/relative/dir'));
  });

  it('takes a symlink to a directory as the link layout: the new release goes beside the current one', async () => {
    mkdirSync(join(root.path, 'releases', 'r1'), { recursive: true });
    symlinkSync('releases/r1', join(root.path, 'current'));
    expect(await check(join(root.path, 'current'))).toMatchObject({
      path: join(root.path, 'current'),
      layout: 'link',
      current: join(root.path, 'releases', 'r1'),
      releases: join(root.path, 'releases'),
      ownReleases: false,
      workParent: join(root.path, 'releases'),
    });
  });

  it('with --link keeps releases in .<name>-releases beside the link', async () => {
    expect(await check(join(root.path, 'site'), { link: true })).toMatchObject({
      layout: 'link',
      releases: join(root.path, '.site-releases'),
      ownReleases: true,
    });
  });

  it.each([
    [
      'a non-empty directory without --force',
      (p: string) => (mkdirSync(p), writeFileSync(join(p, 'f'), 'x')),
      (p: string) => `${p} is not empty; pass --force to replace its contents, or choose another directory`,
    ],
    [
      'a file',
      (p: string) => writeFileSync(p, 'x'),
      (p: string) => `${p} exists and is not a directory; choose a directory to extract into`,
    ],
    [
      'a dangling symlink',
      (p: string) => symlinkSync(join(p, '..', 'nowhere'), p),
      (p: string) =>
        `${p} is a symbolic link to nothing; remove it or choose another directory (or pass --link to point it at the new release)`,
    ],
    [
      'a symlink to a non-empty directory without --force',
      (p: string) => (mkdirSync(`${p}.r1`), writeFileSync(join(`${p}.r1`, 'f'), 'x'), symlinkSync(`${p}.r1`, p)),
      (p: string) => `${p} is not empty; pass --force to replace its contents, or choose another directory`,
    ],
  ])('refuses %s', async (_name, prepare, message) => {
    const path = join(root.path, 'site');
    prepare(path);
    expect(await usageError(check(path))).toBe(message(path));
  });

  it('refuses --link on a non-empty plain directory, saying how to switch', async () => {
    const path = join(root.path, 'site');
    mkdirSync(path);
    writeFileSync(join(path, 'f'), 'x');
    expect(await usageError(check(path, { force: true, link: true }))).toBe(
      `${path} is a directory, and --link keeps ${path} as a symbolic link to a release: move it away first (mv ${path} ${path}.old), or drop --link`,
    );
  });

  it('refuses the filesystem root', async () => {
    expect(await usageError(check('/', { force: true }))).toBe(
      'cannot extract into the filesystem root /; choose a directory below it',
    );
  });

  it.each([
    ['the home directory', 'home', (r: string) => ({ home: join(r, 'home') }), 'your home directory'],
    ['the current directory', 'work', (r: string) => ({ cwd: join(r, 'work') }), 'the current directory'],
    [
      'a parent of the current directory',
      'work',
      (r: string) => ({ cwd: join(r, 'work', 'deep', 'er') }),
      'a parent of the current directory',
    ],
  ])('refuses to replace %s with --force, even through a symlink', async (_name, dir, where, what) => {
    mkdirSync(join(root.path, 'work', 'deep', 'er'), { recursive: true });
    mkdirSync(join(root.path, 'home'), { recursive: true });
    writeFileSync(join(root.path, dir, 'precious'), 'x');
    symlinkSync(join(root.path, dir), join(root.path, 'alias'));
    for (const shown of [join(root.path, dir), join(root.path, 'alias')]) {
      expect(await usageError(check(shown, { force: true, ...where(root.path) }))).toBe(
        `refusing to replace ${shown} (${what}) with --force; name a directory below it, e.g. -o ${join(shown, 'site')}`,
      );
    }
    // A directory below it is fine.
    expect((await check(join(root.path, dir, 'site'), { force: true, ...where(root.path) })).layout).toBe('directory');
  });

  it.skipIf(IS_ROOT)(
    `refuses a target whose parent cannot be written${IS_ROOT ? ' (skipped: root writes anywhere)' : ''}`,
    async () => {
      chmodSync(root.path, 0o500);
      const path = join(root.path, 'site');
      expect(await usageError(check(path))).toBe(
        `cannot write to ${root.path} (needed for ${path}); choose a directory you can write to`,
      );
    },
  );

  describe.skipIf(!CAN_MOUNT_TMPFS)(`a mount point (a real tmpfs)${TMPFS_SKIP_NOTE}`, () => {
    it('is refused before anything is sent, with a hint, since a rename can never replace it', async () => {
      const mount = join(root.path, 'volume');
      mkdirSync(mount);
      expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mount]).status).toBe(0);
      try {
        for (const force of [false, true]) {
          expect(await usageError(check(mount, { force }))).toBe(
            `${mount} is a mount point, which cannot be replaced by a rename; extract into a directory inside it (-o ${mount}/site), or keep releases inside it with a link (-o ${mount}/site --link)`,
          );
        }
        expect((await check(join(mount, 'site'))).layout).toBe('directory');
      } finally {
        spawnSync('umount', [mount]);
      }
    });
  });
});

describe('checkArchivePath', () => {
  it('accepts a file beside the target', async () => {
    const archive = join(root.path, 'site.tar.gz');
    expect(await checkArchivePath(archive, await check(join(root.path, 'site')))).toBe(archive);
  });

  it('refuses a path inside the target, which would be replaced', async () => {
    const archive = join(root.path, 'site', 'site.tar.gz');
    expect(await usageError(checkArchivePath(archive, await check(join(root.path, 'site'))))).toBe(
      `--archive ${archive} is inside the directory being replaced; keep the archive somewhere else`,
    );
  });

  it('refuses a path inside the target seen through a symlink (docs -> releases/r1)', async () => {
    mkdirSync(join(root.path, 'releases', 'r1'), { recursive: true });
    writeFileSync(join(root.path, 'releases', 'r1', 'index.html'), 'x');
    symlinkSync('releases/r1', join(root.path, 'docs'));
    const plan = await check(join(root.path, 'docs'), { force: true });
    for (const archive of [join(root.path, 'docs', 'site.tgz'), join(root.path, 'releases', 'r1', 'site.tgz')]) {
      expect(await usageError(checkArchivePath(archive, plan))).toBe(
        `--archive ${archive} is inside the directory being replaced; keep the archive somewhere else`,
      );
    }
  });

  it('refuses a path whose directory is a symlink into the target', async () => {
    mkdirSync(join(root.path, 'site'));
    symlinkSync(join(root.path, 'site'), join(root.path, 'into'));
    const archive = join(root.path, 'into', 'a.tgz');
    expect(await usageError(checkArchivePath(archive, await check(join(root.path, 'site'))))).toBe(
      `--archive ${archive} is inside the directory being replaced; keep the archive somewhere else`,
    );
  });

  it('refuses a directory', async () => {
    expect(await usageError(checkArchivePath(root.path, await check(join(root.path, 'site'))))).toBe(
      `--archive ${root.path} is a directory; give a file name such as ${join(root.path, 'site.tar.gz')}`,
    );
  });
});
