// Build: tsc type-checks and emits dist/ (modules and declarations the benchmarks, scripts and tests
// import: the development build), then esbuild bundles what is packed (package.json `files`):
// - dist/cli/: main.cjs (the entry: package.json's bin; it prints pre-rendered help itself) and
//   program.cjs (everything else, with commander, loaded with V8's code cache:
//   src/tuning/code-cache.ts); the parts of undici used are vendor-undici.cjs beside it, required with
//   the first request and code-cached the same way. See docs/performance.md. The library's heavy dependencies stay
//   external; the packages only the CLI loads (devDependencies) are each a vendor-<name>.cjs beside
//   it; both load only inside the commands that use them.
// - dist/lib/: the library (src/index.ts) as one module, with the declarations of its public surface.
// Not the GitHub Action's committed bundle (action/dist/index.cjs): `npm run build:action` makes it, on
// purpose apart, so that test/action/bundle.test.ts compares what is committed (what a workflow runs)
// with a fresh build, instead of with what this build just wrote.
// Source maps and the metafile are written outside dist/cli and dist/lib, or beside the bundles as
// .map files that `files` leaves out: the maps weigh three times the code.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { AJV_CHUNK, ajvChunkEntry, lazySdkAjv } from './mcp-sdk-ajv.mjs';
import { lazySdkSchemas } from './mcp-sdk-schemas.mjs';
import { lazySdkZod3, ZOD3_CHUNK, ZOD3_CHUNK_ENTRY } from './mcp-sdk-zod3.mjs';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

rmSync(new URL('dist', root), { recursive: true, force: true });
execFileSync(process.execPath, [new URL('node_modules/typescript/bin/tsc', root).pathname, '-p', 'tsconfig.json', '--declaration'], {
  cwd: root,
  stdio: 'inherit',
});

// commander requires node:child_process at load time for executable subcommands, which mint-admin
// does not use; loading it costs ~3 ms of every start. Hand commander a stand-in that loads the real
// module on first use instead.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes('node_modules/commander/') ? { path: 'lazy-child-process', namespace: 'lazy' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, name) => require('node:child_process')[name] });",
      loader: 'js',
    }));
  },
};

