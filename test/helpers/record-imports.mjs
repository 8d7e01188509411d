// Preloaded with `node --import` into the built CLI: records every module the process loads into the
// file named by MINT_ADMIN_RECORD_IMPORTS, one file URL a line, so a test can see what a command
// loaded: what the ESM loader resolves (hooks), and what require() loads.
import { appendFileSync } from 'node:fs';
import Module, { register, registerHooks } from 'node:module';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';

const file = process.env.MINT_ADMIN_RECORD_IMPORTS;

/** @param {unknown} path what the CommonJS loader resolved: a file's absolute path, or a builtin's name */
const record = (path) => {
  if (file && typeof path === 'string' && isAbsolute(path)) appendFileSync(file, `${pathToFileURL(path).href}\n`);
};

if (typeof registerHooks === 'function') {
  // In-thread hooks (Node.js 22.15 and later; `register` is deprecated from Node.js 26): they see
  // require() as well as import, so a CommonJS file counts as read by the ES module loader only when
  // an import resolved it.
  const imported = new Set();
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      if (file) appendFileSync(file, `${resolved.url}\n`);
      if (context.conditions?.includes('import')) imported.add(resolved.url);
      return resolved;
    },
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      if (file && loaded.format === 'commonjs' && imported.has(url)) appendFileSync(file, `esm-commonjs ${url}\n`);
      return loaded;
    },
  });
} else {
  register(new URL('./record-imports-hooks.mjs', import.meta.url), { data: { file } });
}

/**
 * The CommonJS loader's own entry points, which @types/node does not declare: wrapped so that a
 * require() is recorded on a Node.js whose module hooks run only for import. Node.js passes _load
 * more than the three arguments it names (options of its own, for a module the ES module loader
 * hands over), so the wrapper forwards whatever it is given.
 * @typedef {(request: string, parent: unknown, isMain: boolean, ...internal: unknown[]) => unknown} LoadFunction
 * @typedef {{ _load: LoadFunction, _resolveFilename(request: string, parent: unknown, isMain: boolean): string }} CommonJsLoader
 */
const loader = /** @type {typeof Module & CommonJsLoader} */ (Module);
const load = loader._load;
/** @type {LoadFunction} */
loader._load = function (request, parent, isMain, ...internal) {
  try {
    record(loader._resolveFilename(request, parent, isMain));
  } catch {
    // not resolvable: the real load reports it
  }
  return load.call(this, request, parent, isMain, ...internal);
};
