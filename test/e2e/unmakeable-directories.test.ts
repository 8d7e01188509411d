// A directory the CLI makes for itself (its config, its request ledger, the export flow cache,
// a download's parents) under a parent that refuses children with ENOENT, as /proc and
// /sys do. Node's own recursive mkdir (sync and async, Node 20-24) spins forever there, past SIGTERM;
// every such place goes through src/make-directory.ts instead, so the run ends: with a one-line error
// where the directory is the point, as if nothing happened where it is a cache.
// The built CLI as a subprocess, each run killed after a deadline: a hang in-process would hang the
// test worker.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, cliEnv, outputOf, type CliResult } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({ searchTermCount: 5 }, { homePerTest: true });
const REFUSING = '/proc/mint-admin-test-unmakeable';

/** The built CLI, SIGKILLed if it has not ended after `deadlineMs` (then `signal` is SIGKILL). */
async function run(args: string[], env: Record<string, string>, deadlineMs = 15_000): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: cliEnv({ ...t.env(), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  try {
    return await outputOf(child);
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(process.platform !== 'linux')('directories under a parent that refuses children (/proc)', () => {
  it('config set: a one-line error and exit 1, not a spin', async () => {
    const result = await run(['config', 'set', 'project-id', 'abc'], { XDG_CONFIG_HOME: `${REFUSING}/config` });
    expect(result.signal).toBeNull();
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(REFUSING);
  });

  it("the request ledger: the list is printed, the budget is this run's own count", async () => {
    const result = await run(['searches', 'list', '--from', '2026-11-01', '--to', '2026-11-08', '--json'], {
      XDG_STATE_HOME: `${REFUSING}/state`,
    });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('searches');
  });

  it('export run -o under it: refused before any export is started', async () => {
    const result = await run(['export', 'run', 'docs.example.com', '-o', `${REFUSING}/site`, '--timeout', '30s'], {});
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("the kernel's proc filesystem");
    expect(t.sandbox.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });
});
