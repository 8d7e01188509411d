// What the CLI does to the V8 it runs on, in one place: the flags (v8-flags.ts), the program's code
// cache (code-cache.ts), and the young generation during a download (heap.ts, which the download
// engine calls; a no-op outside the CLI's bundles). main.ts calls this before the program compiles,
// because V8 takes a code cache only under the flags it was made with. The library sets nothing.
import { codeCacheDir, loadWithCodeCache, type LoadedProgram } from './code-cache.js';
import { setStartupFlags } from './v8-flags.js';

export type { LoadedProgram } from './code-cache.js';

/**
 * Sets the flags the run of `argv` may need, then loads the program bundle at `file` with the code
 * cache made under them. `requireHere` is a require() of a module in `file`'s directory.
 */
export function loadTunedProgram<T>(
  file: string,
  buildId: string,
  argv: string[],
  env: Record<string, string | undefined>,
  importModule: (specifier: string) => Promise<unknown>,
  requireHere?: NodeJS.Require,
): LoadedProgram<T> {
  const group = argv[0];
  setStartupFlags(group);
  return loadWithCodeCache<T>(file, buildId, codeCacheDir(env), importModule, group, requireHere);
}
