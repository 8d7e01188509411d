// `npm run man`: regenerates man/ from the command tree (after `npm run build`). A test fails when
// the committed pages differ from what this writes.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { buildProgram } from '../dist/cli/program.js';
import { manPages } from '../dist/cli/man/roff.js';
import { VERSION } from '../dist/version.js';

/** @import { Deps } from '../src/cli/context.js' */

let captured = '';
const sink = { write: (/** @type {string} */ text) => ((captured += text), true) };
// Help unwrapped (a width it never reaches): groff wraps the page itself. The tree is only read,
// never run: what building it touches (help output) is all it gets.
const program = buildProgram(
  /** @type {Deps} */ ({
    io: { stdout: sink, stderr: sink, columns: Number.MAX_SAFE_INTEGER },
    env: {},
    signal: new AbortController().signal,
    random: Math.random,
  }),
);
const dir = new URL('../man/', import.meta.url);
mkdirSync(dir, { recursive: true });
// Pages of commands that no longer exist go too.
for (const old of readdirSync(dir)) if (old.endsWith('.1')) rmSync(new URL(old, dir));
for (const page of manPages(
  program,
  VERSION,
  () => captured,
  () => (captured = ''),
)) {
  writeFileSync(new URL(page.file, dir), page.text);
}
// package.json lists every page, so a global install puts them where `man` looks.
const pkgFile = new URL('../package.json', import.meta.url);
const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
pkg.man = readdirSync(dir)
  .sort()
  .map((file) => `./man/${file}`);
writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(`wrote ${readdirSync(dir).length} pages in man/`);
