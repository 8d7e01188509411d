// Every retry of a wait or a GET says so on stderr, once (not once by the client and again by the
// wait loop), however brief the pause; --quiet silences the notes.
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runCli, tempDir } from '../helpers/cli.js';

let sandbox: Sandbox;
let home: ReturnType<typeof tempDir>;
let jobId: string;
beforeAll(async () => {
  sandbox = await startSandbox();
  home = tempDir();
  const res = await fetch(`${sandbox.baseUrl}/v2/agent/${sandbox.projectId}/job`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'x' }),
  });
  jobId = ((await res.json()) as { id: string }).id;
});
afterAll(async () => {
  await sandbox.close();
  home.cleanup();
});
beforeEach(() => {
  sandbox.faults.reset();
  sandbox.faults.agentPollsToFinish = 2;
});

const cli = (args: string[]) =>
  runCli(args, {
    env: { MINTLIFY_API_URL: sandbox.baseUrl, MINTLIFY_ADMIN_API_KEY: sandbox.apiKey, MINTLIFY_PROJECT_ID: sandbox.projectId, HOME: home.path, XDG_CONFIG_HOME: join(home.path, 'xdg') },
  });
const notes = (stderr: string) => stderr.split('\n').filter((l) => l.includes('retrying'));

describe('retry notes', () => {
  it.each([
    ['one 503', { route: 'agent.get' as const, status: 503, times: 1 }, ['the API answered 503; retrying shortly']],
    ['three 502s', { route: 'agent.get' as const, status: 502, times: 3 }, Array(3).fill('the API answered 502; retrying shortly')],
    ['a dropped connection', { route: 'agent.get' as const, dropConnection: true }, ['the connection to the API was dropped; retrying shortly']],
  ])('a wait says each retry once (%s)', async (_name, fault, expected) => {
    sandbox.faults.inject(fault);
    const r = await cli(['agent', 'get', jobId, '--wait', '--interval', '100ms']);
    expect(r.code).toBe(0);
    expect(notes(r.stderr)).toEqual(expected.map((n) => `agent job ${jobId}: ${n}`));
  });

  it('a single GET says its brief retry too', async () => {
    sandbox.faults.inject({ route: 'agent.get', status: 503, times: 2 });
    const r = await cli(['agent', 'get', jobId]);
    expect(r.code).toBe(0);
    // The client's backoff: up to 0.5 s, then up to 1 s (jittered).
    expect(notes(r.stderr)).toHaveLength(2);
    expect(notes(r.stderr)[0]).toBe('the API answered 503; retrying shortly');
    expect(notes(r.stderr)[1]).toMatch(/^the API answered 503; retrying (shortly|in 1s)$/);
  });

  it('--quiet says nothing about retries', async () => {
    sandbox.faults.inject({ route: 'agent.get', status: 503, times: 2 });
    const r = await cli(['agent', 'get', jobId, '--wait', '--interval', '100ms', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
