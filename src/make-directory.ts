// mkdir -p that ends. Node's own `mkdirSync(path, { recursive: true })` (Node 20 to 24) spins forever,
// synchronously, where a parent exists but refuses a child with ENOENT, as /proc and /sys do: the
// event loop never runs again, so not even SIGTERM or Ctrl-C ends the run (`--parquet /proc/x` did).
// Here each missing component is made in turn, once, and any error but "it exists" is thrown.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Makes `path` and its missing parents (new ones with `mode`); an error when one cannot be made.
 * Returns the directories it made, outermost first (a failed run can remove exactly those).
 */
export function makeDirectory(path: string, mode = 0o777): string[] {
  const missing: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    const stats = statSync(at, { throwIfNoEntry: false });
    if (stats) {
      if (!stats.isDirectory())
        throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR', path: at });
      break;
    }
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  const made: string[] = [];
  for (const dir of missing) {
    try {
      mkdirSync(dir, { mode });
      made.push(dir);
    } catch (error) {
      // Made by another process in the meantime: as good as made here (but not ours to remove).
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(dir).isDirectory()) throw error;
    }
  }
  return made;
}
