// Work directories `<parent>/.<name>.mint-admin-XXXXXX`, each locked with its run's pid. A run killed outright leaves
// its own, maybe with the old tree inside (`previous/`, between the two renames); the next run in that parent deals
// with one whose owner is gone (or older than a day: a reused pid, another host) first, and says what it did.
// The --link swap's temporary symlink `.<name>.mint-admin-link-<pid>-<time>` is stale on the same terms.
import { readFileSync, type RmOptions } from 'node:fs';
import { lstat, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { processAlive } from '../lock-file.js';

const WORK_NAME = /^\.(.+)\.mint-admin-[A-Za-z0-9]{6}$/;
/** An --archive staged beside its final name (install.ts stageArchive); it has no lock, so only age makes it stale. */
const STAGED_ARCHIVE = /^\..+\.mint-admin-[0-9a-f]{8}\.partial$/;
const DAY_MS = 24 * 60 * 60 * 1000;
const SWAP_LINK = /^\..+\.mint-admin-link-(\d+)-[0-9a-z]+$/;

/** The name of the temporary link a --link swap renames over the target `name` (install.ts). */
export function swapLinkName(name: string): string {
  return `.${name}.mint-admin-link-${process.pid}-${Date.now().toString(36)}`;
}

/** A fresh work directory beside its final place, locked with our pid. */
export async function createWorkDir(parent: string, name: string): Promise<string> {
  const work = await mkdtemp(join(parent, `.${name}.mint-admin-`));
  await writeFile(join(work, 'lock'), `${process.pid}\n`);
  return work;
}

/** The work directories for `name` in `parent` that this process made (their lock holds our pid). */
export async function ownWorkDirs(parent: string, name: string): Promise<string[]> {
  const own: string[] = [];
  for (const entry of await readdir(parent).catch(() => [] as string[])) {
    if (WORK_NAME.exec(entry)?.[1] !== name) continue;
    const owner = await readFile(join(parent, entry, 'lock'), 'utf8').catch(() => '');
    if (owner.trim() === String(process.pid)) own.push(entry);
  }
  return own;
}

export interface LeftoverReport {
  /** One sentence per thing done, for the user. */
  said: string[];
  /** Paths that could not be removed (warnings, not failures). */
  failed: string[];
}

/** Removes the stale leftovers in `parent`, first putting back a previous tree whose target is missing. */
export async function sweepLeftovers(parent: string, now: number, report: LeftoverReport): Promise<void> {
  const names = await readdir(parent).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(parent, name);
    const swap = SWAP_LINK.exec(name);
    const work = WORK_NAME.exec(name);
    if (STAGED_ARCHIVE.test(name)) await removeStaleArchive(path, now, report);
    else if (swap) await removeStaleSwapLink(path, Number(swap[1]), now, report);
    else if (work && (await isStale(path, now))) await removeStaleWork(path, join(parent, work[1]!), report);
  }
}

/** A stale work directory goes, after its `previous/` tree is put back where the target is missing. */
async function removeStaleWork(work: string, target: string, report: LeftoverReport): Promise<void> {
  const previous = join(work, 'previous');
  const hasPrevious = (await lstat(previous).catch(() => undefined))?.isDirectory() ?? false;
  if (hasPrevious && (await lstat(target).catch(() => undefined)) === undefined) {
    try {
      await rename(previous, target);
      report.said.push(`restored ${target} from an interrupted earlier run (it was left in ${work})`);
    } catch {
      report.said.push(
        `an interrupted earlier run left the previous ${basename(target)} in ${previous}; it could not be put back`,
      );
      return;
    }
  }
  await removeLeftover(work, report, { recursive: true, maxRetries: 2, retryDelay: 20 });
}

async function removeLeftover(path: string, report: LeftoverReport, options: RmOptions = {}): Promise<void> {
  try {
    await rm(path, { force: true, ...options });
    report.said.push(`removed ${path}, left by an interrupted earlier run`);
  } catch {
    report.failed.push(path);
  }
}

async function removeStaleArchive(path: string, now: number, report: LeftoverReport): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info?.isFile() && now - info.mtimeMs > DAY_MS) await removeLeftover(path, report);
}

/** Only a symlink is ours to remove (rm on a link removes the link, never what it points at). */
async function removeStaleSwapLink(path: string, pid: number, now: number, report: LeftoverReport): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink() && (now - info.mtimeMs > DAY_MS || !processAlive(pid))) await removeLeftover(path, report);
}

async function isStale(work: string, now: number): Promise<boolean> {
  const info = await stat(work).catch(() => undefined);
  if (!info?.isDirectory()) return false;
  if (now - info.mtimeMs > DAY_MS) return true;
  let pid: number;
  try {
    pid = Number(readFileSync(join(work, 'lock'), 'utf8').trim());
  } catch {
    // No lock file yet: a run that has just created the directory. Only age makes it stale.
    return false;
  }
  return !processAlive(pid);
}
