// `npm run bench`: every benchmark on this machine, one after another, as one markdown table
// (figure, mint-admin, baseline, ratio, and for the MCP start-up the SDK's floor), the notes (each with the clean environment its processes ran
// in, bench/measure.mjs), then each target as PASS or MISS, then the raw runs (docs/performance.md). BENCH_QUICK=1 shrinks the
// workloads to check the scripts themselves; its figures are not measurements.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const benches = [
  'startup.mjs',
  'requests.mjs',
  'download.mjs',
  'download-mixes.mjs',
  'searches.mjs',
  'gaps.mjs',
  'verify.mjs',
  'verify-peers.mjs',
  'mcp.mjs',
  'analytics-sync.mjs',
];
const raw = [];
const rows = [];
const notes = [];
const verdicts = [];
let failed = false;

// The machine may be shared: its load before and after says how far to trust the wall times.
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
const loadBefore = load();
for (const bench of benches) {
  process.stderr.write(`running bench/${bench}...\n`);
  // The peers verify is compared with are installed by the bench itself (apt-get, npm into bench/.cache).
  if (bench === 'verify-peers.mjs')
    spawnSync(fileURLToPath(new URL('verify-peers-setup.sh', import.meta.url)), {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  const r = spawnSync(process.execPath, [fileURLToPath(new URL(bench, import.meta.url))], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) failed = true;
  for (const line of r.stdout.split('\n')) {
    if (/^\|\s*(figure|---)/.test(line)) continue;
    if (line.startsWith('| ')) rows.push(line);
    else if (/^(PASS|MISS) /.test(line)) verdicts.push(line);
    else if (line.startsWith('raw: ')) raw.push(`- ${line.slice(5)}`);
    else if (line.trim()) notes.push(line);
  }
}

console.log(
  `Benchmarks on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z; load average (1, 5, 15 min) ${loadBefore} before, ${load()} after.\n`,
);
// The fifth column is bench/mcp.mjs's alone: the MCP SDK's own minimal server beside mint-admin's start-up.
console.log('| figure | mint-admin | baseline | ratio | SDK floor |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log('');
for (const note of notes) console.log(note);
console.log('');
for (const verdict of verdicts) console.log(verdict);
console.log('\nRaw runs, in the order they ran:\n');
for (const line of raw) console.log(line);
process.exitCode = failed ? 1 : 0;
