// A build wait on a log of 300,000 lines that rewrites its last line on every poll (issue 28): placing
// each poll against the log shown took time quadratic in its length (seconds a poll), during which
// neither the --timeout nor Ctrl-C was heard. In-process on a fake clock, so what is checked is
// behaviour, not speed: the deadline ends the wait after the polls it leaves room for (counted), each
// line is printed once, and a stop after the first rewrite is heard. The quadratic placing never
// finishes a poll here, so it fails these tests by hanging past vitest's ceiling, not by a timing.
// The linear work itself is counted in test/waits/log-stream.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { FakeClock } from '../helpers/clock.js';
import { runInProcess, type InProcessOptions } from '../helpers/in-process.js';
import { startServer } from '../helpers/server.js';

const LINES = 300_000;
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  await Promise.all(cleanups.map((c) => c()));
});

/** A server whose build log is LINES identical lines and a last one that alternates between polls. */
async function bigLogServer(onPoll: (polls: number) => void = () => {}) {
  const body = (last: string) =>
    JSON.stringify({ _id: 's1', status: 'in_progress', logs: [...Array<string>(LINES).fill('.'), last] });
  const bodies = [body('A'), body('B')];
  let polls = 0;
  const s = await startServer({
    'GET /v1/project/update-status/s1': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(bodies[polls++ % 2]);
      onPoll(polls);
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
  return {
    polls: () => polls,
    cli: (args: string[], o: Omit<InProcessOptions, 'env'> = {}) => runInProcess(args, { ...o, env }),
  };
}

const printedLog = (stderr: string) => stderr.split('\n').filter((l) => l === '.' || l === 'A' || l === 'B');

describe('a build wait on a 300,000-line log that rewrites itself', () => {
  it('--timeout 1s exits 5 once the polls it leaves room for are done, each line printed once', async () => {
    const s = await bigLogServer();
    const clock = new FakeClock();
    const r = await s.cli(['deploy', 'status', 's1', '--wait', '--timeout', '1s', '--interval', '250ms'], {
      clock,
      random: () => 0.5,
    });
    expect(r.code).toBe(5);
    // The interval grows between polls; the last sleep is cut to the deadline, and one last look is
    // taken there: polls at 0, 250, 550, 910 and 1000 ms of the fake clock.
    expect(r.sleeps).toEqual([250, 300, 360, 90]);
    expect(s.polls()).toBe(5);
    expect(printedLog(r.stderr)).toEqual([...Array<string>(LINES).fill('.'), 'A']);
  });

  it('Ctrl-C after the first rewrite was answered exits 130', async () => {
    let stop: (() => void) | undefined;
    // Stopped once the second answer (the first rewrite) is on its way: the quadratic search was
    // still placing it minutes later.
    const s = await bigLogServer((polls) => polls === 2 && stop?.());
    const r = await s.cli(['deploy', 'status', 's1', '--wait', '--interval', '100ms'], {
      clock: new FakeClock(),
      onStart: (stopRun) => {
        stop = stopRun;
      },
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('error: stopped waiting; deploy s1 keeps building on the server');
    expect(s.polls()).toBe(2);
  });
});
