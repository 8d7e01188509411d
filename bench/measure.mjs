// What the benchmarks share: the clean environment every timed process runs in, interleaved A/B runs,
// and a way to run a command and measure its wall time and peak RSS.
// Peak RSS comes from GNU time (/usr/bin/time -v) when present, else from sampling `ps` every 20 ms
// (the process and its children).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// A timed process sees only these variables from the bench's own environment, plus what its command
// needs (XDG_CONFIG_HOME, MINTLIFY_*). Anything else can slow one side: NODE_EXTRA_CA_CERTS alone makes
// every node start ~45 ms slower, NODE_OPTIONS can preload modules, and a user's shell has neither.
const INHERITED = ['PATH', 'HOME'];

/** @typedef {Record<string, string | undefined>} Env */
/** @typedef {{ code: number | null; wallMs: number; peakKb: number; stderr: string }} Measured */

/**
 * The environment of a timed process: PATH and HOME, then `extra`; never a NODE_* variable.
 * @param {Env} [extra]
 */
export function cleanEnv(extra = {}) {
  /** @type {Record<string, string>} */
  const env = {};
  for (const name of INHERITED) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    if (/^NODE_/i.test(name))
      throw new Error(`a timed process may not get ${name}: benchmarks run without NODE_* variables`);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/**
 * One line that says what a timed process saw; values of secrets and temp paths are left out.
 * @param {string[]} [extraNames]
 */
export function describeEnv(extraNames = []) {
  const shown = INHERITED.filter((n) => process.env[n] !== undefined).map((n) => `${n}=${process.env[n]}`);
  const dropped = Object.keys(process.env)
    .filter((n) => !INHERITED.includes(n))
    .sort();
  const droppedNode = dropped.filter((n) => /^NODE_/i.test(n));
  return (
    `Environment of every timed process (built from an allowlist, as \`env -i\` would): ${shown.join(' ')}` +
    (extraNames.length ? ` plus ${extraNames.join(', ')} as each command needs` : '') +
    `; no NODE_* variable.` +
    (droppedNode.length ? ` Dropped from the bench's own environment: ${droppedNode.join(', ')}.` : '')
  );
}

const GNU_TIME = '/usr/bin/time';
export const useGnuTime = existsSync(GNU_TIME);
export const rssSource = useGnuTime ? '/usr/bin/time -v' : 'ps sampled every 20 ms';

/**
 * Runs a command in cleanEnv(env); returns wall ms, peak RSS (kB), the exit code and stderr.
 * @param {string} cmd
 * @param {string[]} args
 * @param {Env} [env]
 * @returns {Promise<Measured>}
 */
export function measure(cmd, args, env = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    /** @type {[string, string[]]} */
    const [file, argv] = useGnuTime ? [GNU_TIME, ['-v', cmd, ...args]] : [cmd, args];
    const child = spawn(file, argv, { env: cleanEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let sampledKb = 0;
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    const sampler = useGnuTime
      ? undefined
      : setInterval(() => {
          const ps = spawn('ps', ['-o', 'rss=', '--ppid', String(child.pid), '-p', String(child.pid)]);
          let out = '';
          ps.stdout.on('data', (c) => (out += c));
          ps.on('close', () => (sampledKb = Math.max(sampledKb, ...out.split('\n').map((l) => Number(l.trim()) || 0))));
        }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      if (sampler) clearInterval(sampler);
      const wallMs = performance.now() - started;
      const peakKb = useGnuTime ? Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1]) : sampledKb;
      resolve({ code, wallMs, peakKb, stderr });
    });
  });
}

/**
 * Writes dirty pages out before a timed run, so the previous run's files (or their deletion) are
 * not flushed during this one and billed to it.
 */
export function settleDisk() {
  spawnSync('sync');
}

/** The median of samples; NaN for none. */
export const median = (/** @type {number[]} */ xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const at = (/** @type {number} */ i) => sorted[i] ?? Number.NaN;
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
};
export const min = (/** @type {number[]} */ xs) => Math.min(...xs);
export const max = (/** @type {number[]} */ xs) => Math.max(...xs);

/**
 * "median (min-max)" with the given formatter, e.g. "31.2 ms (29.8-40.1)".
 * @param {number[]} xs
 * @param {(x: number) => string} format
 */
export function spread(xs, format) {
  return `${format(median(xs))} (${format(min(xs)).replace(/ .*/, '')}-${format(max(xs))})`;
}

/**
 * Runs each of `sides` (functions returning a number) `runs` times in turn, A B C A B C ..., so a busy
 * neighbour on a shared machine slows every side alike. Returns one array of samples per side.
 * @template {Array<() => number | Promise<number>>} Sides
 * @param {number} runs
 * @param {[...Sides]} sides
 * @returns {Promise<{ [K in keyof Sides]: number[] }>}
 */
export async function interleaved(runs, sides) {
  const samples = sides.map(() => /** @type {number[]} */ ([]));
  for (let i = 0; i < runs; i++) for (const [k, side] of sides.entries()) samples[k]?.push(await side());
  // One array per side, in the order of `sides`: the tuple the caller destructures.
  return /** @type {{ [K in keyof Sides]: number[] }} */ (samples);
}

/**
 * Wall time (ms) of one run of a command in cleanEnv(env), output discarded; throws on a failure.
 * @param {string} cmd
 * @param {string[]} args
 * @param {Env} [env]
 * @returns {Promise<number>}
 */
export function timeRun(cmd, args, env = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, args, { env: cleanEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(ms);
    });
  });
}

/** Formats milliseconds for a table: one decimal. */
export const ms = (/** @type {number} */ x) => `${x.toFixed(1)} ms`;

/**
 * The raw samples, one line, for docs/performance.md.
 * @param {string} figure
 * @param {Record<string, number[]>} named
 */
export const rawLine = (figure, named) =>
  `raw: ${figure}: ${Object.entries(named)
    .map(([name, xs]) => `${name} ${xs.map((x) => x.toFixed(1)).join(' ')}`)
    .join('; ')}`;
