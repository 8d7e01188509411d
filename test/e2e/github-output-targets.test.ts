// --github-output's files are checked before anything is sent: a $GITHUB_OUTPUT or
// $GITHUB_STEP_SUMMARY that is a directory, or sits in a directory that does not exist, is exit 2
// with no request (the deployment used to be POSTed first, then EISDIR). A file that does not exist
// yet in a directory that does is created. A FIFO with no reader as $GITHUB_OUTPUT does not hold the
// CLI against SIGINT or SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI, cliEnv, outputOf, runCli, tempDir } from '../helpers/cli.js';
import { json, startServer } from '../helpers/server.js';

const KEY = 'mint_0123456789abcdef0123456789abcdef';
const dir = tempDir();
afterAll(() => dir.cleanup());
let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

let cases = 0;
/** A fresh directory and a server that queues a deployment and counts what it is sent. */
async function setup() {
  const s = await startServer({
    'POST /v1/project/update/p1': json(202, { statusId: 's1' }),
    'GET /v1/project/update-status/s1': json(200, { _id: 's1', status: 'success', logs: [] }),
    'POST /v1/project/preview/p1': json(202, { statusId: 's1', previewUrl: 'https://p.mintlify.app' }),
  });
  closeServer = s.close;
  const home = join(dir.path, `case-${cases++}`);
  mkdirSync(home);
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'xdg'),
    MINTLIFY_API_URL: s.url,
    MINTLIFY_ADMIN_API_KEY: KEY,
    MINTLIFY_PROJECT_ID: 'p1',
  };
  return { ...s, home, env };
}

const COMMANDS = [
  ['deploy start', ['deploy', 'start', '--github-output']],
  ['deploy status', ['deploy', 'status', 's1', '--github-output']],
  ['preview start', ['preview', 'start', 'main', '--github-output']],
  ['agent run', ['agent', 'run', 'fix the intro', '--github-output']],
  ['export run', ['export', 'run', '-o', join(dir.path, 'site'), '--github-output']],
] as const;

describe('--github-output targets are checked before anything is sent', () => {
  const bad = [
    [
      'GITHUB_OUTPUT is a directory',
      (home: string) => ({ GITHUB_OUTPUT: home }),
      /^error: \$GITHUB_OUTPUT .*: is a directory/m,
    ],
    [
      'GITHUB_OUTPUT is in a missing directory',
      (home: string) => ({ GITHUB_OUTPUT: join(home, 'missing', 'out') }),
      /^error: \$GITHUB_OUTPUT .*missing/m,
    ],
    [
      'GITHUB_STEP_SUMMARY is a directory',
      (home: string) => ({ GITHUB_OUTPUT: join(home, 'out'), GITHUB_STEP_SUMMARY: home }),
      /^error: \$GITHUB_STEP_SUMMARY .*: is a directory/m,
    ],
    [
      'GITHUB_STEP_SUMMARY is in a missing directory',
      (home: string) => ({ GITHUB_OUTPUT: join(home, 'out'), GITHUB_STEP_SUMMARY: join(home, 'missing', 'summary') }),
      /^error: \$GITHUB_STEP_SUMMARY .*missing/m,
    ],
  ] as const;
  for (const [name, argv] of COMMANDS) {
    it.each(bad)(`${name}: %s -> exit 2, no request`, async (_what, files, message) => {
      const t = await setup();
      const r = await runCli([...argv], { env: { ...t.env, ...files(t.home) } });
      expect(r.stderr).toMatch(message);
      expect(r.code).toBe(2);
      expect(t.requests).toEqual([]);
    });
  }

  it('files that do not exist yet in a directory that does are created and appended to', async () => {
    const t = await setup();
    const output = join(t.home, 'new-output');
    const summary = join(t.home, 'new-summary');
    const r = await runCli(['deploy', 'start', '--github-output'], {
      env: { ...t.env, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(output, 'utf8')).toBe('status-id=s1\nstatus=queued\n');
    expect(readFileSync(summary, 'utf8')).toMatch(/^### Mintlify deployment: queued\n/);
  });

  it('a FIFO with a reader as GITHUB_OUTPUT gets the outputs', async () => {
    const t = await setup();
    const fifo = join(t.home, 'read.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const read = outputOf(spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'pipe'] }));
    const r = await runCli(['deploy', 'start', '--github-output'], { env: { ...t.env, GITHUB_OUTPUT: fifo } });
    expect(r.code, r.stderr).toBe(0);
    expect((await read).stdout).toBe('status-id=s1\nstatus=queued\n');
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('a FIFO with no reader as GITHUB_OUTPUT: %s ends the run (exit %i)', async (signal, code) => {
    const t = await setup();
    const fifo = join(t.home, 'output.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const child = spawn(process.execPath, [CLI, 'deploy', 'start', '--github-output'], {
      env: cliEnv({ ...t.env, GITHUB_OUTPUT: fifo }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const done = outputOf(child);
    // The deployment is queued, then the outputs wait for a reader: the signal comes once the CLI
    // says it is waiting, or once the run has ended (the assertions then say how). The ceiling
    // only ends a wait for a line that never comes.
    let ceiling: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      let said = '';
      child.stderr.on('data', (chunk: string) => {
        said += chunk;
        if (said.includes(`${fifo}: waiting for a reader`)) resolve();
      });
      child.on('close', () => resolve());
      ceiling = setTimeout(resolve, 20_000);
    });
    clearTimeout(ceiling);
    expect(t.requests.map((r) => r.method)).toEqual(['POST']);
    child.kill(signal);
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    const r = await done;
    clearTimeout(killer);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(code);
  });
});
