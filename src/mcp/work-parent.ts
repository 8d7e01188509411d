// Node writes by path (it has no openat), so a directory on export_run's way renamed during the call
// takes the download's work directory, lock and all, with it: the download's clean-up by path then
// looks in the wrong place (or through a link out of --root) and leaves it behind. On Linux a handle
// on the directory follows it wherever it is moved: /proc/self/fd/<fd> names where it is now, and the
// work directories this call made there (locked with this pid, not there before) can still go.
import { open, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface HeldDirectory {
  /** Removes the work directories made since it was held, wherever the directory is now. */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/** A hold on `parent`, where the download makes `.<name>.mint-admin-XXXXXX`; undefined when it does not exist yet. */
export async function holdWorkParent(parent: string, name: string): Promise<HeldDirectory | undefined> {
  const handle = await open(parent, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  const prefix = `.${name}.mint-admin-`;
  const workDirs = async (dir: string) => (await readdir(dir).catch(() => [] as string[])).filter((n) => n.startsWith(prefix) && !n.endsWith('.partial'));
  const before = new Set(await workDirs(parent));
  return {
    async sweep() {
      // Elsewhere than Linux there is no /proc/self/fd: nothing to find the directory by (docs/mcp.md).
      const where = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
      if (where === undefined) return;
      for (const entry of await workDirs(where)) {
        if (before.has(entry)) continue;
        const owner = await readFile(join(where, entry, 'lock'), 'utf8').catch(() => '');
        if (owner.trim() === String(process.pid)) await rm(join(where, entry), { recursive: true, force: true }).catch(() => undefined);
      }
    },
    close: () => handle.close(),
  };
}
