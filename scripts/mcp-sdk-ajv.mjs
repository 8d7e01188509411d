// The MCP SDK's Server makes an Ajv JSON Schema validator in its constructor, for one job: checking a
// client's answer to a form elicitation (Server.elicitInput), which mint-admin never asks for. Its
// module imports ajv and ajv-formats, whose loading and set-up cost ~8 ms of every `mint-admin mcp`
// start, and which are a third of the MCP chunk (the chunk's code cache, read at every start, grows
// with it). So the SDK's validator module is a chunk of its own (dist/cli/vendor-mcp-ajv.cjs), and in
// the MCP chunk the SDK's import of it gets a stand-in with the same class and method that requires
// that chunk when a validator is first asked for.
// The build fails if the SDK stops importing the module this way while ajv is still in the MCP chunk:
// ajv would be back at start-up, unseen.
import { createRequire } from 'node:module';

const PROVIDER = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]validation[\\/]ajv-provider\.js$/;
const SERVER = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]index\.js$/;

/** The chunk's name beside the MCP chunk, and its entry: the SDK's own validator module. */
export const AJV_CHUNK = 'vendor-mcp-ajv';
export function ajvChunkEntry(root) {
  const sdkServer = createRequire(new URL('package.json', root)).resolve('@modelcontextprotocol/sdk/server/index.js');
  return sdkServer.replace(/[\\/]cjs[\\/]server[\\/]index\.js$/, '/esm/validation/ajv-provider.js');
}

export function lazySdkAjv() {
  return {
    name: 'lazy-sdk-ajv',
    setup(b) {
      let replaced = 0;
      b.onStart(() => {
        replaced = 0;
      });
      b.onResolve({ filter: /^\.\.\/validation\/ajv-provider\.js$/ }, (args) => {
        if (!SERVER.test(args.importer)) return undefined;
        replaced++;
        return { path: 'ajv-provider', namespace: 'lazy-sdk-ajv' };
      });
      b.onResolve({ filter: new RegExp(`^\\./${AJV_CHUNK}\\.cjs$`) }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /.*/, namespace: 'lazy-sdk-ajv' }, () => ({
        // A plain require() of the chunk beside this one, run on the first call only.
        contents: `export class AjvJsonSchemaValidator {
  constructor(ajv) { this._ajv = ajv; }
  getValidator(schema) {
    this._real ??= new (require('./${AJV_CHUNK}.cjs').AjvJsonSchemaValidator)(this._ajv);
    return this._real.getValidator(schema);
  }
}
`,
        loader: 'js',
      }));
      // Errors returned (not pushed onto result.errors, which esbuild does not act on) fail the build.
      b.onEnd((result) => {
        if (result.errors.length > 0 || !result.metafile) return undefined;
        const mcpInputs = Object.entries(result.metafile.outputs).find(([output]) => output.endsWith('/vendor-mcp.cjs'))?.[1].inputs ?? {};
        const ajvInMcp = Object.keys(mcpInputs).some((input) => /node_modules[\\/]ajv[\\/]/.test(input));
        if (replaced === 0) {
          return { errors: [{ text: "the MCP SDK's server no longer imports ../validation/ajv-provider.js: scripts/mcp-sdk-ajv.mjs no longer keeps ajv out of `mint-admin mcp`'s start-up" }] };
        } else if (ajvInMcp || Object.keys(mcpInputs).some((input) => PROVIDER.test(input))) {
          return { errors: [{ text: `ajv is in the MCP chunk, not only in ${AJV_CHUNK}.cjs: see scripts/mcp-sdk-ajv.mjs` }] };
        }
        return undefined;
      });
    },
  };
}
