// With --json, a wait that ends in a timeout, a failure or an interruption still prints the last
// known object on stdout, so `jq` in a pipeline has something to read; the exit code says what ended it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliOptions } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const fixture = useSandbox();

const cli = (args: string[], opts: CliOptions = {}) => fixture.cli(args, opts);
const FAST = ['--interval', '100ms'];
const sigtermAfterTwoPolls = (prefix: string): CliOptions => ({
  onSpawn: (child) => {
    const timer = setInterval(() => {
      if (fixture.sandbox.requests.filter((q) => q.method === 'GET' && q.path.startsWith(prefix)).length >= 2) {
        clearInterval(timer);
        child.kill('SIGTERM');
      }
    }, 20);
    child.on('close', () => clearInterval(timer));
  },
});

async function startExport(domain: string): Promise<string> {
  return (await fixture.api<{ jobId: string }>('POST', '/v1/static-export/jobs', { domain })).jobId;
}

describe('--json when a wait ends early', () => {
  it('agent run --wait that times out: exit 5 and the job as last seen', async () => {
    fixture.sandbox.faults.agentPollsToFinish = 1_000_000;
    const r = await cli(['agent', 'run', 'Add a changelog', '--wait', '--timeout', '600ms', '--json', ...FAST]);
    expect(r.code).toBe(5);
    const job = JSON.parse(r.stdout) as { id: string; status: string };
    expect(job.status).toBe('active');
    expect(r.stderr).toContain(`agent job ${job.id} is still active`);
  });

  it('agent run --wait stopped by SIGTERM: exit 143 and the job as last seen', async () => {
    fixture.sandbox.faults.agentPollsToFinish = 1_000_000;
    const r = await cli(
      ['agent', 'run', 'Add a changelog', '--wait', '--json', ...FAST],
      sigtermAfterTwoPolls('/v2/agent/'),
    );
    expect(r.code).toBe(143);
    expect((JSON.parse(r.stdout) as { status: string }).status).toBe('active');
  });

  it('export status --wait that times out: exit 5 and the job as last seen', async () => {
    fixture.sandbox.faults.exportPollsToFinish = 1_000_000;
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
    fixture.sandbox.faults.exportPollsToFinish = 1_000_000;
    const r = await cli(
      ['export', 'run', 'docs.example.com', '-o', join(fixture.home, 'site'), '--json', ...FAST],
      sigtermAfterTwoPolls('/v1/static-export/jobs/'),
    );
    expect(r.code).toBe(143);
    expect(JSON.parse(r.stdout)).toMatchObject({
      jobId: expect.stringMatching(/^se_/),
      status: expect.stringMatching(/^(queued|running)$/),
    });
  });
});
