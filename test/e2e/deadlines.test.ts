// --timeout bounds the whole wait, including a request in flight: an API that never answers (or
// answers slower than the deadline) still ends the wait with exit 5 within a second of it.
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runCli, tempDir } from '../helpers/cli.js';

let sandbox: Sandbox;
let home: ReturnType<typeof tempDir>;
beforeAll(async () => {
  sandbox = await startSandbox();
  home = tempDir();
});
afterAll(async () => {
  await sandbox.close();
  home.cleanup();
});
beforeEach(() => sandbox.faults.reset());

const cli = (args: string[]) =>
  runCli(args, {
    env: { MINTLIFY_API_URL: sandbox.baseUrl, MINTLIFY_ADMIN_API_KEY: sandbox.apiKey, MINTLIFY_PROJECT_ID: sandbox.projectId, HOME: home.path, XDG_CONFIG_HOME: join(home.path, 'xdg') },
  });

async function created(path: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, string>;
}

describe('--timeout with a request in flight', () => {
  it.each([
    ['agent get --wait', 'agent.get' as const, async () => ['agent', 'get', (await created(`/v2/agent/${sandbox.projectId}/job`, { prompt: 'x' })).id!, '--wait']],
    ['export status --wait', 'export.get' as const, async () => ['export', 'status', (await created('/v1/static-export/jobs', { domain: 'docs.example.com' })).jobId!, '--wait']],
  ])('%s: an API that does not answer for a minute ends the wait at the deadline with exit 5', async (_name, route, args) => {
    sandbox.faults.inject({ route, delayMs: 60_000, times: 10 });
    const started = Date.now();
    const r = await cli([...(await args()), '--timeout', '2s', '--interval', '100ms']);
    const took = Date.now() - started;
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/resume/);
    // The deadline plus the last look's grace plus a Node start-up, on a busy machine.
    expect(took).toBeLessThan(2000 + 1000 + 1500);
  });
});
