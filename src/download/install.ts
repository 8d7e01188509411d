// Where the extraction goes and how it takes the target's place. Everything is staged in one work
// directory BESIDE the target (same filesystem, so each move is an atomic rename), and the target
// changes only in the last step: absent or empty -> rename; non-empty with --force -> move the old
// one into the work directory, rename the new one in, put the old one back if that fails.
import { constants } from 'node:fs';
import { access, copyFile, lstat, mkdtemp, readdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { CliError, EXIT_CODES, UsageError } from '../errors.js';

type TargetState = 'absent' | 'empty' | 'non-empty';

/**
 * Checks the target before anything is sent: UsageError when it is a file, is non-empty without
 * `force`, or its parent cannot be written. Returns the absolute path; a symlink to a directory is
 * resolved, so the new content replaces the directory it points at and the link stays.
 */
export async function checkTarget(target: string, force: boolean): Promise<string> {
  let path = resolve(target);
  if (dirname(path) === path) throw new UsageError(`cannot extract into the filesystem root ${path}; choose a directory below it`);
  const link = await lstat(path).catch(() => undefined);
  if (link?.isSymbolicLink()) {
    path = await realpath(path).catch(() => {
      throw new UsageError(`${target} is a symbolic link to nothing; remove it or choose another directory`);
    });
  }
  const state = await targetState(path, target);
  if (state === 'non-empty' && !force) throw notEmpty(target);
  await checkWritable(state === 'absent' ? nearestExisting(dirname(path)) : Promise.resolve(dirname(path)), target);
  return path;
}

/** `--archive`: not a directory, not inside the target (it would be replaced), parent writable. */
export async function checkArchivePath(archivePath: string, target: string): Promise<string> {
  const path = resolve(archivePath);
  if (path === target || path.startsWith(target + sep)) {
    throw new UsageError(`--archive ${archivePath} is inside the directory being replaced; keep the archive somewhere else`);
  }
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) throw new UsageError(`--archive ${archivePath} is a directory; give a file name such as ${join(archivePath, 'site.tar.gz')}`);
  await checkWritable(nearestExisting(dirname(path)), archivePath);
  return path;
}

async function targetState(path: string, shown: string): Promise<TargetState> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new UsageError(`cannot use ${shown}: ${error.message}`);
  });
  if (!info) return 'absent';
  if (!info.isDirectory()) throw new UsageError(`${shown} exists and is not a directory; choose a directory to extract into`);
  return (await readdir(path)).length === 0 ? 'empty' : 'non-empty';
}

function notEmpty(shown: string): UsageError {
  return new UsageError(`${shown} is not empty; pass --force to replace its contents, or choose another directory`);
}

async function nearestExisting(path: string): Promise<string> {
  for (let dir = path; ; dir = dirname(dir)) {
    const info = await stat(dir).catch(() => undefined);
    if (info) {
      if (!info.isDirectory()) throw new UsageError(`${dir} is not a directory`);
      return dir;
    }
    if (dirname(dir) === dir) return dir;
  }
}

async function checkWritable(dirPromise: Promise<string>, shown: string): Promise<void> {
  const dir = await dirPromise;
  try {
    await access(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw new UsageError(`cannot write to ${dir} (needed for ${shown}); choose a directory you can write to`);
  }
}

/** A fresh work directory beside the target: `<parent>/.<name>.mint-admin-XXXXXX`. */
export function createWorkDir(target: string): Promise<string> {
  return mkdtemp(join(dirname(target), `.${basename(target)}.mint-admin-`));
}

/** The old content could not be put back; it is kept in the work directory, which must not be removed. */
export class RestoreFailedError extends CliError {
  constructor(readonly kept: string, cause: unknown) {
    super(`could not install the new content nor put the old one back; the previous content of the directory is in ${kept}`, EXIT_CODES.api, { cause });
  }
}

/** Moves `tree` into `target`; re-checks the target, since time passed since checkTarget. */
export async function installTree(tree: string, target: string, force: boolean, work: string): Promise<void> {
  const state = await targetState(target, target);
  if (state === 'non-empty' && !force) throw notEmpty(target);
  if (state !== 'non-empty') {
    // rename() replaces an empty directory atomically; it fails if something appeared meanwhile.
    await rename(tree, target).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOTEMPTY' || error.code === 'EEXIST') throw notEmpty(target);
      throw error;
    });
    return;
  }
  const previous = join(work, 'previous');
  await rename(target, previous);
  try {
    await rename(tree, target);
  } catch (error) {
    await rename(previous, target).catch((restoreError: unknown) => {
      throw new RestoreFailedError(previous, restoreError);
    });
    throw error;
  }
}

/**
 * Puts the archive beside its final path under a temporary name (a rename, or a copy across
 * filesystems); `commitArchive` then renames it into place.
 */
export async function stageArchive(file: string, archivePath: string, suffix: string): Promise<string> {
  const staged = join(dirname(archivePath), `.${basename(archivePath)}.mint-admin-${suffix}.partial`);
  try {
    await rename(file, staged);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(file, staged);
  }
  return staged;
}

export async function commitArchive(staged: string, archivePath: string): Promise<void> {
  await rename(staged, archivePath);
}

/**
 * Removes a work directory. Extraction writes synchronously, chunk by chunk (extract.ts), so once it
 * has stopped no write of it can land while this walks the tree.
 */
export async function removeWorkDir(work: string): Promise<void> {
  await rm(work, { recursive: true, force: true, maxRetries: 3, retryDelay: 20 });
}
