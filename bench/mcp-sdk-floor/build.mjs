// Bundles the SDK floor server (server.mjs) for bench/mcp.mjs, with scripts/build.mjs's settings for
// dist/cli (esbuild, CommonJS, node20, minified, one file):
// - `plain`: the SDK and zod as they come, which is what any server built on the SDK starts with;
// - `tuned`: the same server through the MCP chunk's own build steps (the SDK's schemas dropped or
//   built on first use, ajv and zod 3 in side chunks, zod jitless: docs/performance.md), the least
//   any server on this SDK version starts with that we know how to build.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { AJV_CHUNK, ajvChunkEntry, lazySdkAjv } from '../../scripts/mcp-sdk-ajv.mjs';
import { lazySdkSchemas } from '../../scripts/mcp-sdk-schemas.mjs';
import { lazySdkZod3, ZOD3_CHUNK, ZOD3_CHUNK_ENTRY } from '../../scripts/mcp-sdk-zod3.mjs';

const root = new URL('../../', import.meta.url);
const SERVER = fileURLToPath(new URL('server.mjs', import.meta.url));
const JITLESS = fileURLToPath(new URL('src/mcp/zod-jitless.ts', root));
const BUNDLE = { absWorkingDir: fileURLToPath(root), outExtension: { '.js': '.cjs' }, bundle: true, format: 'cjs', platform: 'node', target: 'node20', minify: true, logLevel: 'warning' };

/** Writes both builds under `outdir`; returns the path of each one's server file. */
export async function buildSdkFloor(outdir) {
  await build({ ...BUNDLE, outdir: join(outdir, 'plain'), entryPoints: { 'sdk-floor': SERVER } });
  // The MCP chunk's build steps expect its name (vendor-mcp) and its side chunks beside it.
  const entry = {
    name: 'sdk-floor-entry',
    setup(b) {
      b.onResolve({ filter: /^sdk-floor-entry$/ }, () => ({ path: 'sdk-floor-entry', namespace: 'sdk-floor' }));
      b.onLoad({ filter: /.*/, namespace: 'sdk-floor' }, () => ({ contents: `import ${JSON.stringify(JITLESS)};\nimport ${JSON.stringify(SERVER)};\n`, loader: 'js', resolveDir: fileURLToPath(root) }));
    },
  };
  await build({
    ...BUNDLE,
    outdir: join(outdir, 'tuned'),
    entryPoints: { 'vendor-mcp': 'sdk-floor-entry', [AJV_CHUNK]: ajvChunkEntry(root), [ZOD3_CHUNK]: ZOD3_CHUNK_ENTRY },
    plugins: [entry, lazySdkSchemas(), lazySdkAjv(), lazySdkZod3()],
    metafile: true,
  });
  return { plain: join(outdir, 'plain', 'sdk-floor.cjs'), tuned: join(outdir, 'tuned', 'vendor-mcp.cjs') };
}
