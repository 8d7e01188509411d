// Start-up wall time of mint-admin against bare `node -e 0`, in a clean environment (measure.mjs).
// Runs are interleaved (node, cli, node, cli...) so a busy machine slows both sides alike; each figure
// is the median with the min-max range. Prints markdown table rows, raw runs and PASS/MISS lines.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeEnv, interleaved, median, ms, rawLine, spread, timeRun } from './measure.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? (process.env.BENCH_QUICK === '1' ? 5 : 30));
const cli = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));
const configHome = mkdtempSync(join(tmpdir(), 'mint-admin-bench-'));
const env = { XDG_CONFIG_HOME: configHome, MINTLIFY_ADMIN_API_KEY: 'mint_benchkey000000000000' };

// [figure, argv, target ratio to `node -e 0` (issue 46)]
/** @type {Array<[string, string[], number]>} */
const cases = [
  ['`--version`', ['--version'], 1.25],
  ['`--help`', ['--help'], 1.25],
  ['`export --help`', ['export', '--help'], 1.25],
  ['`config list`', ['config', 'list'], 1.5],
  ['`config path`', ['config', 'path'], 1.5],
];

console.log(`Start-up: wall time of each command vs \`node -e 0\`, median (min-max) of ${RUNS} interleaved runs.`);
console.log(describeEnv(['XDG_CONFIG_HOME', 'MINTLIFY_ADMIN_API_KEY']));
console.log('');
console.log('| figure | mint-admin | baseline | ratio |');
console.log('|---|---|---|---|');
/** @type {Array<[string, boolean]>} */
const checks = [];
/** @type {string[]} */
const raw = [];
try {
  for (const [name, args, target] of cases) {
    for (let i = 0; i < 3; i++) await timeRun(process.execPath, [cli, ...args], env); // warm the file cache (and any code cache)
    const [base, ours] = await interleaved(RUNS, [
      () => timeRun(process.execPath, ['-e', '0'], env),
      () => timeRun(process.execPath, [cli, ...args], env),
    ]);
    const ratio = median(ours) / median(base);
    console.log(`| start-up, ${name} | ${spread(ours, ms)} | ${spread(base, ms)} | ${ratio.toFixed(2)}x |`);
    raw.push(rawLine(`start-up, ${name}`, { 'mint-admin': ours, 'node -e 0': base }));
    checks.push([`start-up ${name} <= ${target}x bare node (${ratio.toFixed(2)}x)`, ratio <= target]);
  }
  // Other CLIs' `--version` side by side (no target: context): those bench/startup-peers-setup.sh
  // installs from the registry, and gh where it is on PATH.
  const peersDir = fileURLToPath(new URL('.cache/startup-peers/', import.meta.url));
  /** @type {Array<[string, string]>} */
  const peers = [
    ['wrangler', 'wrangler'],
    ['netlify', 'netlify-cli'],
    ['vercel', 'vercel'],
  ].map(([name = '', pkg = '']) => [name, join(peersDir, pkg, 'node_modules/.bin', name)]);
  const gh = (() => {
    try {
      return execFileSync('sh', ['-c', 'command -v gh'], { encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  })();
  if (gh) peers.push(['gh', gh]);
  else console.log('(gh is not installed: not timed)');
  for (const [name, bin] of peers) {
    if (!existsSync(bin)) {
      console.log(`(${name} is not installed: run bench/startup-peers-setup.sh; not timed)`);
      continue;
    }
    const peerEnv = {
      ...env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      DO_NOT_TRACK: '1',
      WRANGLER_SEND_METRICS: 'false',
      NETLIFY_TELEMETRY_DISABLED: '1',
      VERCEL_TELEMETRY_DISABLED: '1',
    };
    for (let i = 0; i < 2; i++) await timeRun(bin, ['--version'], peerEnv);
    const [base, ours, theirs] = await interleaved(Math.min(RUNS, 10), [
      () => timeRun(process.execPath, ['-e', '0'], env),
      () => timeRun(process.execPath, [cli, '--version'], env),
      () => timeRun(bin, ['--version'], peerEnv),
    ]);
    console.log(
      `| \`${name} --version\` (context) | mint-admin ${spread(ours, ms)} | ${spread(theirs, ms)} (node -e 0 ${spread(base, ms)}) | ${(median(theirs) / median(ours)).toFixed(1)}x mint-admin's |`,
    );
    raw.push(
      rawLine(`${name} --version`, { 'mint-admin --version': ours, [`${name} --version`]: theirs, 'node -e 0': base }),
    );
    checks.push([`mint-admin --version faster than ${name} --version`, median(ours) < median(theirs)]);
  }
} finally {
  rmSync(configHome, { recursive: true, force: true });
}
console.log('');
for (const line of raw) console.log(line);
for (const [text, ok] of checks) console.log(`${ok ? 'PASS' : 'MISS'} ${text}`);
process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
