// A duration no timer can hold: Node's timers hold at most 2^31-1 ms (about 24.8 days), and a longer
// one fires at once, so `--timeout 597h` used to end a wait with exit 5 the moment it began. Every
// flag that takes a duration refuses such a value with exit 2 before anything is sent.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('a duration longer than a timer can hold: exit 2, one line naming the most, nothing sent', () => {
  it.each<[string[], string, string]>([
    [['agent', 'run', 'write docs', '--wait'], '--timeout', '597h'],
    [['agent', 'get', 'job_1', '--wait'], '--timeout', '600h'],
    [['agent', 'message', 'job_1', 'more', '--wait'], '--interval', '597h'],
    [['export', 'start', 'docs.example.com', '--wait'], '--timeout', '2147484'],
    [['export', 'status', 'se_1', '--wait'], '--interval', '99999999999999999999999h'],
    [['export', 'run', 'docs.example.com', '-o', 'site'], '--timeout', '596h1s'],
    [['deploy', 'start', '--wait'], '--timeout', '597h'],
    [['deploy', 'status', 'st_1', '--wait'], '--interval', '1000h'],
    [['preview', 'start', 'main', '--wait'], '--timeout', '597h'],
    [['preview', 'status', 'st_1', '--wait'], '--timeout', '597h'],
  ])('%j %s %s', async (command, flag, value) => {
    // No route: any request at all is recorded as unexpected.
    const server = await startServer({});
    const dir = tempDir();
    cleanups.push(() => server.close(), dir.cleanup);
    const env = {
      MINTLIFY_API_URL: server.url,
      MINTLIFY_ADMIN_API_KEY: 'mint_durationtestkey0123456789',
      MINTLIFY_PROJECT_ID: 'proj_1',
      HOME: dir.path,
      XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    };
    const r = await runCli([...command, flag, value], { env, cwd: dir.path });
    expect(server.requests).toEqual([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: ${flag}: "${value}" is longer than a wait can be timed; the most is 596h (about 24.8 days)\n`,
    );
  });
});
