// Build: tsc type-checks and emits dist/ (modules and declarations the benchmarks, scripts and tests
// import: the development build), then esbuild bundles what is packed (package.json `files`), and
// that is all: the bundles are esbuild's output as it writes them, and the dependencies go in as
// published. See docs/performance.md for what start-up costs and why nothing more is done for it.
// - dist/cli/: main.cjs (the entry: package.json's bin; it prints pre-rendered help itself) and
//   program.cjs (everything else, with commander and valibot), which main.cjs requires after turning
//   on Node's own compile cache. The library's dependencies (undici, tar) stay external: both faces
//   load them from node_modules, each inside the modules that use it. The packages only the CLI loads
//   (devDependencies) are each a vendor-<name>.cjs beside the program, required on first use.
// - dist/lib/: the library (src/index.ts) as one module, with the declarations of its public surface.
// Not the GitHub Action's committed bundle (action/dist/index.cjs): `npm run build:action` makes it, on
// purpose apart, so that test/action/bundle.test.ts compares what is committed (what a workflow runs)
// with a fresh build, instead of with what this build just wrote.
// Source maps and the metafile are written outside dist/cli and dist/lib, or beside the bundles as
// .map files that `files` leaves out: the maps weigh three times the code.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** @import { BuildOptions, Plugin } from 'esbuild' */
/** @import { Deps } from '../src/cli/context.js' */

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

