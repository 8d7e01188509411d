// Node writes by path (it has no openat), so a directory on export_run's way renamed during the call
// takes the download's work directory, lock and all, with it: the download's clean-up by path then
// looks in the wrong place (or through a link out of --root) and leaves it behind. On Linux a handle
// on the directory follows it wherever it is moved: /proc/self/fd/<fd> names where it is now, and the
// work directories this call made there (locked with this pid, not there before) can still go.
import { open, readlink, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ownWorkDirs } from '../download/leftovers.js';

export interface HeldDirectory {
  /** Removes the work directories made since it was held, wherever the directory is now. */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/** A hold on `parent`, where the download makes its work directory for `name`; undefined when it does not exist yet. */
export async function holdWorkParent(parent: string, name: string): Promise<HeldDirectory | undefined> {
  const handle = await open(parent, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  const before = new Set(await ownWorkDirs(parent, name));
  return {
    async sweep() {
      // Elsewhere than Linux there is no /proc/self/fd: nothing to find the directory by (docs/mcp.md).
      const where = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
      if (where === undefined) return;
      for (const entry of await ownWorkDirs(where, name)) {
        if (!before.has(entry)) await rm(join(where, entry), { recursive: true, force: true }).catch(() => undefined);
      }
    },
    close: () => handle.close(),
  };
}
