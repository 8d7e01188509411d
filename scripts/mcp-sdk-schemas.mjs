// The MCP SDK's types.js builds ~200 zod schemas when it loads (its whole protocol: tasks, sampling,
// elicitation, resources, prompts...), and zod 4 attaches dozens of closures to each one: 20-25 ms of
// every `mint-admin mcp` start, for a server that uses a few dozen of them (docs/performance.md).
// esbuild cannot drop an unused `const X = z.object(...)` on its own: a call may have side effects.
// This transform marks each top-level schema's initializer as free of them, rewriting
//   export const X = <call>;   as   export const X = /* @__PURE__ */ (() => <call>)();
// which runs the same code in the same order, and lets esbuild's tree shaking drop every schema
// nothing in the bundle references. It parses the file with the TypeScript compiler (no regexes on
// JavaScript), and throws when the file no longer has the shape it expects, so an SDK upgrade that
// changes it fails the build loudly instead of silently bringing the start-up cost back.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The SDK module this applies to (the ESM build esbuild bundles for an `import`). */
export const SDK_TYPES_FILE = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]types\.js$/;

// What the file must still look like for the transform to be worth anything: the schemas every stdio
// server uses, and at least this many wrapped (1.32 has 166 exported, 10 private).
const MUST_WRAP = ['JSONRPCMessageSchema', 'InitializeRequestSchema', 'ListToolsRequestSchema', 'CallToolRequestSchema', 'CallToolResultSchema'];
const MIN_WRAPPED = 150;

/**
 * types.js's text with every top-level `const` schema initializer (a call) wrapped as a pure IIFE;
 * `wrapped` names them. Throws when the file's shape has changed (see MUST_WRAP, MIN_WRAPPED).
 */
export function markSchemasPure(text, fileName = 'types.js') {
  const ts = require('typescript');
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = [];
  const wrapped = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if ((statement.declarationList.flags & ts.NodeFlags.Const) === 0) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      // A schema is built by a call (z.object(...), X.extend(...), z.union([...])); literals and
      // arrays of strings are left as they are: nothing to gain, and they cost nothing.
      if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(declaration.name)) continue;
      edits.push({ at: init.getStart(source), text: '/* @__PURE__ */ (() => ' }, { at: init.getEnd(), text: ')()' });
      wrapped.push(declaration.name.text);
    }
  }
  const missing = MUST_WRAP.filter((name) => !wrapped.includes(name));
  if (missing.length > 0 || wrapped.length < MIN_WRAPPED) {
    throw new Error(
      `${fileName}: the MCP SDK's schemas no longer have the shape scripts/mcp-sdk-schemas.mjs expects ` +
        `(${wrapped.length} top-level schema calls wrapped, at least ${MIN_WRAPPED} expected` +
        `${missing.length > 0 ? `; not found: ${missing.join(', ')}` : ''}). ` +
        `Fix the transform for this SDK version: without it \`mint-admin mcp\` builds every schema of the protocol at start-up.`,
    );
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, edit.at) + edit.text + out.slice(edit.at);
  return { text: out, wrapped };
}

/**
 * The esbuild plugin: applies markSchemasPure to the SDK's types.js, and fails the build if the
 * bundle never loaded that file (the SDK moved it: the transform would silently not apply).
 */
export function pureSdkSchemas() {
  return {
    name: 'pure-sdk-schemas',
    setup(b) {
      let applied = 0;
      b.onStart(() => {
        applied = 0;
      });
      b.onLoad({ filter: SDK_TYPES_FILE }, (args) => {
        applied++;
        return { contents: markSchemasPure(readFileSync(args.path, 'utf8'), args.path).text, loader: 'js' };
      });
      b.onEnd((result) => {
        if (result.errors.length === 0 && applied === 0) {
          result.errors.push({ text: 'the MCP chunk did not load @modelcontextprotocol/sdk/dist/esm/types.js: scripts/mcp-sdk-schemas.mjs no longer applies to this SDK' });
        }
      });
    },
  };
}
