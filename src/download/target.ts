// Every check on where an extraction goes, made on resolved paths before the first request so a refusal costs no
// export: the layout, whether a rename can swap it (not a mount point), whether it is protected, whether we can write
// there, and (once the bundle's size is known) whether there is room.
import { constants } from 'node:fs';
import { access, lstat, readdir, readlink, realpath, stat, statfs } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { PROTECTED_NAMES, TargetRefusedError, UsageError, type ProtectedDirectory } from '../errors.js';
import { formatBytes } from '../output/progress.js';

/** `directory`: replaced by two renames (old aside, new in); `link`: a symlink to a release, swapped by one rename. */
export type Layout = 'directory' | 'link';

export interface TargetOptions {
  force: boolean;
  /** --link: keep releases in `.<name>-releases/` beside a symlink `<name>`, created if needed. */
  link?: boolean;
  /** --keep with --link (default 3). */
  keep?: number;
  /** For tests: the directories --force must never replace. */
  cwd?: string;
  home?: string;
}

export interface TargetPlan {
  /** As the user gave it, for messages. */
  shown: string;
  /** Absolute, not resolved (the link itself in the link layout). */
  path: string;
  layout: Layout;
  force: boolean;
  /** The real directory now there (directory layout), or the release the link points at; undefined when none. */
  current: string | undefined;
  /** Link layout: where releases live (ours `.<name>-releases`, or the directory of the current release). */
  releases: string | undefined;
  /** The releases are ours (--link), so old ones may be pruned. */
  ownReleases: boolean;
  /** --keep: releases --link keeps, the new one included. */
  keep?: number;
  /** Where the work directory goes: on the same filesystem as the final place, so moves are renames. */
  workParent: string;
}

type State = 'absent' | 'empty' | 'non-empty';

export async function checkTarget(target: string, opts: TargetOptions): Promise<TargetPlan> {
  const path = resolve(target);
  if (dirname(path) === path)
    throw new UsageError(`cannot extract into the filesystem root ${path}; choose a directory below it`);
  const info = await lstat(path).catch(() => undefined);
  const plan = info?.isSymbolicLink()
    ? await linkPlan(target, path, opts)
    : await directoryPlan(target, path, info !== undefined, opts);
  await refuseDangerous(plan, opts);
  plan.keep = opts.keep;
  await checkWritable(await nearestExisting(dirname(path)), target);
  if (plan.workParent !== dirname(path)) await checkWritable(await nearestExisting(plan.workParent), target);
  return plan;
}

/** The target is a symlink: always the link layout (the rename of one link is the atomic swap). */
async function linkPlan(shown: string, path: string, opts: TargetOptions): Promise<TargetPlan> {
  const current = await realpath(path).catch(() => undefined);
  if (current === undefined && !opts.link) {
    throw new TargetRefusedError(
      `${shown} is a symbolic link to nothing; remove it or choose another directory (or use the link layout to point it at the new release)`,
      'dangling-link',
      shown,
    );
  }
  if (current !== undefined && (await targetState(current, shown)) === 'non-empty' && !opts.force)
    throw notEmpty(shown);
  const releases = opts.link || current === undefined ? ownReleasesDir(path) : dirname(current);
  const ownReleases = Boolean(opts.link);
  return { shown, path, layout: 'link', force: opts.force, current, releases, ownReleases, workParent: releases };
}

async function directoryPlan(shown: string, path: string, exists: boolean, opts: TargetOptions): Promise<TargetPlan> {
  const state = exists ? await targetState(path, shown) : 'absent';
  if (state === 'non-empty' && !opts.force) throw notEmpty(shown);
  const base = { shown, path, force: opts.force };
  if (exists) await refuseMountPoint(path, shown);
  if (opts.link) {
    if (state === 'non-empty') {
      throw new TargetRefusedError(
        `${shown} is a directory, and the link layout keeps ${shown} as a symbolic link to a release: move it away first (mv ${shown} ${shown}.old), or install without the link layout`,
        'link-over-directory',
        shown,
      );
    }
    const releases = ownReleasesDir(path);
    return { ...base, layout: 'link', current: undefined, releases, ownReleases: true, workParent: releases };
  }
  const current = exists ? await realpath(path) : undefined;
  return { ...base, layout: 'directory', current, releases: undefined, ownReleases: false, workParent: dirname(path) };
}

export function ownReleasesDir(linkPath: string): string {
  return join(dirname(linkPath), `.${basename(linkPath)}-releases`);
}

/** A mount point cannot be renamed (EBUSY): said now, not after the download (a bind mount of one device is missed). */
async function refuseMountPoint(path: string, shown: string): Promise<void> {
  const [self, parent] = await Promise.all([stat(path), stat(dirname(path))]);
  if (self.dev !== parent.dev) {
    throw new TargetRefusedError(
      `${shown} is a mount point, which cannot be replaced by a rename; extract into a directory inside it (such as ${join(shown, 'site')}), or keep releases inside it with the link layout`,
      'mount-point',
      shown,
    );
  }
}

