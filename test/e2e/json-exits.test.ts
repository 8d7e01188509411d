// With --json, a wait that ends in a timeout, a failure or an interruption still prints the last
// known object on stdout, so `jq` in a pipeline has something to read; the exit code says what ended it.
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runCli, tempDir, type CliOptions } from '../helpers/cli.js';

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
beforeEach(() => {
  sandbox.faults.reset();
  sandbox.requests.length = 0;
});

const cli = (args: string[], opts: CliOptions = {}) =>
  runCli(args, {
    ...opts,
    env: { MINTLIFY_API_URL: sandbox.baseUrl, MINTLIFY_ADMIN_API_KEY: sandbox.apiKey, MINTLIFY_PROJECT_ID: sandbox.projectId, HOME: home.path, XDG_CONFIG_HOME: join(home.path, 'xdg') },
  });
const FAST = ['--interval', '100ms'];
const sigtermAfterTwoPolls = (prefix: string): CliOptions => ({
  onSpawn: (child) => {
    const timer = setInterval(() => {
      if (sandbox.requests.filter((q) => q.method === 'GET' && q.path.startsWith(prefix)).length >= 2) {
        clearInterval(timer);
        child.kill('SIGTERM');
      }
    }, 20);
    child.on('close', () => clearInterval(timer));
  },
});

async function startExport(domain: string): Promise<string> {
  const res = await fetch(`${sandbox.baseUrl}/v1/static-export/jobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ domain }),
  });
  return ((await res.json()) as { jobId: string }).jobId;
}

describe('--json when a wait ends early', () => {
  it('agent run --wait that times out: exit 5 and the job as last seen', async () => {
    sandbox.faults.agentPollsToFinish = 1_000_000;
    const r = await cli(['agent', 'run', 'Add a changelog', '--wait', '--timeout', '600ms', '--json', ...FAST]);
    expect(r.code).toBe(5);
    const job = JSON.parse(r.stdout) as { id: string; status: string };
    expect(job.status).toBe('active');
    expect(r.stderr).toContain(`agent job ${job.id} is still active`);
  });

  it('agent run --wait stopped by SIGTERM: exit 143 and the job as last seen', async () => {
    sandbox.faults.agentPollsToFinish = 1_000_000;
    const r = await cli(['agent', 'run', 'Add a changelog', '--wait', '--json', ...FAST], sigtermAfterTwoPolls('/v2/agent/'));
    expect(r.code).toBe(143);
    expect((JSON.parse(r.stdout) as { status: string }).status).toBe('active');
  });

  it('export status --wait that times out: exit 5 and the job as last seen', async () => {
    sandbox.faults.exportPollsToFinish = 1_000_000;
    const id = await startExport('docs.example.com');
    const r = await cli(['export', 'status', id, '--wait', '--timeout', '600ms', '--json', ...FAST]);
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout)).toMatchObject({ jobId: id, status: expect.stringMatching(/^(queued|running)$/) });
  });

  it('export status --wait on an export that fails: exit 4 and the failed job', async () => {
    const id = await startExport('fail.example.com');
    const r = await cli(['export', 'status', id, '--wait', '--json', ...FAST]);
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ jobId: id, status: 'failed' });
  });

  it('export run stopped by SIGTERM while waiting: exit 143 and the job as last seen', async () => {
    sandbox.faults.exportPollsToFinish = 1_000_000;
    const r = await cli(['export', 'run', 'docs.example.com', '-o', join(home.path, 'site'), '--json', ...FAST], sigtermAfterTwoPolls('/v1/static-export/jobs/'));
    expect(r.code).toBe(143);
    expect(JSON.parse(r.stdout)).toMatchObject({ jobId: expect.stringMatching(/^se_/), status: expect.stringMatching(/^(queued|running)$/) });
  });
});
