// The MCP SDK accepts zod 3 schemas as well as zod 4's, and so carries zod 3 and zod-to-json-schema:
// a third of the MCP chunk, for two calls (server/zod-compat.js's `z3rt.object(shape)` and
// server/zod-json-schema-compat.js's `zodToJsonSchema(...)`) made only for a zod 3 schema, which
// mint-admin's tools never are (they use the chunk's zod 4). The chunk's size is paid at every start
// (docs/performance.md). So both live in a chunk of their own (dist/cli/vendor-mcp-zod3.cjs), and in
// the MCP chunk the SDK's two imports get stand-ins that require it on first call.
// The build fails if the SDK uses anything else of them (a stand-in would lack it) or stops importing
// them this way while they are still in the MCP chunk.
const SDK_SERVER = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]/;

export const ZOD3_CHUNK = 'vendor-mcp-zod3';
/** The chunk's entry point (this plugin provides it): what the stand-ins forward to. */
export const ZOD3_CHUNK_ENTRY = 'mcp-sdk-zod3-entry';

// Each import the SDK makes, and the names it uses of it.
const STAND_INS = {
  'zod/v3': { importer: /zod-compat\.js$/, names: ['object'] },
  'zod-to-json-schema': { importer: /zod-json-schema-compat\.js$/, names: ['zodToJsonSchema'] },
};

export function lazySdkZod3() {
  return {
    name: 'lazy-sdk-zod3',
    setup(b) {
      const replaced = new Set();
      b.onStart(() => replaced.clear());
      b.onResolve({ filter: /^(zod\/v3|zod-to-json-schema)$/ }, (args) => {
        const standIn = STAND_INS[args.path];
        if (!SDK_SERVER.test(args.importer) || !standIn.importer.test(args.importer)) return undefined;
        replaced.add(args.path);
        return { path: args.path, namespace: 'lazy-sdk-zod3' };
      });
      b.onResolve({ filter: new RegExp(`^\\./${ZOD3_CHUNK}\\.cjs$`) }, (args) => ({ path: args.path, external: true }));
      b.onResolve({ filter: new RegExp(`^${ZOD3_CHUNK_ENTRY}$`) }, (args) => ({ path: args.path, namespace: 'lazy-sdk-zod3-entry' }));
      b.onLoad({ filter: /.*/, namespace: 'lazy-sdk-zod3-entry' }, () => ({
        contents: Object.entries(STAND_INS).map(([specifier, { names }]) => `export { ${names.join(', ')} } from '${specifier}';\n`).join(''),
        loader: 'js',
        resolveDir: b.initialOptions.absWorkingDir,
      }));
      b.onLoad({ filter: /.*/, namespace: 'lazy-sdk-zod3' }, (args) => ({
        contents: STAND_INS[args.path].names.map((name) => `export const ${name} = (...args) => require('./${ZOD3_CHUNK}.cjs').${name}(...args);\n`).join(''),
        loader: 'js',
      }));
      // Errors returned (not pushed onto result.errors, which esbuild does not act on) fail the build.
      b.onEnd((result) => {
        if (result.errors.length > 0 || !result.metafile) return undefined;
        const errors = [];
        // esbuild warns (only) when code reads a name a module does not export: here, one the SDK
        // started using that its stand-in lacks.
        const missing = result.warnings.filter((w) => w.location?.file?.includes('@modelcontextprotocol') && /no matching export|will always be undefined/.test(w.text));
        for (const warning of missing) errors.push({ text: `the MCP SDK uses more of zod 3 than scripts/mcp-sdk-zod3.mjs forwards: ${warning.text}`, location: warning.location });
        const mcpInputs = Object.entries(result.metafile.outputs).find(([output]) => output.endsWith('/vendor-mcp.cjs'))?.[1].inputs ?? {};
        const inMcp = Object.keys(mcpInputs).filter((input) => /node_modules[\\/](zod[\\/]v3|zod-to-json-schema)[\\/]/.test(input));
        if (replaced.size < Object.keys(STAND_INS).length || inMcp.length > 0) {
          errors.push({
            text: `zod 3 is in the MCP chunk (${inMcp.slice(0, 3).join(', ')}) or the SDK no longer imports ${Object.keys(STAND_INS).filter((s) => !replaced.has(s)).join(', ')} as scripts/mcp-sdk-zod3.mjs expects`,
          });
        }
        return errors.length > 0 ? { errors } : undefined;
      });
    },
  };
}
