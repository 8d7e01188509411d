// The GitHub Action's bundle, action/dist/index.cjs: committed, because a workflow runs whatever is in
// the repository at the ref it names, with no build step (test/action/bundle.test.ts fails when the
// committed file differs from a fresh build). Deterministic: no timestamps, no source map, minified.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

// The program's undici is the package as installed; the Actions toolkit's packages each carry a copy
// of undici 6 of their own, bundled once here instead of twice.
const toolkitUndici = new URL('node_modules/@actions/http-client/node_modules/undici/index.js', root).pathname;
/** @type {import('esbuild').Plugin} */
const oneUndiciEach = {
  name: 'one-undici-each',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, (args) =>
      args.importer.includes('/node_modules/@actions/') ? { path: toolkitUndici } : undefined,
    );
  },
};

/**
 * Writes action/dist/index.cjs; with `write: false`, returns the bundle instead.
 * @param {{ write?: boolean }} [options]
 */
export async function buildAction({ write = true } = {}) {
  const result = await build({
    absWorkingDir: root.pathname,
    entryPoints: ['action/src/main.ts'],
    outfile: 'action/dist/index.cjs',
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    write,
    plugins: [oneUndiciEach],
    // Left out of the action, which has no node_modules at use time: DuckDB's native binding (the
    // analytics store explains how to install it, as for any install without optional packages) and
    // the MCP SDK (a stdio server for an agent has no place in a workflow step; 400 KB otherwise).
    external: ['@duckdb/node-api', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', 'zod', 'zod/*'],
    define: {
      MINT_ADMIN_VERSION: JSON.stringify(pkg.version),
      'import.meta.url': '__mintAdminUrl',
      'import.meta.dirname': '__dirname',
    },
    banner: { js: 'var __mintAdminUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  // esbuild hands back the output files exactly when told not to write them: one here, the outfile.
  return write ? undefined : result.outputFiles?.[0]?.contents;
}

if (import.meta.url === `file://${process.argv[1]}`) await buildAction();