// valibot is bundled too: tree-shaken to the ~9 KB the schemas use, it loads in about half the time
// of the whole package (src/api/schemas.ts).
// undici is bundled too, but only the parts used (scripts/undici-slim.cjs), so that the few files a
// request needs are one code-cached file instead of ~110 files read and compiled...
const BUNDLED = new Set(['commander', 'valibot', 'undici']);
// The packages only the CLI loads, and only in some commands: devDependencies, so that a library
// user's production tree never gets them. Each one the program imports is bundled on its own beside
// it (dist/cli/vendor-<name>.cjs), required on first use: not in program.cjs, so a command that
// prints no table or CSV neither reads nor compiles them (test/startup-imports.test.ts).
const CLI_ONLY = ['ora', 'cli-table3', 'csv-stringify', 'htmlparser2'];
// The MCP SDK and zod, for `mint-admin mcp` only: one chunk (dist/cli/vendor-mcp.cjs) built from
// src/mcp/sdk.ts, which imports just the server and stdio parts (no HTTP transports: express and hono
// stay out). One chunk, not one per specifier: the SDK and the tools must share one zod.
const MCP_VENDOR = { chunk: 'vendor-mcp', entry: 'src/mcp/sdk.ts', packages: ['@modelcontextprotocol/sdk', 'zod'] };
for (const name of [...CLI_ONLY, ...MCP_VENDOR.packages, 'commander']) {
  if (pkg.dependencies[name]) throw new Error(`${name} is bundled into the CLI: it belongs in devDependencies, not in a library user's tree`);
}
// What stays external: the library's own dependencies, which both faces load from node_modules.
// An optional dependency or a peer (DuckDB's native binding, an optional peer that no install brings)
// is never bundled: it may be absent, and the one module that imports it (src/analytics-store/db.ts)
// says how to install it.
const optionalDependencies = Object.keys({ ...pkg.optionalDependencies, ...pkg.peerDependencies });
const lazyDependencies = [...Object.keys(pkg.dependencies), ...optionalDependencies].filter((name) => !BUNDLED.has(name));
const vendorChunk = (specifier) => `vendor-${specifier.replace(/\//g, '-')}`;
const CLI_ONLY_IMPORT = new RegExp(`^(${CLI_ONLY.join('|')})(/.*)?$`);
// In the program, `import('ora')` becomes a require() of ./vendor-ora.cjs: a plain require, so Node
// resolves it beside the program (and the start-up test sees it loaded).
const vendorSpecifiers = new Set();
const cliOnlyChunks = {
  name: 'cli-only-chunks',
  setup(b) {
    b.onResolve({ filter: CLI_ONLY_IMPORT }, (args) => {
      vendorSpecifiers.add(args.path);
      return { path: args.path, namespace: 'vendor-stub' };
    });
    b.onResolve({ filter: /^\.\/vendor-[\w.-]+\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    // An ES module re-exporting the chunk: esbuild then hands the importer the package's default and
    // named exports, as importing the package itself would (an ESM package's chunk carries __esModule).
    b.onLoad({ filter: /.*/, namespace: 'vendor-stub' }, (args) => {
      const chunk = JSON.stringify(`./${vendorChunk(args.path)}.cjs`);
      return { contents: `export * from ${chunk};\nexport { default } from ${chunk};`, loader: 'js' };
    });
  },
};
// The program's imports of src/mcp/sdk.ts become a require() of the chunk beside it, run when the
// server module is first evaluated (it is imported lazily by the mcp command alone).
const mcpChunk = {
  name: 'mcp-chunk',
  setup(b) {
    b.onResolve({ filter: /(^|\/)sdk\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')) === resolve(root.pathname, MCP_VENDOR.entry)
        ? { path: `./${MCP_VENDOR.chunk}.cjs`, external: true }
        : undefined,
    );
  },
};
// In the CommonJS bundles import.meta.url is this file's URL, as it was in ESM, worked out when first
// asked for (pathToFileURL costs a little of every start otherwise); import.meta.dirname is __dirname.
const importMetaUrl = {
  banner: 'var __mintAdminMeta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };',
  define: { 'import.meta.url': '__mintAdminMeta.url', 'import.meta.dirname': '__dirname' },
};

// The names the slim undici entry provides; a source importing any other is an error here, not an
// undefined at run time.
const UNDICI_SLIM = new Set(['request', 'EnvHttpProxyAgent']);
// Only the sources in the CLI bundle count: the library (dist/lib) imports the real undici package.
function checkUndiciImports(sources) {
  const problems = [];
  for (const source of sources) {
    if (!source.startsWith('src/') || !source.endsWith('.ts')) continue;
    const file = source.slice('src/'.length);
    const text = readFileSync(new URL(source, root), 'utf8');
    const names = [];
    for (const m of text.matchAll(/import\s+(?!type\b)([^;]*?)\s+from\s+'undici'/g)) {
      const braces = /^\{([^}]*)\}$/.exec(m[1].trim());
      if (!braces) problems.push(`src/${file}: \`import ${m[1]} from 'undici'\` (only named imports)`);
      else names.push(...braces[1].split(','));
    }
    // import() of the chunk goes through the ES module loader, which runs cjs-module-lexer over all
    // 320 KB of it for the names it exports (~70 ms of CPU, even with the chunk already required):
    // a module that needs undici late is itself loaded late, and imports it statically.
    if (/import\('undici'\)/.test(text)) problems.push(`src/${file}: import('undici') (import it statically in a module loaded on first use)`);
    for (const raw of names) {
      const name = raw.trim().replace(/\s+as\s+\w+$/, '');
      if (name && !name.startsWith('type ') && !UNDICI_SLIM.has(name)) problems.push(`src/${file} uses undici's ${name}`);
    }
  }
  if (problems.length > 0) {
    throw new Error(`the CLI bundle carries only ${[...UNDICI_SLIM].join(', ')} of undici; add to scripts/undici-slim.cjs and UNDICI_SLIM:\n  ${problems.join('\n  ')}`);
  }
}
// ...in a chunk of its own (dist/cli/vendor-undici.cjs) that the program requires on first use, with a
// code cache of its own (src/tuning/index.ts): 40% of the program's bytes that a command sending no
// request (`config`, `mcp` until its first tool call) would otherwise read and deserialise at start.
const UNDICI_CHUNK = 'vendor-undici';
const slimUndici = {
  name: 'slim-undici',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: `./${UNDICI_CHUNK}.cjs`, external: true }));
  },
};

// Node built-ins that a bundled module imports at its top but uses only in some commands: loading
// node:crypto alone costs ~2 ms of every start, fs/promises ~1 ms. Their require() calls become
// __lazyR() (the same length, so the source map still lines up), a stand-in that loads the real
// module on first use of any property.
const LAZY_BUILTINS = ['crypto', 'fs/promises', 'http', 'os', 'stream', 'stream/promises', 'timers/promises', 'tty', 'v8', 'vm', 'zlib', 'module'];
const lazyRequire =
  'var __lazyR = (id) => { let m; const l = () => (m ??= require(id)); return new Proxy({}, { get: (_, k) => l()[k], has: (_, k) => k in l(), ' +
  'ownKeys: () => Reflect.ownKeys(l()), getOwnPropertyDescriptor: (_, k) => { const d = Object.getOwnPropertyDescriptor(l(), k); if (d) d.configurable = true; return d; } }); };';
