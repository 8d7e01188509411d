import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkArchivePath, checkTarget } from '../../src/download/index.js';
import { UsageError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';

let root: ReturnType<typeof tempDir>;
beforeEach(() => {
  root = tempDir();
});
afterEach(() => {
  chmodSync(root.path, 0o700);
  root.cleanup();
});

async function usageError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('checkTarget', () => {
  it.each([
    ['an absent directory', () => undefined, false],
    ['an absent directory under absent parents', () => undefined, false, 'a/b/site'],
    ['an empty directory', (p: string) => mkdirSync(p), false],
    ['a non-empty directory with --force', (p: string) => (mkdirSync(p), writeFileSync(join(p, 'f'), 'x')), true],
  ])('accepts %s', async (_name, prepare, force, name = 'site') => {
    const path = join(root.path, name);
    prepare(path);
    expect(await checkTarget(path, force)).toBe(path);
  });

  it('resolves a relative target against the working directory', async () => {
    expect(await checkTarget('some/relative/dir', false)).toBe(join(process.cwd(), 'some/relative/dir'));
  });

  it('follows a symlink to a directory, so the directory is replaced and the link kept', async () => {
    mkdirSync(join(root.path, 'real'));
    symlinkSync(join(root.path, 'real'), join(root.path, 'current'));
    expect(await checkTarget(join(root.path, 'current'), false)).toBe(join(root.path, 'real'));
  });

  it.each([
    ['a non-empty directory without --force', (p: string) => (mkdirSync(p), writeFileSync(join(p, 'f'), 'x')), (p: string) => `${p} is not empty; pass --force to replace its contents, or choose another directory`],
    ['a file', (p: string) => writeFileSync(p, 'x'), (p: string) => `${p} exists and is not a directory; choose a directory to extract into`],
    ['a dangling symlink', (p: string) => symlinkSync(join(p, '..', 'nowhere'), p), (p: string) => `${p} is a symbolic link to nothing; remove it or choose another directory`],
  ])('refuses %s', async (_name, prepare, message) => {
    const path = join(root.path, 'site');
    prepare(path);
    expect(await usageError(checkTarget(path, false))).toBe(message(path));
  });

  it('refuses the filesystem root', async () => {
    expect(await usageError(checkTarget('/', true))).toBe('cannot extract into the filesystem root /; choose a directory below it');
  });

  it.skipIf(process.getuid?.() === 0)('refuses a target whose parent cannot be written', async () => {
    chmodSync(root.path, 0o500);
    const path = join(root.path, 'site');
    expect(await usageError(checkTarget(path, false))).toBe(`cannot write to ${root.path} (needed for ${path}); choose a directory you can write to`);
  });
});

describe('checkArchivePath', () => {
  it('accepts a file beside the target', async () => {
    const archive = join(root.path, 'site.tar.gz');
    expect(await checkArchivePath(archive, join(root.path, 'site'))).toBe(archive);
  });

  it('refuses a path inside the target, which would be replaced', async () => {
    const archive = join(root.path, 'site', 'site.tar.gz');
    expect(await usageError(checkArchivePath(archive, join(root.path, 'site')))).toBe(`--archive ${archive} is inside the directory being replaced; keep the archive somewhere else`);
  });

  it('refuses a directory', async () => {
    expect(await usageError(checkArchivePath(root.path, join(root.path, 'site')))).toBe(`--archive ${root.path} is a directory; give a file name such as ${join(root.path, 'site.tar.gz')}`);
  });
});
