// What the CLI does to the V8 it runs on, in one place: the flags (v8-flags.ts), the program's code
// cache (code-cache.ts), and the young generation during a download (heap.ts, which the download
// engine calls; a no-op outside the CLI's bundles). main.ts calls this before the program compiles,
// because V8 takes a code cache only under the flags it was made with. The library sets nothing.
import { join, dirname } from 'node:path';
import { cacheChunkOnRequire, codeCacheDir, loadWithCodeCache, type LoadedProgram } from './code-cache.js';
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
  const cacheDir = codeCacheDir(env);
  // Chunks the program requires on first use, each loaded with a code cache of its own: undici (the
  // HTTP client, 320 KB: 40% of what the program was), with a command's first request, so that one
  // sending none (`config`, `mcp` until a tool is called) never reads it; and the MCP SDK's chunk.
  const names = group === 'mcp' ? ['vendor-undici', 'vendor-mcp'] : ['vendor-undici'];
  const chunks =
    requireHere === undefined
      ? []
      : names.map((name) => cacheChunkOnRequire(join(dirname(file), `${name}.cjs`), buildId, cacheDir, importModule, group, requireHere, name));
  const program = loadWithCodeCache<T>(file, buildId, cacheDir, importModule, group, requireHere);
  return {
    exports: program.exports,
    saveCache() {
      program.saveCache();
      for (const c of chunks) c.saveCache();
    },
  };
}