/** `/`, the home directory, the working directory or one of its parents: never replaced, even with --force. */
async function refuseDangerous(plan: TargetPlan, opts: TargetOptions): Promise<void> {
  if (!plan.force || plan.current === undefined) return;
  const real = plan.current;
  const cwd = await realpath(opts.cwd ?? process.cwd()).catch(() => resolve(opts.cwd ?? process.cwd()));
  const home = await realpath(opts.home ?? homedir()).catch(() => undefined);
  const what: ProtectedDirectory | undefined =
    dirname(real) === real
      ? 'filesystem-root'
      : real === home
        ? 'home'
        : real === cwd
          ? 'working-directory'
          : cwd.startsWith(real + sep)
            ? 'working-directory-parent'
            : undefined;
  if (what) {
    throw new TargetRefusedError(
      `refusing to replace ${plan.shown} (${PROTECTED_NAMES[what]}), even with replacing allowed; name a directory below it, e.g. ${join(plan.shown, 'site')}`,
      'protected',
      plan.shown,
      { protectedAs: what },
    );
  }
}

/** `--archive`: not a directory, not inside what is replaced (checked on real paths), parent writable. */
export async function checkArchivePath(archivePath: string, plan: TargetPlan): Promise<string> {
  const path = resolve(archivePath);
  const existing = await nearestExisting(dirname(path));
  const real = join(await realpath(existing), relative(existing, dirname(path)), basename(path));
  const inside = (dir: string | undefined) =>
    dir !== undefined && (real === dir || real.startsWith(dir + sep) || path === dir || path.startsWith(dir + sep));
  if (inside(plan.path) || inside(plan.current) || (plan.ownReleases && inside(plan.releases))) {
    throw new TargetRefusedError(
      `the archive path ${archivePath} is inside the directory being replaced; keep the archive somewhere else`,
      'archive-inside',
      plan.shown,
      { archivePath },
    );
  }
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) {
    throw new TargetRefusedError(
      `the archive path ${archivePath} is a directory; give a file name such as ${join(archivePath, 'site.tar.gz')}`,
      'archive-is-directory',
      plan.shown,
      { archivePath },
    );
  }
  await checkWritable(await nearestExisting(dirname(path)), archivePath);
  return path;
}

/** Room for the archive and at least as much again for its extraction; silent where statfs says nothing. */
export async function checkFreeSpace(dir: string, sizeBytes: number, shown: string): Promise<void> {
  const fs = await statfs(dir).catch(() => undefined);
  if (!fs || sizeBytes <= 0) return;
  const free = fs.bavail * fs.bsize;
  const needed = 2 * sizeBytes;
  if (free < needed) {
    throw new UsageError(
      `not enough free space for ${shown}: the bundle is ${formatBytes(sizeBytes)} and needs at least ${formatBytes(needed)} with its extraction, but ${dir} has ${formatBytes(free)} free; free some space or choose another directory`,
    );
  }
}

export async function targetState(path: string, shown: string): Promise<State> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new UsageError(`cannot use ${shown}: ${error.message}`);
  });
  if (!info) return 'absent';
  if (!info.isDirectory())
    throw new UsageError(`${shown} exists and is not a directory; choose a directory to extract into`);
  return (await readdir(path)).length === 0 ? 'empty' : 'non-empty';
}

export function notEmpty(shown: string): TargetRefusedError {
  return new TargetRefusedError(
    `${shown} is not empty; allow replacing its contents, or choose another directory`,
    'not-empty',
    shown,
  );
}

export async function nearestExisting(path: string): Promise<string> {
  for (let dir = path; ; dir = dirname(dir)) {
    const info = await stat(dir).catch(() => undefined);
    if (info) {
      if (!info.isDirectory()) throw new UsageError(`${dir} is not a directory`);
      return dir;
    }
    if (dirname(dir) === dir) return dir;
  }
}

async function checkWritable(dir: string, shown: string): Promise<void> {
  try {
    await access(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw new UsageError(`cannot write to ${dir} (needed for ${shown}); choose a directory you can write to`);
  }
  const kind = KERNEL_FILESYSTEMS.get((await statfs(dir).catch(() => undefined))?.type ?? -1);
  if (kind !== undefined)
    throw new UsageError(
      `cannot install ${shown} under ${dir}: it is the kernel's ${kind} filesystem; choose a directory on a disk`,
    );
}

/** Linux kernel filesystems (statfs f_type), where root passes access(W_OK) but no directory can be made. */
const KERNEL_FILESYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x1cd1, 'devpts'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0xcafe4a11, 'bpf'],
  [0x62656570, 'configfs'],
]);

/** What the link points at, in the link's own style (relative stays relative). */
export async function linkTextFor(linkPath: string, release: string): Promise<string> {
  const existing = await readlink(linkPath).catch(() => undefined);
  if (existing !== undefined && existing.startsWith('/')) return release;
  return relative(dirname(linkPath), release);
}
