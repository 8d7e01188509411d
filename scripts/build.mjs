// Build: tsc type-checks and emits dist/ (modules and declarations the benchmarks, scripts and tests
// import: the development build), then esbuild bundles what is packed (package.json `files`):
// - dist/cli/: the CLI entry with commander, which bin/mint-admin.js runs. One bundled file starts
//   measurably faster than a graph of small ESM files plus a CommonJS commander (see docs/performance.md,
//   Performance); heavy dependencies stay external and load only inside the commands that use them.
// - dist/lib/: the library (src/index.ts) as one module, with the declarations of its public surface.
// Source maps and the metafile are written outside dist/cli and dist/lib, or beside the bundles as
// .map files that `files` leaves out: the maps weigh three times the code.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

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

// valibot is bundled too, into the chunk of the API client that alone imports it: tree-shaken to the
// ~9 KB the schemas use, it loads in about half the time of the whole package (src/api/schemas.ts).
const BUNDLED = new Set(['commander', 'valibot']);
const lazyDependencies = Object.keys(pkg.dependencies).filter((name) => !BUNDLED.has(name));
// The program (run.ts) and everything it loads lazily: one split build, so commands share chunks.
const program = await build({
  absWorkingDir: root.pathname,
  entryPoints: { run: 'src/run.ts' },
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'external',
  external: lazyDependencies,
  define: { MINT_ADMIN_VERSION: JSON.stringify(pkg.version) },
  // commander is CommonJS: give its require() calls (node:events, ...) a real require in ESM.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  plugins: [lazyChildProcess],
  metafile: true,
  logLevel: 'warning',
});

// The entry on its own: it imports no shared chunk, so printing pre-rendered help loads one module.
const entry = await build({
  absWorkingDir: root.pathname,
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist/cli',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'external',
  external: ['./run.js'],
  metafile: true,
  logLevel: 'warning',
});
// Help texts and the version, rendered now so that printing them needs no commander (prerendered.ts).
const { buildProgram } = await import(new URL('dist/program.js', root).href);
const { renderOutputs, PRERENDERED_FILE } = await import(new URL('dist/prerendered.js', root).href);
let captured = '';
const sink = { write: (text) => ((captured += text), true) };
// columns: Infinity renders help unwrapped; main.ts wraps it to the terminal when it prints it.
const tree = buildProgram({ io: { stdout: sink, stderr: sink, columns: Number.POSITIVE_INFINITY }, env: {}, signal: new AbortController().signal, random: Math.random });
const outputs = renderOutputs(tree, () => captured, () => (captured = ''));
writeFileSync(new URL(`dist/cli/${PRERENDERED_FILE}`, root), JSON.stringify(outputs));

// Which sources each chunk holds: the start-up test checks that --help loads none of the heavy ones.
const metafile = {
  inputs: { ...program.metafile.inputs, ...entry.metafile.inputs },
  outputs: { ...program.metafile.outputs, ...entry.metafile.outputs },
};
writeFileSync(new URL('dist/cli-meta.json', root), JSON.stringify(metafile));

// The library: one module with valibot inside (as in the CLI), its other dependencies external.
await build({
  absWorkingDir: root.pathname,
  entryPoints: { index: 'src/index.ts' },
  outdir: 'dist/lib',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'external',
  external: lazyDependencies,
  define: { MINT_ADMIN_VERSION: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});
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
