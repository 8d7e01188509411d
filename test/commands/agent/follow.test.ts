import { afterEach, describe, expect, it } from 'vitest';
import { showAgentJob, waitForAgentJob } from '../../../src/cli/commands/agent/follow.js';
import { type CliError, InterruptedError } from '../../../src/errors.js';
import type { AgentJob } from '../../../src/api/types.js';
import type { GlobalOptions } from '../../../src/config/settings.js';
import { dropConnection, json, sequence, startServer, type Handler } from '../../helpers/server.js';
import { agentJob, harness, PROJECT, settle } from './harness.js';
import { exitCodeOf } from '../../../src/cli/cli-errors.js';

const PATH = `GET /v2/agent/${PROJECT}/job/job_1`;
const active = agentJob();
const withPr = agentJob({ status: 'completed', prLink: 'https://github.com/acme/docs/pull/7' });
const noChanges = agentJob({ status: 'completed' });
const archived = agentJob({ status: 'archived', archivedAt: '2026-11-22T12:00:02.000Z' });
const failed = agentJob({ status: 'failed' });

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.map((c) => c()));
  cleanups = [];
});

/** Runs `agent get job_1 --wait` in-process against a route table: the wait, then the outcome. */
async function follow(
  routes: Record<string, Handler>,
  opts: { globals?: GlobalOptions; timeoutMs?: number; known?: AgentJob; tty?: boolean } = {},
) {
  const server = await startServer(routes);
  const h = harness(server.url, { globals: opts.globals, tty: opts.tty });
  cleanups.push(server.close, h.cleanup);
  let error: CliError | undefined;
  let job: AgentJob | undefined;
  try {
    const projectId = await h.ctx.projectId();
    job = await waitForAgentJob(
      { projectId, jobId: 'job_1', intervalMs: 1000, timeoutMs: opts.timeoutMs ?? 60_000, known: opts.known },
      h.ctx,
    );
    await showAgentJob(job, h.ctx, { waited: true });
  } catch (e) {
    error = e as CliError;
  }
  await settle();
  return { job, error, stdout: h.stdout(), stderr: h.stderr(), server, clock: h.clock, h };
}

