// The MCP SDK's types.js builds 154 zod schemas when it loads (its whole protocol: tasks, sampling,
// elicitation, resources, prompts...), and zod 4 attaches dozens of closures to each one: 20-25 ms of
// every `mint-admin mcp` start, for a server that uses a few dozen of them (docs/performance.md).
// This transform rewrites each top-level schema in that file,
//   export const X = <call>;   as   export const X = /* @__PURE__ */ __mintLazySchema(() => <call>);
// which does two things:
// - esbuild can drop a schema nothing in the bundle references (it cannot drop a bare call: the call
//   might have side effects; this one is marked pure): 63 of them in SDK 1.32;
// - a schema that is referenced is built the first time anything touches it, not when the file loads:
//   the server touches 37 of the other 91 before it has answered tools/list (the schemas of the
//   requests it registers handlers for, of the JSON-RPC envelope, of initialize), the others only when
//   a client sends such a request, or never.
// __mintLazySchema hands out a Proxy that forwards every operation to the schema, built on first use.
// zod recognises a schema by its `_zod` internals, not by identity: `instanceof` is zod's own trait
// check (reads `_zod.traits`), methods and getters run with the built schema as receiver, and schemas
// composed from a lazy one hold the Proxy and reach the schema through it. The real MCP client tests
// (test/mcp/) exercise the server through it.
// The file is parsed with the TypeScript compiler (no regexes on JavaScript), and the transform throws
// when the file no longer has the shape it expects, so an SDK upgrade that changes it fails the build
// loudly instead of silently bringing the start-up cost back.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The SDK module this applies to (the ESM build esbuild bundles for an `import`). */
export const SDK_TYPES_FILE = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]types\.js$/;

// What the file must still look like for the transform to be worth anything: the schemas every stdio
// server uses, and at least this many wrapped (1.32.2 has 154 top-level schema calls).
const MUST_WRAP = ['JSONRPCMessageSchema', 'InitializeRequestSchema', 'ListToolsRequestSchema', 'CallToolRequestSchema', 'CallToolResultSchema'];
const MIN_WRAPPED = 150;

// Defined in types.js after its imports. The target is only a stand-in: every trap asks the schema.
// A property descriptor is reported configurable, as a Proxy must for one its target lacks.
const LAZY_SCHEMA = `const __mintLazySchema = (build) => {
  let schema;
  const real = () => (schema ??= build());
  return new Proxy({}, {
    get: (_, key) => Reflect.get(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      if (descriptor) descriptor.configurable = true;
      return descriptor;
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
};
`;

/**
 * types.js's text with every top-level `const` schema (a call on `z` or on a schema declared before
 * it) built lazily and marked pure; `wrapped` names them. Throws when the file's shape has changed
 * (see MUST_WRAP, MIN_WRAPPED) or a top-level call is not a schema's.
 */
export function makeSchemasLazy(text, fileName = 'types.js') {
  const ts = require('typescript');
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = [];
  const wrapped = [];
  const notSchemas = [];
  let afterImports;
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) afterImports = statement.getEnd();
    if (!ts.isVariableStatement(statement)) continue;
    if ((statement.declarationList.flags & ts.NodeFlags.Const) === 0) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      // A schema is built by a call (z.object(...), X.extend(...), z.union([...])); literals and
      // arrays of strings are left as they are: nothing to gain, and they cost nothing.
      if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(declaration.name)) continue;
      // Built lazily only what zod builds: z.object(...), BaseSchema.extend(...).optional(), ...
      let callee = init.expression;
      while (ts.isPropertyAccessExpression(callee) || ts.isCallExpression(callee)) callee = callee.expression;
      if (!ts.isIdentifier(callee) || (callee.text !== 'z' && !wrapped.includes(callee.text))) {
        notSchemas.push(declaration.name.text);
        continue;
      }
      edits.push({ at: init.getStart(source), text: '/* @__PURE__ */ __mintLazySchema(() => ' }, { at: init.getEnd(), text: ')' });
      wrapped.push(declaration.name.text);
    }
  }
  const missing = MUST_WRAP.filter((name) => !wrapped.includes(name));
  if (missing.length > 0 || wrapped.length < MIN_WRAPPED || notSchemas.length > 0 || afterImports === undefined) {
    throw new Error(
      `${fileName}: the MCP SDK's schemas no longer have the shape scripts/mcp-sdk-schemas.mjs expects ` +
        `(${wrapped.length} top-level schema calls wrapped, at least ${MIN_WRAPPED} expected` +
        `${missing.length > 0 ? `; not found: ${missing.join(', ')}` : ''}` +
        `${notSchemas.length > 0 ? `; top-level calls that are not zod's: ${notSchemas.join(', ')}` : ''}` +
        `${afterImports === undefined ? '; no import of zod' : ''}). ` +
        `Fix the transform for this SDK version: without it \`mint-admin mcp\` builds every schema of the protocol at start-up.`,
    );
  }
  edits.push({ at: afterImports, text: `\n${LAZY_SCHEMA}` });
  let out = text;
  // From the end, so each edit's offset is still the original text's.
  for (const edit of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, edit.at) + edit.text + out.slice(edit.at);
  return { text: out, wrapped };
}

/**
 * The esbuild plugin: applies makeSchemasLazy to the SDK's types.js, and fails the build if the
 * bundle never loaded that file (the SDK moved it: the transform would silently not apply).
 */
export function lazySdkSchemas() {
  return {
    name: 'lazy-sdk-schemas',
    setup(b) {
      let applied = 0;
      b.onStart(() => {
        applied = 0;
      });
      b.onLoad({ filter: SDK_TYPES_FILE }, (args) => {
        applied++;
        return { contents: makeSchemasLazy(readFileSync(args.path, 'utf8'), args.path).text, loader: 'js' };
      });
      // Errors returned (not pushed onto result.errors, which esbuild does not act on) fail the build.
      b.onEnd((result) => {
        if (result.errors.length === 0 && applied === 0) {
          return { errors: [{ text: 'the MCP chunk did not load @modelcontextprotocol/sdk/dist/esm/types.js: scripts/mcp-sdk-schemas.mjs no longer applies to this SDK' }] };
        }
        return undefined;
      });
    },
  };
}
