// Start-up wall time of mint-admin against bare `node -e 0`, median of RUNS runs each.
// Runs are interleaved (node, cli, node, cli...) so a busy machine slows both sides alike.
// Prints markdown table rows: | figure | mint-admin | baseline | ratio |
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const cli = fileURLToPath(new URL('../bin/mint-admin.js', import.meta.url));
const configHome = mkdtempSync(join(tmpdir(), 'mint-admin-bench-'));
const env = { ...process.env, XDG_CONFIG_HOME: configHome, MINTLIFY_ADMIN_API_KEY: 'mint_benchkey000000000000' };

const cases = [
  ['`--version`', ['--version'], 1.15],
  ['`--help`', ['--help'], 1.15],
  ['`config --help`', ['config', '--help'], 1.15], // becomes export --help once export lands
  ['`config list`', ['config', 'list'], undefined],
];

function timeOnce(args) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

export function benchStartup() {
  const rows = [];
  for (const [name, args, target] of cases) {
    const base = [];
    const ours = [];
    for (let i = 0; i < 3; i++) timeOnce([cli, ...args]); // warm the file cache
    for (let i = 0; i < RUNS; i++) {
      base.push(timeOnce(['-e', '0']));
      ours.push(timeOnce([cli, ...args]));
    }
    const b = median(base);
    const o = median(ours);
    const ratio = o / b;
    rows.push({
      figure: `start-up ${name} (median of ${RUNS})`,
      ours: `${o.toFixed(1)} ms`,
      baseline: `${b.toFixed(1)} ms (\`node -e 0\`)`,
      ratio: `${ratio.toFixed(2)}x`,
      target: target ? `<= ${target}x` : 'as low as conf allows',
      met: target ? ratio <= target : undefined,
    });
  }
  rmSync(configHome, { recursive: true, force: true });
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('| figure | mint-admin | baseline | ratio | target |');
  console.log('|---|---|---|---|---|');
  for (const r of benchStartup()) console.log(`| ${r.figure} | ${r.ours} | ${r.baseline} | ${r.ratio} | ${r.target} |`);
}
