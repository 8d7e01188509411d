// One-request commands against the sandbox (loopback, in this process), in a clean environment
// (measure.mjs): mint-admin vs a bare Node script that sends the same request with global fetch and
// prints the answer (what a user would write instead), and vs curl. Interleaved; median (min-max).
// Prints markdown table rows, raw runs and PASS/MISS lines (target: <= 1.0x the fetch script).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeEnv, interleaved, median, ms, rawLine, spread, timeRun } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox } = /** @type {typeof import('../src/sandbox/index.js')} */ (
  await import(join(root, 'dist/sandbox/index.js'))
);
const CLI = join(root, 'dist/cli/main.cjs');
const RUNS = Number(process.env.BENCH_RUNS ?? (process.env.BENCH_QUICK === '1' ? 5 : 30));
const TARGET = 1.0;
const work = mkdtempSync(join(tmpdir(), 'mint-admin-bench-requests-'));

// The fewest lines a user would write: one GET with the key, the JSON body printed.
const FETCH_SCRIPT = join(work, 'fetch.mjs');
writeFileSync(
  FETCH_SCRIPT,
  `const res = await fetch(process.argv[2], { headers: { authorization: 'Bearer ' + process.env.MINTLIFY_ADMIN_API_KEY } });
if (!res.ok) process.exit(1);
console.log(JSON.stringify(await res.json(), null, 2));
`,
);

const { sandboxApi } = await import('./download-sides.mjs');
const sandbox = await startSandbox({ searchTermCount: 3000 });
sandbox.faults.exportPollsToFinish = 0;
const api = (/** @type {string} */ method, /** @type {string} */ path, /** @type {unknown} */ body) =>
  sandboxApi(sandbox, method, path, body);

const env = {
  MINTLIFY_API_URL: sandbox.baseUrl,
  MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
  MINTLIFY_PROJECT_ID: sandbox.projectId,
  XDG_CONFIG_HOME: join(work, 'xdg'),
};
const agentJob = await api('POST', `/v2/agent/${sandbox.projectId}/job`, { prompt: 'bench' });
const exportJob = await api('POST', '/v1/static-export/jobs', { domain: 'docs.example.com' });

// [figure, mint-admin argv, the same request's path]
/** @type {Array<[string, string[], string]>} */
const cases = [
  ['`agent get <id>`', ['agent', 'get', agentJob.id], `/v2/agent/${sandbox.projectId}/job/${agentJob.id}`],
  ['`export status <id>`', ['export', 'status', exportJob.jobId], `/v1/static-export/jobs/${exportJob.jobId}`],
  [
    '`searches list --limit 1`',
    ['searches', 'list', '--limit', '1'],
    `/v1/analytics/${sandbox.projectId}/searches?limit=1`,
  ],
];

console.log(
  `One-request commands, sandbox on loopback: wall time vs a bare Node global-fetch script and vs curl, median (min-max) of ${RUNS} interleaved runs.`,
);
console.log(describeEnv(['XDG_CONFIG_HOME', 'MINTLIFY_API_URL', 'MINTLIFY_ADMIN_API_KEY', 'MINTLIFY_PROJECT_ID']));
console.log('');
console.log('| figure | mint-admin | baseline | ratio |');
console.log('|---|---|---|---|');
/** @type {Array<[string, boolean]>} */
const checks = [];
/** @type {string[]} */
const raw = [];
try {
  for (const [name, args, path] of cases) {
    const url = `${sandbox.baseUrl}${path}`;
    /** @type {[() => Promise<number>, () => Promise<number>, () => Promise<number>]} */
    const sides = [
      () => timeRun(process.execPath, [CLI, ...args], env),
      () => timeRun(process.execPath, [FETCH_SCRIPT, url], env),
      () => timeRun('curl', ['-sf', '-H', `authorization: Bearer ${sandbox.apiKey}`, url], env),
    ];
    for (const side of sides) for (let i = 0; i < 3; i++) await side(); // warm the file cache (and any code cache)
    const [ours, fetchScript, curl] = await interleaved(RUNS, sides);
    const ratio = median(ours) / median(fetchScript);
    console.log(
      `| ${name} vs Node fetch script | ${spread(ours, ms)} | ${spread(fetchScript, ms)} | ${ratio.toFixed(2)}x |`,
    );
    console.log(
      `| ${name} vs curl | ${spread(ours, ms)} | ${spread(curl, ms)} | ${(median(ours) / median(curl)).toFixed(2)}x |`,
    );
    raw.push(rawLine(name, { 'mint-admin': ours, 'node fetch script': fetchScript, curl }));
    checks.push([`${name} <= ${TARGET}x a bare Node fetch script (${ratio.toFixed(2)}x)`, ratio <= TARGET]);
  }
} finally {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
}
console.log('');
for (const line of raw) console.log(line);
for (const [text, ok] of checks) console.log(`${ok ? 'PASS' : 'MISS'} ${text}`);
process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
