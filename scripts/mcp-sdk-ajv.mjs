// The MCP SDK's Server makes an Ajv JSON Schema validator in its constructor, for one job: checking a
// client's answer to a form elicitation (Server.elicitInput), which mint-admin never asks for. Its
// module imports ajv and ajv-formats, whose loading and set-up cost ~8 ms of every `mint-admin mcp`
// start. In the MCP chunk, the SDK's import of that module gets a stand-in with the same class and
// method that loads the SDK's own module (still in the chunk) when a validator is first asked for.
// The build fails if the SDK stops importing the module this way while ajv is still in the chunk:
// ajv would be back at start-up, unseen.
import { dirname, join } from 'node:path';

const PROVIDER = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]validation[\\/]ajv-provider\.js$/;
const SERVER = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]index\.js$/;

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
        return { path: join(dirname(args.importer), args.path), namespace: 'lazy-sdk-ajv' };
      });
      b.onLoad({ filter: /.*/, namespace: 'lazy-sdk-ajv' }, (args) => ({
        // require(), not import: esbuild then evaluates the SDK's module (and ajv) on first call only.
        contents: `export class AjvJsonSchemaValidator {
  constructor(ajv) { this._ajv = ajv; }
  getValidator(schema) {
    this._real ??= new (require(${JSON.stringify(args.path)}).AjvJsonSchemaValidator)(this._ajv);
    return this._real.getValidator(schema);
  }
}
`,
        loader: 'js',
        resolveDir: dirname(args.path),
      }));
      b.onEnd((result) => {
        if (result.errors.length > 0 || !result.metafile) return;
        const ajvInChunk = Object.keys(result.metafile.inputs).some((input) => /node_modules[\\/]ajv[\\/]/.test(input));
        const providerInChunk = Object.keys(result.metafile.inputs).some((input) => PROVIDER.test(input));
        if (providerInChunk && replaced === 0) {
          result.errors.push({ text: "the MCP SDK's server no longer imports ../validation/ajv-provider.js: scripts/mcp-sdk-ajv.mjs no longer keeps ajv out of `mint-admin mcp`'s start-up" });
        } else if (ajvInChunk && !providerInChunk) {
          result.errors.push({ text: 'ajv is in the MCP chunk but not through the SDK\'s ajv-provider.js: see scripts/mcp-sdk-ajv.mjs' });
        }
      });
    },
  };
}
