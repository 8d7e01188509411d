import { appendFileSync } from 'node:fs';

/** @type {string | undefined} */
let file;

/** @type {import('node:module').InitializeHook<{ file: string | undefined }>} */
export function initialize(data) {
  file = data.file;
}

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (file) appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}

// A CommonJS file loaded through the ES module loader (an import() of it) is read twice over: Node
// runs cjs-module-lexer on its whole source for the names it exports. Recorded apart, so that a test
// can see which of our bundles went that way.
/** @type {import('node:module').LoadHook} */
export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (file && loaded.format === 'commonjs') appendFileSync(file, `esm-commonjs ${url}\n`);
  return loaded;
}
