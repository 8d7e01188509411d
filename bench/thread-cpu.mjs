#!/usr/bin/env node
// A command's CPU time thread by thread, as the kernel counts it: `node bench/thread-cpu.mjs [--runs N]
// -- <command> [args...]`. Why: `--cpu-prof` writes a profile per JavaScript thread only, and its
// samples count time a thread spent waiting for a core; V8's own threads (its garbage collector's
// helpers, its optimising compiler) and the libuv pool never show there. This reads every thread's
// user and system time from /proc/<pid>/task/<tid>/stat every 2 ms while the command runs (Linux
// only; a thread's last 2 ms can be missed, and the kernel counts in ticks, 10 ms here), and prints,
// per run, each thread with when it was first seen. The medians over runs are printed at the end.
// The command runs in the benchmarks' clean environment (measure.mjs: PATH and HOME, never a NODE_*
// variable), plus the XDG_CONFIG_HOME and MINTLIFY_* variables given to this script, which the CLI
// needs. docs/performance.md ("Where the CPU goes, thread by thread") reads the output.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { cleanEnv, describeEnv, median } from './measure.mjs';

const TICKS_PER_SECOND = 100;
const POLL_MS = 2;

const args = process.argv.slice(2);
let runs = 1;
if (args[0] === '--runs') {
  runs = Number(args[1]);
  args.splice(0, 2);
}
if (args[0] === '--') args.shift();
if (args.length === 0 || !Number.isInteger(runs) || runs < 1) {
  console.error('usage: node bench/thread-cpu.mjs [--runs N] -- <command> [args...]');
  process.exit(2);
}
const [command = '', ...commandArgs] = args;
if (process.platform !== 'linux') {
  console.error('bench/thread-cpu.mjs reads /proc: Linux only');
  process.exit(2);
}

/**
 * Each thread's CPU ms so far, by thread id, or undefined once the process is gone.
 * @param {number | undefined} pid undefined when the process never started
 */
function threadTimes(pid) {
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  /** @type {Map<number, number>} */
  const times = new Map();
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1');
      // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(Number(tid), ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return times;
}

/** What the CLI needs of this script's environment: its config directory and the API's settings. */
const needed = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name === 'XDG_CONFIG_HOME' || name.startsWith('MINTLIFY_')),
);
const env = cleanEnv(needed);

async function once() {
  const started = performance.now();
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'inherit'], env });
  /** @type {Promise<number | NodeJS.Signals | null>} */
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  let done = false;
  void exited.then(() => (done = true));
  /** @type {Map<number, { cpuMs: number; firstSeenMs: number }>} */
  const threads = new Map();
  while (!done) {
    const times = threadTimes(child.pid);
    const now = performance.now() - started;
    if (times)
      for (const [tid, cpuMs] of times) threads.set(tid, { cpuMs, firstSeenMs: threads.get(tid)?.firstSeenMs ?? now });
    await sleep(POLL_MS);
  }
  const status = await exited;
  const wallMs = performance.now() - started;
  const rows = [...threads]
    .map(([tid, t]) => ({ main: tid === child.pid, ...t }))
    .sort((a, b) => a.firstSeenMs - b.firstSeenMs);
  return { status, wallMs, rows };
}

console.log(describeEnv(Object.keys(needed)));
const results = [];
for (let i = 0; i < runs; i++) {
  const result = await once();
  results.push(result);
  const total = result.rows.reduce((sum, row) => sum + row.cpuMs, 0);
  console.log(`run ${i + 1}: exit ${result.status}, wall ${result.wallMs.toFixed(0)} ms, CPU ${total.toFixed(0)} ms`);
  for (const row of result.rows)
    if (row.cpuMs > 0)
      console.log(
        `  ${row.main ? 'main thread' : 'thread'} seen at ${row.firstSeenMs.toFixed(0).padStart(5)} ms: ${row.cpuMs.toFixed(0).padStart(5)} ms`,
      );
}
if (runs > 1) {
  const totals = results.map((r) => r.rows.reduce((sum, row) => sum + row.cpuMs, 0));
  console.log(
    `median of ${runs} runs: wall ${median(results.map((r) => r.wallMs)).toFixed(0)} ms, CPU ${median(totals).toFixed(0)} ms`,
  );
}
