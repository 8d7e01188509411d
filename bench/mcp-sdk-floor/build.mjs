// Bundles the SDK floor server (server.mjs) for bench/mcp.mjs, with scripts/build.mjs's settings for
// dist/cli (esbuild, CommonJS, minified, one file): the SDK and zod as they come, which is what any
// server built on the SDK starts with, as the CLI's MCP chunk is built too.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = new URL('../../', import.meta.url);
const SERVER = fileURLToPath(new URL('server.mjs', import.meta.url));
/** @satisfies {import('esbuild').BuildOptions} */
const BUNDLE = /** @type {const} */ ({
  absWorkingDir: fileURLToPath(root),
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  minify: true,
  logLevel: 'warning',
});

/**
 * Writes the build under `outdir`; returns the path of its server file.
 * @param {string} outdir
 */
export async function buildSdkFloor(outdir) {
  await build({ ...BUNDLE, outdir, entryPoints: { 'sdk-floor': SERVER } });
  return join(outdir, 'sdk-floor.cjs');
}
