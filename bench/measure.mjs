// What the benchmarks share: run a command and measure its wall time and peak RSS.
// Peak RSS comes from GNU time (/usr/bin/time -v) when present, else from sampling `ps` every 20 ms
// (the process and its children).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const GNU_TIME = '/usr/bin/time';
export const useGnuTime = existsSync(GNU_TIME);
export const rssSource = useGnuTime ? '/usr/bin/time -v' : 'ps sampled every 20 ms';

/** Runs a command; returns wall ms, peak RSS (kB), the exit code and stderr. */
export function measure(cmd, args, env = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const [file, argv] = useGnuTime ? [GNU_TIME, ['-v', cmd, ...args]] : [cmd, args];
    const child = spawn(file, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
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

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
