// Benchmark of `analytics gaps` against the sandbox (run `npm run build` first), on a month of a
// large site's generated data and on five times that:
//   1. requests: within --max-requests, and no more than the sources need (a source that ends early
//      leaves its share unspent);
//   2. wall time against a bare `node` fetch loop over exactly the pages the CLI asked for (same
//      URLs, in order, nothing parsed beyond JSON), so the ratio is the CLI's own cost;
//   3. peak RSS as the data grows 5x with the budget raised to 100 (all of the hour's requests): it
//      must stay flat (< 20 MB growth), because each page is folded into small aggregates.
// Prints a markdown table; exits 1 if a check fails.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, rssSource } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox } = /** @type {typeof import('../src/sandbox/index.js')} */ (
  await import(join(root, 'dist/sandbox/index.js'))
);
const CLI = join(root, 'dist/cli/main.cjs');
const work = mkdtempSync(join(tmpdir(), 'mint-admin-bench-gaps-'));
const QUICK = Boolean(process.env.BENCH_QUICK);

// The baseline: fetch the same URLs the CLI fetched, one after another, and parse each body.
const BASELINE = join(work, 'baseline.mjs');
writeFileSync(
  BASELINE,
  `const [base, key, list] = process.argv.slice(2);
for (const path of JSON.parse(list)) {
  const res = await fetch(base + path, { headers: { authorization: 'Bearer ' + key } });
  await res.json();
}
`,
);

const MONTH = QUICK
  ? { terms: 2_000, analytics: { pages: 300, feedback: 2_000, conversations: 5_000 } }
  : { terms: 20_000, analytics: { pages: 2_000, feedback: 20_000, conversations: 30_000 } };
/** @typedef {typeof MONTH} Size */
const times = (/** @type {Size} */ size, /** @type {number} */ k) => ({
  terms: size.terms * k,
  analytics: {
    pages: size.analytics.pages * k,
    feedback: size.analytics.feedback * k,
    conversations: size.analytics.conversations * k,
  },
});

/**
 * @param {Size} size
 * @param {number} maxRequests
 */
async function run(size, maxRequests) {
  const sandbox = await startSandbox({ searchTermCount: size.terms, analytics: size.analytics });
  const env = {
    MINTLIFY_API_URL: sandbox.baseUrl,
    MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
    MINTLIFY_PROJECT_ID: sandbox.projectId,
    XDG_CONFIG_HOME: join(work, 'xdg'),
  };
  try {
    sandbox.searchTerms(); // aggregate once, so neither run pays for the sandbox's first sort
    const cli = await measure(
      process.execPath,
      [
        CLI,
        '--quiet',
        'analytics',
        'gaps',
        '--format',
        'json',
        '--max-requests',
        String(maxRequests),
        '-o',
        join(work, 'gaps.json'),
      ],
      env,
    );
    if (cli.code !== 0) throw new Error(`mint-admin exited ${cli.code}: ${cli.stderr}`);
    const paths = sandbox.requests.map((r) => r.path);
    sandbox.requests.length = 0;
    const baseline = await measure(
      process.execPath,
      [BASELINE, sandbox.baseUrl, sandbox.apiKey, JSON.stringify(paths)],
      env,
    );
    if (baseline.code !== 0) throw new Error(`baseline exited ${baseline.code}: ${baseline.stderr}`);
    return { requests: paths.length, cli, baseline };
  } finally {
    await sandbox.close();
  }
}

const fmtMs = (/** @type {number} */ ms) => `${ms.toFixed(0)} ms`;
const fmtMb = (/** @type {number} */ kb) => `${(kb / 1024).toFixed(1)} MB`;
const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (b > 0 ? (a / b).toFixed(2) : '-');

try {
  const month = await run(MONTH, 25);
  const full = await run(MONTH, 100);
  const big = await run(times(MONTH, 5), 100);
  const growthKb = big.cli.peakKb - full.cli.peakKb;
  const label = `${MONTH.terms} terms, ${MONTH.analytics.conversations} conversations, ${MONTH.analytics.pages} pages`;
  const rows = [
    [`gaps requests, default budget 25 (${label})`, month.requests, 25, ratio(month.requests, 25)],
    [
      'gaps wall time, default budget',
      fmtMs(month.cli.wallMs),
      fmtMs(month.baseline.wallMs),
      ratio(month.cli.wallMs, month.baseline.wallMs),
    ],
    ['gaps requests, --max-requests 100', full.requests, 100, ratio(full.requests, 100)],
    [
      'gaps wall time, --max-requests 100',
      fmtMs(full.cli.wallMs),
      fmtMs(full.baseline.wallMs),
      ratio(full.cli.wallMs, full.baseline.wallMs),
    ],
    [
      'gaps peak RSS, --max-requests 100',
      fmtMb(full.cli.peakKb),
      fmtMb(full.baseline.peakKb),
      ratio(full.cli.peakKb, full.baseline.peakKb),
    ],
    [
      'gaps peak RSS, 5x the data, --max-requests 100',
      fmtMb(big.cli.peakKb),
      fmtMb(big.baseline.peakKb),
      ratio(big.cli.peakKb, big.baseline.peakKb),
    ],
    [
      'gaps peak RSS growth at 5x the data (must be < 20 MB)',
      fmtMb(growthKb),
      fmtMb(big.baseline.peakKb - full.baseline.peakKb),
      '-',
    ],
  ];
  console.log(
    `\nanalytics gaps (sandbox in-process, CLI as a subprocess; peak RSS from ${rssSource}; baseline = bare node fetch loop over the same URLs)\n`,
  );
  console.log('| figure | mint-admin | baseline | ratio |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  const failures = [];
  if (month.requests > 25) failures.push(`gaps sent ${month.requests} requests with --max-requests 25`);
  if (full.requests > 100 || big.requests > 100) failures.push('gaps went past --max-requests 100');
  if (growthKb >= 20 * 1024) failures.push(`peak RSS grew by ${fmtMb(growthKb)} at 5x the data`);
  console.log(failures.length === 0 ? 'PASS gaps: within budget, flat memory' : `MISS gaps: ${failures.join('; ')}`);
  if (failures.length > 0) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
