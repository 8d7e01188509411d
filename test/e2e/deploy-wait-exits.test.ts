// A build's wait ends the way every wait does (issue 11): --json prints the last status seen on
// every exit, a signal stops it with its exit code and the resume hint, --timeout cuts off a poll in
// flight, and each retry of a poll is said once. Through the built CLI against the sandbox.
import { describe, expect, it } from 'vitest';
import type { CliOptions } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const fixture = useSandbox();

const cli = (args: string[], opts: CliOptions = {}) => fixture.cli(args, opts);
const FAST = ['--interval', '100ms'];
const statusPolls = () =>
  fixture.sandbox.requests.filter((q) => q.method === 'GET' && q.path.startsWith('/v1/project/update-status/')).length;

/** Sends `signal` once the wait has looked at the build twice. */
const signalAfterTwoPolls = (signal: NodeJS.Signals): CliOptions => ({
  onSpawn: (child) => {
    const timer = setInterval(() => {
      if (statusPolls() < 2) return;
      clearInterval(timer);
      child.kill(signal);
    }, 20);
    child.on('close', () => clearInterval(timer));
  },
});

async function queuedDeployment(): Promise<string> {
  const { statusId } = await fixture.api<{ statusId: string }>(
    'POST',
    `/v1/project/update/${fixture.sandbox.projectId}`,
  );
  fixture.sandbox.requests.length = 0;
  return statusId;
}

describe('--json when a build wait ends early', () => {
  it('deploy start --wait that times out: exit 5 and the status as last seen (its id inside)', async () => {
    fixture.sandbox.faults.buildPollsToFinish = 1_000_000;
    const r = await cli(['deploy', 'start', '--wait', '--timeout', '600ms', '--json', ...FAST]);
    expect(r.code).toBe(5);
    const build = JSON.parse(r.stdout) as { _id: string; status: string };
    expect(build.status).toBe('in_progress');
    expect(r.stderr).toContain(`deploy ${build._id} is still in_progress`);
  });

  it('preview start --wait stopped by SIGTERM: exit 143, the status as last seen and no preview URL (it is not live)', async () => {
    fixture.sandbox.faults.buildPollsToFinish = 1_000_000;
    const r = await cli(['preview', 'start', 'feat/x', '--wait', '--json', ...FAST], signalAfterTwoPolls('SIGTERM'));
    expect(r.code).toBe(143);
    const build = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(build).toMatchObject({ status: 'in_progress', commit: { ref: 'feat/x' } });
    expect(build).not.toHaveProperty('previewUrl');
    expect(r.stdout).not.toContain('mintlify.app');
  });

  it('preview start --wait on a failed build: exit 4 and the failed status, without the URL', async () => {
    const r = await cli(['preview', 'start', 'fail/x', '--wait', '--json', ...FAST]);
    expect(r.code).toBe(4);
    const build = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(build).toMatchObject({ status: 'failure' });
    expect(build).not.toHaveProperty('previewUrl');
  });

  it('preview start --wait that succeeds: the status with the live preview URL beside it', async () => {
    const r = await cli(['preview', 'start', 'feat/x', '--wait', '--json', ...FAST]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'success',
      previewUrl: 'https://sandbox-feat-x.mintlify.app',
    });
  });
});

describe.each([
  ['SIGTERM', 143],
  ['SIGHUP', 129],
  ['SIGINT', 130],
] as const)('%s during a build wait', (signal, code) => {
  it(`deploy status --wait: exit ${code} with the resume hint`, async () => {
    fixture.sandbox.faults.buildPollsToFinish = 1_000_000;
    const id = await queuedDeployment();
    const r = await cli(['deploy', 'status', id, '--wait', ...FAST], signalAfterTwoPolls(signal));
    expect(r.code).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(
      `error: stopped waiting; deploy ${id} keeps building on the server: resume the wait with \`mint-admin deploy status ${id} --wait\``,
    );
  });
});

describe('--timeout with a status request in flight', () => {
  it('an API that does not answer for a minute ends the wait at the deadline with exit 5', async () => {
    const id = await queuedDeployment();
    fixture.sandbox.faults.inject({ route: 'deploy.status', delayMs: 60_000, times: 10 });
    const r = await cli(['deploy', 'status', id, '--wait', '--timeout', '2s', ...FAST]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(new RegExp(`resume the wait with \`mint-admin deploy status ${id} --wait\`\\n$`));
    // No timing: a wait that did not hear the deadline would sit out the minute's delay, past
    // vitest's ceiling, and fail by hanging.
  });
});

describe('retry notes in a build wait', () => {
  it.each([
    ['one 503', { route: 'deploy.status' as const, status: 503, times: 1 }, ['the API answered 503; retrying shortly']],
    [
      'two 502s',
      { route: 'deploy.status' as const, status: 502, times: 2 },
      Array(2).fill('the API answered 502; retrying shortly'),
    ],
    [
      'a dropped connection',
      { route: 'deploy.status' as const, dropConnection: true },
      ['the connection to the API was dropped; retrying shortly'],
    ],
  ])('each retry is said once (%s)', async (_name, fault, expected) => {
    fixture.sandbox.faults.buildPollsToFinish = 2;
    const id = await queuedDeployment();
    fixture.sandbox.faults.inject(fault);
    const r = await cli(['deploy', 'status', id, '--wait', ...FAST]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('success\n');
    expect(r.stderr.split('\n').filter((l) => l.includes('retrying'))).toEqual(
      expected.map((n) => `deploy ${id}: ${n}`),
    );
  });
});