rmSync(new URL('dist', root), { recursive: true, force: true });
execFileSync(
  process.execPath,
  [new URL('node_modules/typescript/bin/tsc', root).pathname, '-p', 'tsconfig.json', '--declaration'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);

// valibot is bundled: tree-shaken to the part the schemas use, it loads in about half the time of the
// whole package (src/api/schemas.ts).
const BUNDLED = new Set(['commander', 'valibot']);
// The packages only the CLI loads, and only in some commands: devDependencies, so that a library
// user's production tree never gets them. Each one the program imports is bundled on its own beside
// it (dist/cli/vendor-<name>.cjs), required on first use: not in program.cjs, so a command that
// prints no table or CSV neither reads nor compiles them (test/startup-imports.test.ts).
const CLI_ONLY = ['ora', 'cli-table3', 'csv-stringify'];
// The MCP SDK and zod, for `mint-admin mcp` only: one chunk (dist/cli/vendor-mcp.cjs) built from
// src/mcp/sdk.ts, which imports just the server and stdio parts (no HTTP transports: express and hono
// stay out). One chunk, not one per specifier: the SDK and the tools must share one zod.
const MCP_VENDOR = { chunk: 'vendor-mcp', entry: 'src/mcp/sdk.ts', packages: ['@modelcontextprotocol/sdk', 'zod'] };
for (const name of [...CLI_ONLY, ...MCP_VENDOR.packages, 'commander']) {
  if (pkg.dependencies[name])
    throw new Error(`${name} is bundled into the CLI: it belongs in devDependencies, not in a library user's tree`);
}
// What stays external: the library's own dependencies, which both faces load from node_modules.
// An optional dependency or a peer (DuckDB's native binding, an optional peer that no install brings)
// is never bundled: it may be absent, and the one module that imports it (src/analytics-store/db.ts)
// says how to install it.
const optionalDependencies = Object.keys({ ...pkg.optionalDependencies, ...pkg.peerDependencies });
const lazyDependencies = [...Object.keys(pkg.dependencies), ...optionalDependencies].filter(
  (name) => !BUNDLED.has(name),
);
const vendorChunk = (/** @type {string} */ specifier) => `vendor-${specifier.replace(/\//g, '-')}`;
const CLI_ONLY_IMPORT = new RegExp(`^(${CLI_ONLY.join('|')})(/.*)?$`);
// In the program, `import('ora')` becomes a require() of ./vendor-ora.cjs: a plain require, so Node
// resolves it beside the program (and the start-up test sees it loaded).
/** @type {Set<string>} */
const vendorSpecifiers = new Set();
/** @type {Plugin} */
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
/** @type {Plugin} */
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

// What every file in dist/cli is: minified CommonJS for the oldest Node line `engines` allows, with
// its source map beside it (left out of the package by package.json's `files`).
/** @satisfies {BuildOptions} */
const CLI_BUNDLE = /** @type {const} */ ({
  absWorkingDir: root.pathname,
  outdir: 'dist/cli',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  minify: true,
  sourcemap: 'external',
  logLevel: 'warning',
});

// The program (run.ts) and everything it loads lazily: one CommonJS file. Modules it imports lazily
// become functions that run on first use, so a command still evaluates only what it needs, and one
// file is one read and one entry in Node's compile cache; an ESM graph of a dozen chunks cost more at
// every start.
const program = await build({
  ...CLI_BUNDLE,
  entryPoints: { program: 'src/cli/run.ts' },
  external: lazyDependencies,
  define: { MINT_ADMIN_VERSION: JSON.stringify(pkg.version), ...importMetaUrl.define },
  banner: { js: importMetaUrl.banner },
  plugins: [cliOnlyChunks, mcpChunk],
  metafile: true,
});
// The chunks the program requires, each the whole package as it would have been in the program.
const vendor = await build({
  ...CLI_BUNDLE,
  entryPoints: {
    ...Object.fromEntries(
      [...vendorSpecifiers].map((specifier) => [vendorChunk(specifier), `vendor-entry:${specifier}`]),
    ),
    [MCP_VENDOR.chunk]: MCP_VENDOR.entry,
  },
  external: lazyDependencies,
  plugins: [
    {
      name: 'vendor-entry',
      setup(b) {
        b.onResolve({ filter: /^vendor-entry:/ }, (args) => ({
          path: args.path.slice('vendor-entry:'.length),
          namespace: 'vendor-entry',
        }));
        b.onLoad({ filter: /.*/, namespace: 'vendor-entry' }, (args) => ({
          contents: `module.exports = require(${JSON.stringify(args.path)});`,
          loader: 'js',
          resolveDir: root.pathname,
        }));
      },
    },
  ],
  define: { ...importMetaUrl.define },
  banner: { js: importMetaUrl.banner },
  metafile: true,
});
// The entry on its own: printing pre-rendered help loads this one small CommonJS file (a CommonJS
// entry starts sooner than an ESM one); anything else requires program.cjs (MINT_ADMIN_BUNDLE).
const entry = await build({
  ...CLI_BUNDLE,
  entryPoints: { main: 'src/cli/main.ts' },
  external: ['./run.js', './program.cjs'],
  define: { MINT_ADMIN_BUNDLE: 'true', MINT_ADMIN_VERSION: JSON.stringify(pkg.version), ...importMetaUrl.define },
  banner: { js: importMetaUrl.banner },
  metafile: true,
});
// The package's bin: run directly (its #! line comes from src/cli/main.ts), not through a shim, which
// cost ~2 ms of every start (resolving and reading one more module).
chmodSync(new URL('dist/cli/main.cjs', root), 0o755);
// Help texts, rendered now so that printing them needs no commander (prerendered.ts); the entry
// inlines the version.
// Imported by URL from what tsc just emitted; typed as the sources they were built from.
const { buildProgram } = /** @type {typeof import('../src/cli/program.js')} */ (
  await import(new URL('dist/cli/program.js', root).href)
);
const { renderHelp, helpFileName, PRERENDERED_DIR } = /** @type {typeof import('../src/cli/prerendered.js')} */ (
  await import(new URL('dist/cli/prerendered.js', root).href)
);
let captured = '';
const sink = { write: (/** @type {string} */ text) => ((captured += text), true) };
// columns: Infinity renders help unwrapped; main.ts wraps it to the terminal when it prints it. The
// tree is only read, never run: what building it touches (help output) is all it gets.
const tree = buildProgram(
  /** @type {Deps} */ ({
    io: { stdout: sink, stderr: sink, columns: Number.POSITIVE_INFINITY },
    env: {},
    signal: new AbortController().signal,
    random: Math.random,
  }),
);
mkdirSync(new URL(`dist/cli/${PRERENDERED_DIR}/`, root), { recursive: true });
for (const { path, help } of renderHelp(
  tree,
  () => captured,
  () => (captured = ''),
)) {
  const name = helpFileName(path);
  if (name === undefined) throw new Error(`command ${path.join(' ')} has a name the help files cannot hold`);
  writeFileSync(new URL(`dist/cli/${PRERENDERED_DIR}/${name}`, root), help);
}

// Which sources each chunk holds: the start-up test checks that --help loads none of the heavy ones.
const metafile = {
  inputs: { ...program.metafile.inputs, ...entry.metafile.inputs, ...vendor.metafile.inputs },
  outputs: { ...program.metafile.outputs, ...entry.metafile.outputs, ...vendor.metafile.outputs },
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
  target: 'node22',
  // Minified as the CLI is: a library user reads the declarations, and the source map beside it
  // (left out of the package) names the sources.
  minify: true,
  sourcemap: 'external',
  external: [...Object.keys(pkg.dependencies), ...optionalDependencies].filter((name) => name !== 'valibot'),
  define: { MINT_ADMIN_VERSION: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  metafile: true,
});
// A package the library loads must be one of its dependencies (what a user's install gets), not a
// devDependency bundled in by accident.
// (An input's path may run through a symbolic link: ../main/node_modules/... in a git worktree.)
const packageOf = (/** @type {string} */ input) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
const libraryPackages = new Set(
  Object.keys(library.metafile.inputs)
    .map(packageOf)
    .filter((name) => name !== undefined),
);
const undeclared = [...libraryPackages].filter((name) => !pkg.dependencies[name]);
if (undeclared.length > 0)
  throw new Error(`the library loads ${undeclared.join(', ')}: move them to dependencies (or stop importing them)`);
copyDeclarations(fileURLToPath(new URL('dist/', root)), 'index.d.ts', fileURLToPath(new URL('dist/lib/', root)));

/**
 * The declarations the library's index.d.ts reaches, and no others, copied with their relative
 * layout under dist/lib/: the public types are the contract, the CLI's modules are not shipped.
 * @param {string} from
 * @param {string} entry
 * @param {string} to
 */
function copyDeclarations(from, entry, to) {
  const seen = new Set();
  const pending = [resolve(from, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, spec = ''] of text.matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      pending.push(resolve(dirname(file), spec.replace(/\.js$/, '.d.ts')));
    }
    const out = join(to, relative(from, file));
    mkdirSync(dirname(out), { recursive: true });
    copyFileSync(file, out);
  }
}
