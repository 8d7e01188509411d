// Benchmark of `searches list --all --format csv` against the sandbox (run `npm run build` first):
//   1. requests sent for 20,000 terms must be exactly ceil(N/100);
//   2. peak RSS for 20,000 vs 100,000 terms must differ by less than 20 MB (streaming, flat memory);
//   3. the CLI's time per page against a bare `node` fetch loop over the same pages (the network
//      round trip plus the server's own time, with nothing written).
// Peak RSS comes from /usr/bin/time -v when present, else from sampling `ps` every 20 ms.
// Prints a markdown table; exits 1 if a check fails.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeEnv, measure, rssSource } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox } = /** @type {typeof import('../src/sandbox/index.js')} */ (
  await import(join(root, 'dist/sandbox/index.js'))
);
const CLI = join(root, 'dist/cli/main.cjs');
const work = mkdtempSync(join(tmpdir(), 'mint-admin-bench-'));

// The baseline: the fewest lines that fetch every page, following nextCursor, keeping nothing.
const BASELINE = join(work, 'baseline.mjs');
writeFileSync(
  BASELINE,
  `const [base, key, project] = process.argv.slice(2);
let cursor = null, pages = 0, terms = 0;
do {
  const q = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
  const res = await fetch(base + '/v1/analytics/' + project + '/searches?' + q, { headers: { authorization: 'Bearer ' + key } });
  const page = await res.json();
  pages++; terms += page.searches.length; cursor = page.nextCursor;
} while (cursor);
console.error(pages + ' pages, ' + terms + ' terms');
`,
);

async function run(/** @type {number} */ terms) {
  const sandbox = await startSandbox({ searchTermCount: terms });
  const env = {
    MINTLIFY_API_URL: sandbox.baseUrl,
    MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
    MINTLIFY_PROJECT_ID: sandbox.projectId,
    XDG_CONFIG_HOME: join(work, 'xdg'),
  };
  try {
    sandbox.searchTerms(); // aggregate once, so neither run pays for the sandbox's first sort
    const out = join(work, `searches-${terms}.csv`);
    const cli = await measure(
      process.execPath,
      [CLI, '--quiet', 'searches', 'list', '--all', '--format', 'csv', '-o', out],
      env,
    );
    if (cli.code !== 0) throw new Error(`mint-admin exited ${cli.code}: ${cli.stderr}`);
    const requests = sandbox.requests.filter((r) => r.path.includes('/searches')).length;
    sandbox.requests.length = 0;
    const baseline = await measure(
      process.execPath,
      [BASELINE, sandbox.baseUrl, sandbox.apiKey, sandbox.projectId],
      env,
    );
    if (baseline.code !== 0) throw new Error(`baseline exited ${baseline.code}: ${baseline.stderr}`);
    return { terms, requests, cli, baseline, csvBytes: statSync(out).size };
  } finally {
    await sandbox.close();
  }
}

const fmtMs = (/** @type {number} */ ms) => `${ms < 10 ? ms.toFixed(2) : ms.toFixed(0)} ms`;
const fmtMb = (/** @type {number} */ kb) => `${(kb / 1024).toFixed(1)} MB`;
const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (b > 0 ? (a / b).toFixed(2) : '-');

try {
  const small = await run(20_000);
  const large = await run(100_000);
  /** @typedef {Awaited<ReturnType<typeof run>>} Run */
  const pages = (/** @type {Run} */ r) => Math.ceil(r.terms / 100);
  const perPage = (/** @type {Run} */ r, /** @type {'cli' | 'baseline'} */ which) => r[which].wallMs / pages(r);
  const growthKb = large.cli.peakKb - small.cli.peakKb;
  const baseGrowthKb = large.baseline.peakKb - small.baseline.peakKb;
  const rows = [
    ['requests, 20,000 terms (must be ceil(N/100))', small.requests, pages(small), ratio(small.requests, pages(small))],
    ['requests, 100,000 terms', large.requests, pages(large), ratio(large.requests, pages(large))],
    [
      'wall time, 20,000 terms (200 pages)',
      fmtMs(small.cli.wallMs),
      fmtMs(small.baseline.wallMs),
      ratio(small.cli.wallMs, small.baseline.wallMs),
    ],
    [
      'wall time, 100,000 terms (1,000 pages)',
      fmtMs(large.cli.wallMs),
      fmtMs(large.baseline.wallMs),
      ratio(large.cli.wallMs, large.baseline.wallMs),
    ],
    [
      'time per page, 100,000 terms',
      fmtMs(perPage(large, 'cli')),
      fmtMs(perPage(large, 'baseline')),
      ratio(perPage(large, 'cli'), perPage(large, 'baseline')),
    ],
    [
      'marginal time per page (slope from 20k to 100k terms)',
      fmtMs((large.cli.wallMs - small.cli.wallMs) / (pages(large) - pages(small))),
      fmtMs((large.baseline.wallMs - small.baseline.wallMs) / (pages(large) - pages(small))),
      ratio(large.cli.wallMs - small.cli.wallMs, large.baseline.wallMs - small.baseline.wallMs),
    ],
    [
      'peak RSS, 20,000 terms',
      fmtMb(small.cli.peakKb),
      fmtMb(small.baseline.peakKb),
      ratio(small.cli.peakKb, small.baseline.peakKb),
    ],
    [
      'peak RSS, 100,000 terms',
      fmtMb(large.cli.peakKb),
      fmtMb(large.baseline.peakKb),
      ratio(large.cli.peakKb, large.baseline.peakKb),
    ],
    ['peak RSS growth 20k -> 100k (must be < 20 MB)', fmtMb(growthKb), fmtMb(baseGrowthKb), '-'],
    ['CSV written, 100,000 terms', fmtMb(large.csvBytes / 1024), '-', '-'],
  ];
  console.log(
    `\nsearches list --all --format csv -o FILE (sandbox in-process, CLI as a subprocess; peak RSS from ${rssSource}; baseline = bare node fetch loop over the same pages)`,
  );
  console.log(
    `${describeEnv(['XDG_CONFIG_HOME', 'MINTLIFY_API_URL', 'MINTLIFY_ADMIN_API_KEY', 'MINTLIFY_PROJECT_ID'])}\n`,
  );
  console.log('| figure | mint-admin | baseline | ratio |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  const failures = [];
  if (small.requests !== pages(small))
    failures.push(`sent ${small.requests} requests for 20,000 terms, expected ${pages(small)}`);
  if (large.requests !== pages(large))
    failures.push(`sent ${large.requests} requests for 100,000 terms, expected ${pages(large)}`);
  if (growthKb >= 20 * 1024) failures.push(`peak RSS grew by ${fmtMb(growthKb)} from 20,000 to 100,000 terms`);
  if (failures.length > 0) {
    console.error(`\nFAILED: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
