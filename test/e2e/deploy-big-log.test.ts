// A build wait on a log of 300,000 lines that rewrites its last line on every poll (issue 28): placing
// each poll against the log shown took quadratic time (12.9 s a poll at 100,000 lines), during which
// neither the --timeout nor Ctrl-C was heard. Through the built CLI, as CI runs it.
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, type CliOptions } from '../helpers/cli.js';
import { startServer } from '../helpers/server.js';

const LINES = 300_000;
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  await Promise.all(cleanups.map((c) => c()));
});

/** A server whose build log is LINES identical lines and a last one that alternates between polls. */
async function bigLogServer() {
  const body = (last: string) =>
    JSON.stringify({ _id: 's1', status: 'in_progress', logs: [...Array<string>(LINES).fill('.'), last] });
  const bodies = [body('A'), body('B')];
  let polls = 0;
  const s = await startServer({
    'GET /v1/project/update-status/s1': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(bodies[polls++ % 2]);
    },
  });
  const home = tempDir();
  cleanups.push(() => s.close(), home.cleanup);
  const env = {
    HOME: home.path,
    XDG_CONFIG_HOME: home.path,
    MINTLIFY_API_URL: s.url,
    MINTLIFY_ADMIN_API_KEY: 'mint_e2etestkey0123456789',
  };
  return { polls: () => polls, cli: (args: string[], o: CliOptions = {}) => runCli(args, { ...o, env }) };
}

describe('a build wait on a 300,000-line log that rewrites itself', () => {
  it('--timeout 4s exits 5 near the deadline, each line printed once', async () => {
    const s = await bigLogServer();
    const started = Date.now();
    const r = await s.cli(['deploy', 'status', 's1', '--wait', '--timeout', '4s', '--interval', '100ms']);
    const took = Date.now() - started;
    expect(r.code).toBe(5);
    expect(s.polls()).toBeGreaterThanOrEqual(3);
    const log = r.stderr.split('\n').filter((l) => l === '.' || l === 'A' || l === 'B');
    expect(log).toEqual([...Array<string>(LINES).fill('.'), 'A']);
    // Generous: the deadline, a Node start-up and reading a 600 KB answer a poll on a busy machine.
    // The 4 s deadline leaves room for three polls (each reads and checks 600 KB) on a loaded 2-core
    // machine; the quadratic placing this guards against took seconds a poll.
    expect(took).toBeLessThan(12_000);
  }, 30_000);

  it('Ctrl-C while it follows the log exits 130 promptly', async () => {
    const s = await bigLogServer();
    let signalled = 0;
    const r = await s.cli(['deploy', 'status', 's1', '--wait', '--interval', '100ms'], {
      onSpawn: (child) => {
        // Some time after the second answer (the first rewrite) was sent, the CLI is placing it: the
        // quadratic search was still at it minutes later.
        const timer = setInterval(() => {
          if (s.polls() < 2) return;
          clearInterval(timer);
          setTimeout(() => {
            signalled = Date.now();
            child.kill('SIGINT');
          }, 300);
        }, 5);
        child.on('close', () => clearInterval(timer));
      },
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('error: stopped waiting; deploy s1 keeps building on the server');
    expect(Date.now() - signalled).toBeLessThan(3_000);
  }, 30_000);
});