function makeBuiltinsLazy(file) {
  const path = new URL(file, root);
  const pattern = new RegExp(`\\brequire\\(("node:(?:${LAZY_BUILTINS.map((n) => n.replace('/', '\\/')).join('|')})")\\)`, 'g');
  writeFileSync(path, readFileSync(path, 'utf8').replace(pattern, '__lazyR($1)'));
}

// The program runs in a vm.Script (src/tuning/code-cache.ts), where import() needs an experimental flag; its
// import("x") calls become _impt_("x") (the same length, for the source map), the loader's import().
// Required plainly (no cache), the bundle falls back to its own import().
const importFallback = 'var _impt_ = typeof _impt_ === "function" ? _impt_ : (s) => import(s);';
function routeDynamicImports(file) {
  const path = new URL(file, root);
  writeFileSync(path, readFileSync(path, 'utf8').replace(/\bimport\((?=")/g, '_impt_('));
}
// What every file in dist/cli is: minified CommonJS for the oldest Node line `engines` allows, with
// its source map beside it (left out of the package by package.json's `files`).
const CLI_BUNDLE = {
  absWorkingDir: root.pathname,
  outdir: 'dist/cli',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'external',
  logLevel: 'warning',
};

// The program (run.ts) and everything it loads lazily: one CommonJS file. Modules it imports lazily
// become functions that run on first use, so a command still evaluates only what it needs, and one
// file is one read and one code-cache entry (src/tuning/code-cache.ts); an ESM graph of a dozen chunks cost
// ~12-15 ms more at every start, and ESM cannot use V8's code cache on Node 20.
const program = await build({
  ...CLI_BUNDLE,
  entryPoints: { program: 'src/run.ts' },
  external: lazyDependencies,
  // MINT_ADMIN_CLI: process-wide settings only the CLI may make (src/tuning/heap.ts).
  define: { MINT_ADMIN_VERSION: JSON.stringify(pkg.version), MINT_ADMIN_CLI: 'true', ...importMetaUrl.define },
  banner: { js: `${importMetaUrl.banner}\n${lazyRequire}\n${importFallback}` },
  plugins: [lazyChildProcess, slimUndici, cliOnlyChunks, mcpChunk],
  metafile: true,
});
checkUndiciImports(Object.keys(program.metafile.inputs));
// The chunks the program requires, each the whole package as it would have been in the program.
const vendor = await build({
  ...CLI_BUNDLE,
  entryPoints: {
    ...Object.fromEntries([...vendorSpecifiers].map((specifier) => [vendorChunk(specifier), `vendor-entry:${specifier}`])),
    [MCP_VENDOR.chunk]: MCP_VENDOR.entry,
    // The SDK's JSON Schema validator (ajv), which the MCP chunk requires on first use only.
    [AJV_CHUNK]: ajvChunkEntry(root),
    // zod 3 and zod-to-json-schema, which the SDK uses only for a zod 3 schema (the tools' are zod 4's).
    [ZOD3_CHUNK]: ZOD3_CHUNK_ENTRY,
  },
  external: lazyDependencies,
  plugins: [
    {
      name: 'vendor-entry',
      setup(b) {
        b.onResolve({ filter: /^vendor-entry:/ }, (args) => ({ path: args.path.slice('vendor-entry:'.length), namespace: 'vendor-entry' }));
        b.onLoad({ filter: /.*/, namespace: 'vendor-entry' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js', resolveDir: root.pathname }));
      },
    },
    // The SDK's ~200 protocol schemas: only those the server references are bundled, each built on first use.
    lazySdkSchemas(),
    // ajv, which only a form elicitation needs: in a chunk of its own, loaded when first used.
    lazySdkAjv(),
    lazySdkZod3(),
  ],
  define: { ...importMetaUrl.define },
  banner: { js: importMetaUrl.banner },
  metafile: true,
});
// undici's chunk, with the program's lazy built-ins: its modules require node:crypto, http, stream...
// at their top, which a command pays only when it uses them.
const undiciChunk = await build({
  ...CLI_BUNDLE,
  entryPoints: { [UNDICI_CHUNK]: 'scripts/undici-slim.cjs' },
  define: { ...importMetaUrl.define },
  banner: { js: `${importMetaUrl.banner}\n${lazyRequire}` },
  metafile: true,
});
makeBuiltinsLazy('dist/cli/program.cjs');
makeBuiltinsLazy(`dist/cli/${UNDICI_CHUNK}.cjs`);
routeDynamicImports('dist/cli/program.cjs');
// Names this build of the program, so a code cache is never applied to another build's bundle.
// The MCP chunk is code-cached under the same id (src/tuning/index.ts), so the id covers it too.
const buildId = createHash('sha256')
  .update(readFileSync(new URL('dist/cli/program.cjs', root)))
  .update(readFileSync(new URL(`dist/cli/${MCP_VENDOR.chunk}.cjs`, root)))
  .update(readFileSync(new URL(`dist/cli/${UNDICI_CHUNK}.cjs`, root)))
  .digest('hex')
  .slice(0, 16);

// The entry on its own: printing pre-rendered help loads this one small CommonJS file (a CommonJS
// entry starts ~5-7 ms sooner than an ESM one on Node 20); anything else loads program.cjs.
const entry = await build({
  ...CLI_BUNDLE,
  entryPoints: { main: 'src/main.ts' },
  external: ['./run.js'],
  define: { MINT_ADMIN_BUILD_ID: JSON.stringify(buildId), MINT_ADMIN_VERSION: JSON.stringify(pkg.version), ...importMetaUrl.define },
  banner: { js: `${importMetaUrl.banner}\n${lazyRequire}` },
  metafile: true,
});
makeBuiltinsLazy('dist/cli/main.cjs');
// The package's bin: run directly (its #! line comes from src/main.ts), not through a shim, which
// cost ~2 ms of every start (resolving and reading one more module).
chmodSync(new URL('dist/cli/main.cjs', root), 0o755);
// Help texts, rendered now so that printing them needs no commander (prerendered.ts); the entry
// inlines the version.
const { buildProgram } = await import(new URL('dist/program.js', root).href);
const { renderHelp, helpFileName, PRERENDERED_DIR } = await import(new URL('dist/prerendered.js', root).href);
let captured = '';
const sink = { write: (text) => ((captured += text), true) };
// columns: Infinity renders help unwrapped; main.ts wraps it to the terminal when it prints it.
const tree = buildProgram({ io: { stdout: sink, stderr: sink, columns: Number.POSITIVE_INFINITY }, env: {}, signal: new AbortController().signal, random: Math.random });
mkdirSync(new URL(`dist/cli/${PRERENDERED_DIR}/`, root), { recursive: true });
for (const { path, help } of renderHelp(tree, () => captured, () => (captured = ''))) {
  const name = helpFileName(path);
  if (name === undefined) throw new Error(`command ${path.join(' ')} has a name the help files cannot hold`);
  writeFileSync(new URL(`dist/cli/${PRERENDERED_DIR}/${name}`, root), help);
}

// Which sources each chunk holds: the start-up test checks that --help loads none of the heavy ones.
const metafile = {
  inputs: { ...program.metafile.inputs, ...entry.metafile.inputs, ...vendor.metafile.inputs, ...undiciChunk.metafile.inputs },
  outputs: { ...program.metafile.outputs, ...entry.metafile.outputs, ...vendor.metafile.outputs, ...undiciChunk.metafile.outputs },
};
writeFileSync(new URL('dist/cli-meta.json', root), JSON.stringify(metafile));

// The library: one module with valibot inside (as in the CLI), its other dependencies external.
const library = await build({
  absWorkingDir: root.pathname,
  entryPoints: { index: 'src/index.ts' },
  outdir: 'dist/lib',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'external',
  // undici too: the slim undici is the CLI's; a library user gets the package as installed.
  external: [...Object.keys(pkg.dependencies), ...optionalDependencies].filter((name) => name !== 'valibot'),
  define: { MINT_ADMIN_VERSION: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  metafile: true,
});
// A package the library loads must be one of its dependencies (what a user's install gets), not a
// devDependency bundled in by accident.
// (An input's path may run through a symbolic link: ../main/node_modules/... in a git worktree.)
const packageOf = (input) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
const libraryPackages = new Set(Object.keys(library.metafile.inputs).map(packageOf).filter(Boolean));
const undeclared = [...libraryPackages].filter((name) => !pkg.dependencies[name]);
if (undeclared.length > 0) throw new Error(`the library loads ${undeclared.join(', ')}: move them to dependencies (or stop importing them)`);
copyDeclarations(fileURLToPath(new URL('dist/', root)), 'index.d.ts', fileURLToPath(new URL('dist/lib/', root)));


/**
 * The declarations the library's index.d.ts reaches, and no others, copied with their relative
 * layout under dist/lib/: the public types are the contract, the CLI's modules are not shipped.
 */
function copyDeclarations(from, entry, to) {
  const seen = new Set();
  const pending = [resolve(from, entry)];
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      pending.push(resolve(dirname(file), spec.replace(/\.js$/, '.d.ts')));
    }
    const out = join(to, relative(from, file));
    mkdirSync(dirname(out), { recursive: true });
    copyFileSync(file, out);
  }
}
