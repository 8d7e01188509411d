// Loads the bundled program (dist/cli/program.cjs) with V8's code cache, so a run skips compiling
// the ~190 KB bundle and every function it ran last time. Node 20 has no module.enableCompileCache(),
// so this is the v8.Script `cachedData` way; it works the same on later Node versions.
//
// The cache is code this process will run, so it is held to the same rule as the config file: it is
// read only from a directory and a file that are ours, not symbolic links and not writable by group
// or others, else it is ignored. V8 itself rejects data from another V8 version, other flags or a
// source of another length; the file name carries the build's id so a cache never meets another
// build's source of the same length. Writes are atomic (a fresh 0600 file, renamed into place).
// Any failure only costs the speed-up: the program then loads as if there were no cache.
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { Script } from 'node:vm';
import { makeDirectory } from '../make-directory.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const CACHE_SUFFIX = '.v8cache';

/** $XDG_CACHE_HOME/mint-admin, else ~/.cache/mint-admin (a relative XDG path is ignored, as the spec says). */
export function codeCacheDir(env: Record<string, string | undefined>): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.cache'), 'mint-admin');
}

/** Ours, and no one else can write to it (and, for the directory, rename files in it). */
function isOurs(info: Stats): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || info.uid === uid) && (info.mode & 0o022) === 0;
}

function trustedDirectory(dir: string): boolean {
  try {
    const info = lstatSync(dir);
    return info.isDirectory() && isOurs(info);
  } catch {
    return false;
  }
}

/** The cache file's bytes when the file is ours and safe, else undefined. */
function readTrustedCache(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW);
  } catch {
    return undefined; // none yet, or a symbolic link (ELOOP)
  }
  try {
    const info = fstatSync(fd);
    return info.isFile() && isOurs(info) ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Writes a fresh 0600 file beside `path` and renames it over `path`; drops caches of the same bundle's other builds. */
function writeAtomically(dir: string, path: string, data: Buffer, bundlePrefix: string, buildPrefix: string): void {
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    writeSync(fd, data);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    // Something else stands at `path` (a directory): no temp file is left behind for each run.
    unlinkSync(temp);
    throw error;
  }
  for (const name of readdirSync(dir)) {
    if (name.endsWith(CACHE_SUFFIX) && name.startsWith(bundlePrefix) && !name.startsWith(buildPrefix)) unlinkSync(join(dir, name));
  }
}

export interface LoadedProgram<T> {
  exports: T;
  /** Stores the code cache if this run could not use one; call when the work is done (it is then fullest). */
  saveCache(): void;
}

/**
 * Runs the CommonJS bundle at `file` like require() would, with V8's code cache from `cacheDir`.
 * `buildId` names this build of the bundle (scripts/build.mjs). The cache holds the functions the
 * run that wrote it compiled, so each command group (`agent`, `config`...) has its own: a cache
 * written by `config path` would leave all of undici to compile on every `agent get`.
 * `requireHere` is a require() of a module in `file`'s directory, if the caller has one: the bundle's
 * own is then that one, and node:module (with the ESM loader's parts that createRequire loads, ~1 ms
 * of start-up) is never needed.
 */
export function loadWithCodeCache<T>(
  file: string,
  buildId: string,
  cacheDir: string,
  importModule: (specifier: string) => Promise<unknown>,
  group: string | undefined,
  requireHere?: NodeJS.Require,
  bundle = 'program',
): LoadedProgram<T> {
  const buildPrefix = `${bundle}-${buildId}-`;
  const flavour = group !== undefined && /^[a-z][a-z-]{0,19}$/.test(group) ? group : 'other';
  const cachePath = join(cacheDir, `${buildPrefix}${flavour}-${process.version}-${process.arch}${CACHE_SUFFIX}`);
  const dirTrusted = trustedDirectory(cacheDir);
  const cachedData = dirTrusted ? readTrustedCache(cachePath) : undefined;
  const source = readFileSync(file, 'utf8');
  // The same wrapper as require()'s, so the bundle sees exports, require, module, __filename, __dirname;
  // and _impt_, the import() of the caller: code in a vm.Script cannot import() without an
  // experimental flag, so the build renames the bundle's import( calls to _impt_( (scripts/build.mjs).
  const script = new Script(`(function (exports, require, module, __filename, __dirname, _impt_) {${source}\n})`, { filename: file, cachedData });
  const module = { exports: {} as T };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, requireHere ?? createRequire(file), module, file, dirname(file), importModule);
  const useless = cachedData === undefined || script.cachedDataRejected === true;
  return {
    exports: module.exports,
    saveCache() {
      if (!useless) return;
      try {
        makeDirectory(cacheDir, 0o700);
        if (!trustedDirectory(cacheDir)) return;
        writeAtomically(cacheDir, cachePath, script.createCachedData(), `${bundle}-`, buildPrefix);
      } catch {
        // A full disk or a read-only home: the next run compiles again, nothing else changes.
      }
    },
  };
}

/**
 * Makes `require(file)` (a CommonJS chunk beside the program, e.g. vendor-mcp.cjs) load it with its
 * own code cache, on first use: a require.cache entry whose exports are loaded when first asked for,
 * so a run that never requires the chunk never reads it. `saveCache` stores its cache if it was loaded.
 */
export function cacheChunkOnRequire(
  file: string,
  buildId: string,
  cacheDir: string,
  importModule: (specifier: string) => Promise<unknown>,
  group: string | undefined,
  requireHere: NodeJS.Require,
  bundle: string,
): { saveCache(): void } {
  let loaded: LoadedProgram<unknown> | undefined;
  // What require() reads of a cache entry: `loaded`, `exports`, and `children` for the parent's list.
  requireHere.cache[file] = {
    id: file,
    filename: file,
    loaded: true,
    children: [],
    paths: [],
    get exports() {
      loaded ??= loadWithCodeCache<unknown>(file, buildId, cacheDir, importModule, group, requireHere, bundle);
      return loaded.exports;
    },
  } as unknown as NodeJS.Module;
  return { saveCache: () => loaded?.saveCache() };
}
