// Benchmark of `export verify` (run `npm run build` first) on generated sites of 10,000 and 40,000
// pages, each page ~8 KB with ~40 references (pages, hashed assets, images, srcset, external links):
//   1. wall time for 10,000 pages must be under 5 s (the issue: "a few seconds");
//   2. peak RSS from 10,000 to 40,000 pages must grow by less than 40 MB (pages are streamed; only
//      the file list and the problems stay in memory);
//   3. against a baseline that only reads every page and counts `href=` with a regex (bare I/O).
// Prints a markdown table; exits 1 if a check fails.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, rssSource, settleDisk } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(root, 'dist/cli/main.cjs');
const work = mkdtempSync(join(tmpdir(), 'mint-admin-bench-verify-'));
const quick = process.env.BENCH_QUICK === '1';

const BASELINE = join(work, 'baseline.mjs');
writeFileSync(
  BASELINE,
  `import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
let refs = 0;
for (const e of readdirSync(process.argv[2], { recursive: true, withFileTypes: true })) {
  if (e.isFile() && e.name.endsWith('.html')) refs += (readFileSync(join(e.parentPath, e.name), 'utf8').match(/href=/g) ?? []).length;
}
console.error(refs + ' hrefs');
`,
);

/**
 * @param {string} dir
 * @param {number} pages
 */
function writeSite(dir, pages) {
  const write = (/** @type {string} */ path, /** @type {string} */ text) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('_next/static/css/app-3f9a2c1b.css', 'body{background:url(/images/logo.png)}');
  write('_next/static/chunks/main-8e7d4a06.js', '"use strict";');
  write('images/logo.png', 'png');
  const path = (/** @type {number} */ i) => `section-${i % 7}/group-${Math.floor(i / 200)}/page-${i}`;
  const text = 'Configure the project, then deploy the docs with the static export and check every link. '.repeat(40);
  for (let i = 0; i < pages; i++) {
    const links = Array.from(
      { length: 25 },
      (_, k) => `<li><a href="/${path((i * 31 + k * 17) % pages)}">Page ${k}</a></li>`,
    ).join('');
    write(
      `${path(i)}.html`,
      `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Page ${i}</title><link rel="stylesheet" href="/_next/static/css/app-3f9a2c1b.css"><script src="/_next/static/chunks/main-8e7d4a06.js" defer></script></head>` +
        `<body><nav><ul>${links}</ul></nav><main><h1>Page ${i}</h1><p>${text}</p><img src="/images/logo.png" srcset="/images/logo.png 1x, /images/logo.png 2x" alt="">` +
        `<a href="https://github.com/mintlify">GitHub</a><a href="#top">top</a><pre><code>&lt;a href="/x"&gt;</code></pre></main></body></html>`,
    );
  }
  write('index.html', '<a href="/section-0/group-0/page-0">start</a>');
}

async function run(/** @type {number} */ pages) {
  const dir = join(work, `site-${pages}`);
  writeSite(dir, pages);
  settleDisk();
  const env = { XDG_CONFIG_HOME: join(work, 'xdg') };
  // A first run warms the page cache for both (each reads the same files).
  await measure(process.execPath, [BASELINE, dir], env);
  const cli = await measure(process.execPath, [CLI, 'export', 'verify', dir, '--quiet'], env);
  if (cli.code !== 0) throw new Error(`mint-admin exited ${cli.code}: ${cli.stderr}`);
  const baseline = await measure(process.execPath, [BASELINE, dir], env);
  rmSync(dir, { recursive: true, force: true });
  return { pages, cli, baseline };
}

const fmtMs = (/** @type {number} */ ms) => `${ms.toFixed(0)} ms`;
const fmtMb = (/** @type {number} */ kb) => `${(kb / 1024).toFixed(1)} MB`;
const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (b > 0 ? (a / b).toFixed(2) : '-');

try {
  const small = await run(quick ? 500 : 10_000);
  const large = await run(quick ? 2_000 : 40_000);
  const growthKb = large.cli.peakKb - small.cli.peakKb;
  const rows = [
    [
      `wall time, ${small.pages.toLocaleString('en-US')} pages (must be < 5 s)`,
      fmtMs(small.cli.wallMs),
      fmtMs(small.baseline.wallMs),
      ratio(small.cli.wallMs, small.baseline.wallMs),
    ],
    [
      `wall time, ${large.pages.toLocaleString('en-US')} pages`,
      fmtMs(large.cli.wallMs),
      fmtMs(large.baseline.wallMs),
      ratio(large.cli.wallMs, large.baseline.wallMs),
    ],
    [
      `peak RSS, ${small.pages.toLocaleString('en-US')} pages`,
      fmtMb(small.cli.peakKb),
      fmtMb(small.baseline.peakKb),
      ratio(small.cli.peakKb, small.baseline.peakKb),
    ],
    [
      `peak RSS, ${large.pages.toLocaleString('en-US')} pages`,
      fmtMb(large.cli.peakKb),
      fmtMb(large.baseline.peakKb),
      ratio(large.cli.peakKb, large.baseline.peakKb),
    ],
    [
      'peak RSS growth, 4x the pages (must be < 40 MB)',
      fmtMb(growthKb),
      fmtMb(large.baseline.peakKb - small.baseline.peakKb),
      '-',
    ],
  ];
  console.log(
    `\nexport verify DIR (~8 KB and ~40 references a page; peak RSS from ${rssSource}; baseline = read every page and count href= with a regex)\n`,
  );
  console.log('| figure | mint-admin | baseline | ratio |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  /** @type {string[]} */
  const failures = [];
  if (!quick && small.cli.wallMs >= 5000) failures.push(`verify took ${fmtMs(small.cli.wallMs)} for 10,000 pages`);
  if (!quick && growthKb >= 40 * 1024) failures.push(`peak RSS grew by ${fmtMb(growthKb)} from 10,000 to 40,000 pages`);
  console.log(
    failures.length === 0
      ? 'PASS export verify: 10,000 pages in under 5 s, memory flat'
      : `MISS export verify: ${failures.join('; ')}`,
  );
  if (failures.length > 0) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
