// Start-up wall time of mint-admin against bare `node -e 0`, median of BENCH_RUNS runs each.
// Runs are interleaved (node, cli, node, cli...) so a busy machine slows both sides alike.
// Prints markdown table rows (| figure | mint-admin | baseline | ratio |) and PASS/MISS lines.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = Number(process.env.BENCH_RUNS ?? (process.env.BENCH_QUICK === '1' ? 5 : 25));
const TARGET = 1.15;
const cli = fileURLToPath(new URL('../bin/mint-admin.js', import.meta.url));
const configHome = mkdtempSync(join(tmpdir(), 'mint-admin-bench-'));
const env = { ...process.env, XDG_CONFIG_HOME: configHome, MINTLIFY_ADMIN_API_KEY: 'mint_benchkey000000000000' };

// [figure, argv, target ratio or undefined (config list reads the config file: "as low as it allows")]
const cases = [
  ['`--version`', ['--version'], TARGET],
  ['`--help`', ['--help'], TARGET],
  ['`export --help`', ['export', '--help'], TARGET],
  ['`config list`', ['config', 'list'], undefined],
];

function timeOnce(args) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`Start-up: wall time of each command vs \`node -e 0\`, median of ${RUNS} interleaved runs.\n`);
console.log('| figure | mint-admin | baseline | ratio |');
console.log('|---|---|---|---|');
const checks = [];
try {
  for (const [name, args, target] of cases) {
    for (let i = 0; i < 3; i++) timeOnce([cli, ...args]); // warm the file cache
    const base = [];
    const ours = [];
    for (let i = 0; i < RUNS; i++) {
      base.push(timeOnce(['-e', '0']));
      ours.push(timeOnce([cli, ...args]));
    }
    const ratio = median(ours) / median(base);
    console.log(`| start-up, ${name} | ${median(ours).toFixed(1)} ms | ${median(base).toFixed(1)} ms | ${ratio.toFixed(2)}x |`);
    if (target) checks.push([`start-up ${name} <= ${target}x bare node (${ratio.toFixed(2)}x)`, ratio <= target]);
  }
} finally {
  rmSync(configHome, { recursive: true, force: true });
}
console.log('');
for (const [text, ok] of checks) console.log(`${ok ? 'PASS' : 'MISS'} ${text}`);
process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
