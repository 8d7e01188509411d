// Which file a path leads to, whatever its spelling (relative, `..`, symbolic links, hard links): the
// device and inode of a file that exists, else the real path of the name a write would create
// (a dangling link followed to where it points, as open(2) would follow it to create the file).
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** Links followed before giving up, as the kernel does (ELOOP at 40). */
const MAX_LINKS = 40;

export async function fileIdentity(path: string): Promise<string> {
  let at = resolve(path);
  for (let hop = 0; hop < MAX_LINKS; hop++) {
    const link = await lstat(at).catch(() => undefined);
    if (link?.isSymbolicLink()) {
      const target = await stat(at).catch(() => undefined);
      if (target) return `inode ${target.dev}:${target.ino}`;
      at = resolve(dirname(at), await readlink(at));
      continue;
    }
    if (link) return `inode ${link.dev}:${link.ino}`;
    break;
  }
  const parent = await realpath(dirname(at)).catch(() => dirname(at));
  return `path ${join(parent, basename(at))}`;
}

/** Whether `a` and `b` lead to the same file, or to the same name where neither exists yet. */
export async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([fileIdentity(a), fileIdentity(b)]);
  return x === y;
}
