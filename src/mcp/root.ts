// export_run writes only under --root. A directory an agent names is resolved inside it, and refused
// (before anything is sent) when it is absolute, climbs out with "..", or reaches outside through a
// symbolic link anywhere on the way: the deepest part that exists is resolved with realpath and must
// still be under the real root. The target itself may not be a symbolic link (the download's link
// layout would swap it, wherever it points).
import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
};

/** The absolute target for `directory` under `root`, or a UsageError that says why not. */
export async function targetUnderRoot(root: string, directory: string): Promise<string> {
  const refuse = (why: string) =>
    new UsageError(
      `directory ${JSON.stringify(directory)} is refused: ${why}; give a path relative to the server's root, below it (e.g. "site")`,
    );
  if (directory.trim() === '' || /[\x00-\x1f\x7f]/.test(directory))
    throw refuse('it is empty or holds control characters');
  if (isAbsolute(directory)) throw refuse('it is absolute');
  const realRoot = await realpath(root);
  const target = resolve(realRoot, directory);
  if (!inside(realRoot, target)) throw refuse('it is not below the root');
  const info = await lstat(target).catch(() => undefined);
  if (info?.isSymbolicLink()) throw refuse('it is a symbolic link');
  // Every existing part on the way must stay inside once links are followed. A part that exists but
  // does not resolve (a link to nowhere) is refused too: the download would fail on it after the start.
  let existing = dirname(target);
  for (;;) {
    const real = await realpath(existing).catch(() => undefined);
    if (real !== undefined) {
      if (real !== realRoot && !inside(realRoot, real))
        throw refuse('a symbolic link on its way leads out of the root');
      break;
    }
    if ((await lstat(existing).catch(() => undefined)) !== undefined) {
      throw refuse('it does not resolve inside the root (a symbolic link on its way leads nowhere)');
    }
    existing = dirname(existing);
  }
  return target;
}

/** Throws as targetUnderRoot does, or when `directory` no longer resolves to `target` (what it did when checked). */
export async function sameTargetUnderRoot(root: string, directory: string, target: string): Promise<void> {
  if ((await targetUnderRoot(root, directory)) !== target) {
    throw new UsageError(
      `directory ${JSON.stringify(directory)} is refused: it no longer leads where it did when the export started; give a path relative to the server's root, below it (e.g. "site")`,
    );
  }
}