describe('waitForAgentJob and the outcome of a wait', () => {
  it.each([
    [
      'a pull request: the link on stdout, exit 0',
      withPr,
      'https://github.com/acme/docs/pull/7\n',
      ['agent job job_1: completed after 2s'],
      undefined,
    ],
    [
      'no files changed: said on stderr, exit 0',
      noChanges,
      '',
      [
        'agent job job_1: completed after 2s',
        'agent job job_1 completed without changing any files, so no pull request was opened',
      ],
      undefined,
    ],
    [
      'archived: said with its time, exit 0',
      archived,
      '',
      ['agent job job_1: archived after 2s', 'agent job job_1 was archived at 2026-11-22T12:00:02.000Z'],
      undefined,
    ],
    ['failed: exit 4 with how to look at it', failed, '', ['agent job job_1: failed after 2s'], 4],
  ])('%s', async (_name, final, stdout, lastLines, exitCode) => {
    const r = await follow({ [PATH]: sequence(json(200, active), json(200, active), json(200, final)) });
    expect(r.stdout).toBe(stdout);
    expect(r.stderr).toBe(['waiting for agent job job_1', 'agent job job_1: active', ...lastLines, ''].join('\n'));
    expect(r.error && exitCodeOf(r.error)).toBe(exitCode);
    expect(r.server.requests).toHaveLength(3);
    // The interval grows gently (x1.2) and no real time passed.
    expect(r.clock.sleeps).toEqual([1000, 1200]);
  });

  it('says how to look at a failed job', async () => {
    const r = await follow({ [PATH]: json(200, failed) });
    expect(r.error?.message).toBe(
      'agent job job_1 failed; see what it did with `mint-admin agent get job_1 --json` (source.ref is the branch it worked on) or in the Mintlify dashboard',
    );
  });

  it('starts from the status the create call returned, so an unchanged status is not repeated', async () => {
    const r = await follow({ [PATH]: sequence(json(200, active), json(200, withPr)) }, { known: active });
    expect(r.stderr).toBe('agent job job_1: active\nagent job job_1: completed after 1s\n');
  });

  it('with --json prints exactly the final job on stdout, even when it failed', async () => {
    const ok = await follow({ [PATH]: json(200, withPr) }, { globals: { json: true } });
    expect(ok.stdout).toBe(`${JSON.stringify(withPr, null, 2)}\n`);
    const bad = await follow({ [PATH]: json(200, failed) }, { globals: { json: true } });
    expect(bad.stdout).toBe(`${JSON.stringify(failed, null, 2)}\n`);
    expect(exitCodeOf(bad.error)).toBe(4);
  });

  it('on a terminal draws a spinner and ends it with the outcome', async () => {
    const r = await follow(
      { [PATH]: sequence(json(200, active), json(200, active), json(200, withPr)) },
      { tty: true },
    );
    expect(r.stdout).toBe('https://github.com/acme/docs/pull/7\n');
    // ora draws on its own timer, so of the in-between texts only the first frame is certain.
    expect(r.stderr).toContain('waiting for agent job job_1');
    expect(r.stderr).toContain('agent job job_1: completed after 2s');
    // A spinner frame, not a plain line (ora leaves out escape codes when CI is set, so test the frame).
    expect(r.stderr).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] waiting for agent job job_1/);
  });

  it('with --quiet says nothing on stderr', async () => {
    const r = await follow({ [PATH]: sequence(json(200, active), json(200, noChanges)) }, { globals: { quiet: true } });
    expect(r.stderr).toBe('');
    expect(r.error).toBeUndefined();
  });

  it('sits out an outage, with one short note per retry (the loop retries a poll; the client does not again)', async () => {
    const down = json(503, { error: 'down' });
    const r = await follow({ [PATH]: sequence(down, down, down, down, json(200, active), json(200, withPr)) });
    expect(r.stderr).toBe(
      [
        'waiting for agent job job_1',
        'agent job job_1: the API answered 503; retrying in 1s',
        'agent job job_1: the API answered 503; retrying in 2s',
        'agent job job_1: the API answered 503; retrying in 3s',
        'agent job job_1: the API answered 503; retrying in 6s',
        'agent job job_1: active',
        'agent job job_1: completed after 12s',
        '',
      ].join('\n'),
    );
    expect(r.stdout).toBe('https://github.com/acme/docs/pull/7\n');
    expect(r.server.requests).toHaveLength(6);
  });

  it.each([
    // Four drops outlast the client's own retries of a GET.
    [
      'dropped connections',
      [dropConnection, dropConnection, dropConnection, dropConnection],
      'agent job job_1: the connection to the API was dropped; retrying in 1s',
    ],
    // A Retry-After past the client's 60 s cap comes straight to the loop, which sits it out.
    [
      'a 429 asking for two minutes',
      [json(429, { error: 'slow down' }, { 'retry-after': '120' })],
      'agent job job_1: rate limited (429); retrying in 2m00s',
    ],
  ])('keeps waiting through %s', async (_name, faults, note) => {
    const r = await follow(
      { [PATH]: sequence(json(200, active), ...faults, json(200, withPr)) },
      { timeoutMs: 600_000 },
    );
    expect(r.stderr.split('\n')).toContain(note);
    expect(r.stdout).toBe('https://github.com/acme/docs/pull/7\n');
    expect(r.error).toBeUndefined();
  });

  it.each([
    ['a 404', 404, 1, /^not found \(404: gone\)/],
    ['a 401', 401, 3, /^the API refused the admin key \(401/],
    ['a 403', 403, 3, /^permission denied \(403/],
  ])('ends at once on %s', async (_name, status, exitCode, message) => {
    const r = await follow({ [PATH]: sequence(json(200, active), json(status, { error: 'gone' })) });
    expect(exitCodeOf(r.error)).toBe(exitCode);
    expect(r.error?.message).toMatch(message);
    expect(r.server.requests).toHaveLength(2);
    expect(r.stdout).toBe('');
  });

  it.each([
    ['the project came from the environment', {}, 'mint-admin agent get job_1 --wait'],
    ['the project came from --project', { project: PROJECT }, `mint-admin agent get job_1 --wait --project ${PROJECT}`],
    [
      '--profile was given too',
      { project: PROJECT, profile: 'ci' },
      `mint-admin agent get job_1 --wait --project ${PROJECT} --profile ci`,
    ],
  ])('times out with exit 5 and the command that resumes the wait (%s)', async (_name, globals, resume) => {
    const r = await follow({ [PATH]: json(200, active) }, { globals, timeoutMs: 5000 });
    expect(exitCodeOf(r.error)).toBe(5);
    expect(r.error?.message).toBe(
      `gave up waiting after 5s: agent job job_1 is still active and keeps running on the server; resume the wait with \`${resume}\``,
    );
    // It looks one last time at the deadline instead of sleeping past it.
    expect(r.clock.sleeps).toEqual([1000, 1200, 1440, 1360]);
  });

  it('stops on Ctrl-C with exit 130, saying the job keeps running and how to resume', async () => {
    let h: ReturnType<typeof harness> | undefined;
    let polls = 0;
    const server = await startServer({
      [PATH]: (req, res) => {
        // Ctrl-C arrives while the second look is in flight.
        if (++polls === 2) h?.controller.abort(new InterruptedError());
        json(200, active)(req, res);
      },
    });
    h = harness(server.url);
    cleanups.push(server.close, h.cleanup);
    const error = await waitForAgentJob(
      { projectId: PROJECT, jobId: 'job_1', intervalMs: 1000, timeoutMs: 60_000 },
      h.ctx,
    ).catch((e: unknown) => e as CliError);
    expect(error).toBeInstanceOf(InterruptedError);
    expect(exitCodeOf(error)).toBe(130);
    expect((error as CliError).message).toBe(
      'stopped waiting; agent job job_1 keeps running on the server: resume the wait with `mint-admin agent get job_1 --wait`',
    );
    expect(polls).toBe(2);
  });
});

describe('showAgentJob without a wait', () => {
  it.each([
    [
      'an active job, with how to follow it',
      active,
      'job_1  active\n',
      'follow it: mint-admin agent get job_1 --wait\n',
    ],
    ['a job with a pull request', withPr, 'job_1  completed  https://github.com/acme/docs/pull/7\n', ''],
    ['a failed job (no exit 4 without --wait)', failed, 'job_1  failed\n', ''],
  ])('prints the id and status of %s', async (_name, job, stdout, stderr) => {
    const h = harness('http://127.0.0.1:9');
    cleanups.push(h.cleanup);
    await showAgentJob(job, h.ctx, { waited: false });
    await settle();
    expect(h.stdout()).toBe(stdout);
    expect(h.stderr()).toBe(stderr);
  });
});
