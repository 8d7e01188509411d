// How the extracted tree takes the target's place (target.ts decides the layout):
// - directory: the work directory is beside the target, so each move is a rename; a non-empty target goes into the
//   work directory first and is put back if the second rename fails. A run killed between the two is repaired by
//   the next (leftovers.ts).
// - link: the tree becomes a release and a fresh symlink to it is renamed over the link, so a reader sees the old
//   release or the new, never neither; with --link, releases beyond the newest N are pruned.
// Once the tree is in place the install has succeeded: removing what it replaced is tidying, failures are warnings.
import { copyFile, lstat, readdir, rename, rm, rmdir, stat, symlink, unlink, utimes } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MintAdminError } from '../errors.js';
import { makeDirectory } from '../make-directory.js';
import { SITE_DIRECTORY_MODE } from './limits.js';
import { swapLinkName } from './leftovers.js';
import { linkTextFor, notEmpty, targetState, type TargetPlan } from './target.js';

/** The old content could not be put back; it is kept in the work directory, which must not be removed. */
export class RestoreFailedError extends MintAdminError {
  constructor(
    readonly kept: string,
    cause: unknown,
  ) {
    super(
      `could not install the new content nor put the old one back; the previous content of the directory is in ${kept}`,
      { cause },
    );
  }
}

export interface Installed {
  /** Where the files now are (the release directory in the link layout). */
  directory: string;
  /** Trees that were replaced and can go; removing them is tidying (tidyAway). */
  replaced: string[];
}

/** Moves `tree` into place; re-checks the target, since time passed since checkTarget. */
export async function installTree(tree: string, plan: TargetPlan, work: string, release: string): Promise<Installed> {
  return plan.layout === 'link' ? installRelease(tree, plan, release) : installDirectory(tree, plan, work);
}

async function installDirectory(tree: string, plan: TargetPlan, work: string): Promise<Installed> {
  const target = plan.path;
  const state = await targetState(target, plan.shown);
  if (state === 'non-empty' && !plan.force) throw notEmpty(plan.shown);
  if (state !== 'non-empty') {
    // rename() replaces an empty directory atomically; it fails if something appeared meanwhile.
    await rename(tree, target).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOTEMPTY' || error.code === 'EEXIST') throw notEmpty(plan.shown);
      throw error;
    });
    return { directory: target, replaced: [] };
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
  return { directory: target, replaced: [previous] };
}

async function installRelease(tree: string, plan: TargetPlan, name: string): Promise<Installed> {
  const releases = plan.releases!;
  const release = await freeName(releases, name);
  await rename(tree, release);
  // The release's age orders pruning; a rename keeps the extraction's times, so set it to now.
  const now = new Date();
  await utimes(release, now, now).catch(() => undefined);
  const temp = join(dirname(plan.path), swapLinkName(basename(plan.path)));
  try {
    await symlink(await linkTextFor(plan.path, release), temp);
    // An empty directory where the link goes (checked in target.ts) held nothing a reader could miss.
    if ((await targetState(plan.path, plan.shown).catch(() => 'absent')) === 'empty' && !(await isLink(plan.path)))
      await rmdir(plan.path);
    await rename(temp, plan.path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    await rm(release, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
  return { directory: release, replaced: plan.ownReleases ? await oldReleases(releases, release, plan.keep ?? 3) : [] };
}

async function isLink(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isSymbolicLink() ?? false;
}

function succeeds(work: Promise<unknown>): Promise<boolean> {
  return work.then(() => true).catch(() => false);
}

/** `<name>`, or `<name>-2`, `<name>-3`... when a release of that name is already there (the same job installed again). */
async function freeName(dir: string, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = join(dir, n === 1 ? name : `${name}-${n}`);
    if (!(await succeeds(stat(candidate)))) return candidate;
  }
}

/** Releases beyond the newest `keep` (the one just installed always kept), oldest last. */
async function oldReleases(dir: string, current: string, keep: number): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => !name.startsWith('.'));
  const dated = await Promise.all(
    names.map(async (name) => ({
      path: join(dir, name),
      mtime: await stat(join(dir, name))
        .then((i) => (i.isDirectory() ? i.mtimeMs : -1))
        .catch(() => -1),
    })),
  );
  const releases = dated
    .filter((r) => r.mtime >= 0 && r.path !== current)
    .sort((a, b) => b.mtime - a.mtime || b.path.localeCompare(a.path));
  return releases.slice(Math.max(0, keep - 1)).map((r) => r.path);
}

/** Removes what the install replaced; returns the paths that could not be removed (warnings). */
export async function tidyAway(paths: string[]): Promise<string[]> {
  const failed: string[] = [];
  for (const path of paths) if (!(await succeeds(rm(path, { recursive: true, force: true })))) failed.push(path);
  return failed;
}

/** Puts the archive beside its final path under a temporary name (a rename, or a copy across filesystems). */
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

/** Creates `dir` and missing parents with the site's mode; returns those it created, deepest last (removeCreated). */
export function makeParents(dir: string): string[] {
  return makeDirectory(dir, SITE_DIRECTORY_MODE);
}

/** Removes directories makeParents created, deepest first, only while they are empty. */
export async function removeCreated(created: string[]): Promise<void> {
  for (const dir of [...created].reverse()) {
    if (!(await succeeds(rmdir(dir)))) return;
  }
}

/** Removes a work directory. The extraction writes synchronously, so once stopped no write of it can land. */
export async function removeWorkDir(work: string): Promise<boolean> {
  return succeeds(rm(work, { recursive: true, force: true, maxRetries: 3, retryDelay: 20 }));
}
