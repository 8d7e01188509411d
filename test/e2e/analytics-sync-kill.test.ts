// The process itself is the point here: `analytics sync` killed with -9 at random points (counted in
// requests the server saw, from a fixed seed), or stopped by SIGTERM, loses nothing and stores nothing
// twice: a rerun ends with exactly the rows one uninterrupted sync stores. And where @duckdb/node-api
// cannot be resolved, the command says how to install it.
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DAY_MS, startOfUtcDay } from '../../src/analytics-store/sync/plan.js';
import { DUCKDB_VERSION } from '../../src/analytics-store/warehouse-install.js';
import { expectedSync, storedCounts } from '../analytics-store/expected.js';
import { CLI, runCli, tempDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const REPO = join(import.meta.dirname, '..', '..');

const t = useSandbox(
  { searchTermCount: 400, analytics: { pages: 60, feedback: 600, conversations: 2500 } },
  { homePerTest: true },
);
const fromDay = () => new Date(startOfUtcDay(Date.now()) - 5 * DAY_MS).toISOString().slice(0, 10);
const analyticsRequests = () => t.sandbox.requests.filter((r) => r.path.startsWith('/v1/analytics/')).length;

/** Runs a sync as a subprocess and sends `signal` once the server has seen `afterRequests` more analytics requests. */
function syncUntil(db: string, afterRequests: number, signal: NodeJS.Signals) {
  const start = analyticsRequests();
  let timer: NodeJS.Timeout | undefined;
  return runCli(['analytics', 'sync', '--db', db, '--from', fromDay(), '--max-requests', '100'], {
    env: t.env(),
    subprocess: true,
    onSpawn: (child: ChildProcess) => {
      timer = setInterval(() => {
        if (analyticsRequests() - start >= afterRequests) {
          clearInterval(timer);
          child.kill(signal);
        }
      }, 1);
    },
  }).finally(() => clearInterval(timer));
}

describe('analytics sync, interrupted', () => {
  it('kill -9 at random points, then a rerun: the same rows as one uninterrupted sync, none twice', async () => {
    const db = join(t.home, 'killed.duckdb');
    const expected = await expectedSync(t.sandbox, Date.parse(fromDay()), Date.now());
    // A fixed sequence, so a failure can be replayed: kill after this many requests of each run.
    let kills = 0;
    for (const after of [1, 3, 2, 7, 5]) {
      const r = await syncUntil(db, after, 'SIGKILL');
      if (r.signal === 'SIGKILL') kills++;
      // What a kill leaves behind holds what readers typed: the log beside the database is 0600 too.
      if (existsSync(`${db}.wal`)) expect(statSync(`${db}.wal`).mode & 0o777).toBe(0o600);
      expect(statSync(db).mode & 0o777).toBe(0o600);
    }
    // Each run was cut off mid-sync (the test proves something only if they were).
    expect(kills).toBe(5);
    const rerun = await runCli(
      ['analytics', 'sync', '--db', db, '--from', fromDay(), '--max-requests', '100', '--json'],
      { env: t.env() },
    );
    expect(rerun.code).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ complete: true });
    const stored = await storedCounts(db);
    expect(stored.rows).toEqual(expected.rows);
    expect(stored.distinct).toEqual(expected.rows);
  }, 90_000); // Six syncs, each opening and checkpointing the database: past 30 s on a loaded 2-core machine.

  it('SIGTERM ends it with 143 and says every stored page is kept; the rerun completes it', async () => {
    const db = join(t.home, 'term.duckdb');
    const expected = await expectedSync(t.sandbox, Date.parse(fromDay()), Date.now());
    const r = await syncUntil(db, 4, 'SIGTERM');
    expect(r.code).toBe(143);
    expect(r.stderr).toMatch(/every page stored so far is kept: run `mint-admin analytics sync` again to continue/);
    const rerun = await runCli(['analytics', 'sync', '--db', db, '--from', fromDay(), '--max-requests', '100'], {
      env: t.env(),
    });
    expect(rerun.code).toBe(0);
    expect((await storedCounts(db)).rows).toEqual(expected.rows);
  });

  it('where @duckdb/node-api cannot be resolved, says how to install it (and sends nothing)', async () => {
    // The built CLI copied beside a node_modules of its runtime dependencies alone, as a lean install
    // has them: the optional peer is simply absent.
    const dir = tempDir();
    try {
      cpSync(join(CLI, '..'), join(dir.path, 'cli'), { recursive: true });
      const { dependencies } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      };
      mkdirSync(join(dir.path, 'node_modules'));
      for (const name of Object.keys(dependencies))
        symlinkSync(join(REPO, 'node_modules', name), join(dir.path, 'node_modules', name));
      const { spawnSync } = await import('node:child_process');
      const r = spawnSync(
        process.execPath,
        [join(dir.path, 'cli', 'main.cjs'), 'analytics', 'sync', '--db', join(dir.path, 'a.duckdb')],
        {
          env: { ...t.env(), PATH: process.env.PATH, NODE_PATH: '' },
          encoding: 'utf8',
        },
      );
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`Add it with: npm install --global @duckdb/node-api@${DUCKDB_VERSION}`);
      expect(analyticsRequests()).toBe(0);
    } finally {
      dir.cleanup();
    }
  });
});
