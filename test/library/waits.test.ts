// The library's waits as a script uses them (waitForAgentJob, waitForBuild from the public entry),
// against the sandbox and small loopback servers, on a FakeClock: no test sleeps on the real clock.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AdminClient,
  AgentJobFailedError,
  AgentJobTimeoutError,
  BuildFailedError,
  BuildTimeoutError,
  JobFailedError,
  UnknownStatusError,
  UsageError,
  WaitTimeoutError,
  waitForAgentJob,
  waitForBuild,
  type AgentJob,
  type AgentJobWaitEvent,
  type BuildWaitEvent,
  type UpdateStatus,
} from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { FakeClock } from '../helpers/clock.js';
import { dropConnection, json, sequence, startServer, type Handler } from '../helpers/server.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.faults.reset());

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** A client and the FakeClock both it and the wait run on. */
function client(baseUrl = sandbox.baseUrl): { api: AdminClient; clock: FakeClock } {
  const clock = new FakeClock();
  const api = new AdminClient({ apiKey: sandbox.apiKey, baseUrl, clock, random: () => 0.5 });
  cleanups.push(() => api.close());
  return { api, clock };
}

async function server(routes: Record<string, Handler>) {
  const made = await startServer(routes);
  cleanups.push(made.close);
  return made;
}

function agentJob(overrides: Partial<AgentJob> = {}): AgentJob {
  return {
    id: 'job_1',
    status: 'active',
    source: { repository: 'https://github.com/acme/docs', ref: 'mint-agent/fix-typos' },
    model: 'sonnet',
    prLink: null,
    createdAt: '2026-11-22T12:00:00.000Z',
    archivedAt: null,
    ...overrides,
  };
}

function build(status: string, logs: string[] = []): UpdateStatus {
  return { _id: 'st_1', status, summary: status === 'failure' ? 'Build failed' : 'Building', logs } as UpdateStatus;
}

const AGENT_ROUTE = 'GET /v2/agent/proj/job/job_1';
const BUILD_ROUTE = 'GET /v1/project/update-status/st_1';

describe('waitForAgentJob', () => {
  it.each([
    {
      prompt: 'Document the new endpoint',
      status: 'completed',
      prLink: expect.stringMatching(/^https:\/\/github\.com\/sandbox\/docs\/pull\/\d+$/),
    },
    { prompt: 'Fix nothing [no-changes]', status: 'completed', prLink: null },
    { prompt: 'Tidy up [archive]', status: 'archived', prLink: null },
  ])('follows a job prompted "$prompt" to $status, with its prLink', async ({ prompt, status, prLink }) => {
    sandbox.faults.agentPollsToFinish = 3;
    const { api, clock } = client();
    const created = await api.createAgentJob(sandbox.projectId, prompt);
    const events: AgentJobWaitEvent[] = [];
    const job = await waitForAgentJob({
      client: api,
      clock,
      projectId: sandbox.projectId,
      jobId: created.id,
      intervalMs: 1000,
      onEvent: (e) => events.push(e),
    });
    expect(job).toMatchObject({ id: created.id, status, prLink });
    // Three looks: active (a change from nothing seen), active again, then the end.
    expect(events.map((e) => (e.kind === 'status' ? [e.job.status, e.changed] : e.kind))).toEqual([
      ['active', true],
      ['active', false],
      [status, true],
    ]);
    expect(clock.sleeps).toHaveLength(2);
  });

  it('a failed job is an AgentJobFailedError carrying the job', async () => {
    const { api, clock } = client();
    const created = await api.createAgentJob(sandbox.projectId, 'Break it [fail]');
    const error = await waitForAgentJob({ client: api, clock, projectId: sandbox.projectId, jobId: created.id }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentJobFailedError);
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as AgentJobFailedError).job).toMatchObject({ id: created.id, status: 'failed' });
    expect((error as Error).message).toBe(`agent job ${created.id} failed`);
  });

  it('sits out transient failures (503, a dropped connection) with a retry event each, then ends', async () => {
    const srv = await server({
      [AGENT_ROUTE]: sequence(
        json(503, { error: 'busy' }),
        dropConnection,
        json(200, agentJob()),
        json(200, agentJob({ status: 'completed', prLink: 'https://github.com/acme/docs/pull/7' })),
      ),
    });
    const { api, clock } = client(srv.url);
    const events: AgentJobWaitEvent[] = [];
    const job = await waitForAgentJob({
      client: api,
      clock,
      projectId: 'proj',
      jobId: 'job_1',
      intervalMs: 1000,
      onEvent: (e) => events.push(e),
    });
    expect(job.prLink).toBe('https://github.com/acme/docs/pull/7');
    expect(events.map((e) => e.kind)).toEqual(['retry', 'retry', 'status', 'status']);
    expect(srv.requests).toHaveLength(4);
  });

  it('a deadline passing is an AgentJobTimeoutError carrying the last job seen and the time waited', async () => {
    const srv = await server({ [AGENT_ROUTE]: json(200, agentJob()) });
    const { api, clock } = client(srv.url);
    const error = await waitForAgentJob({
      client: api,
      clock,
      projectId: 'proj',
      jobId: 'job_1',
      intervalMs: 1000,
      timeoutMs: 10_000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentJobTimeoutError);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    const timeout = error as AgentJobTimeoutError;
    expect(timeout.lastSeen).toEqual(agentJob());
    expect(timeout.jobId).toBe('job_1');
    expect(timeout.elapsedMs).toBe(10_000);
    expect(timeout.message).toBe(
      'agent job job_1 did not finish within 10s (last status: active); it keeps running on the server',
    );
  });

  it('a status this version does not know ends the wait with an UnknownStatusError carrying the job', async () => {
    const paused = agentJob({ status: 'paused' as AgentJob['status'] });
    const srv = await server({ [AGENT_ROUTE]: sequence(json(200, agentJob()), json(200, paused)) });
    const { api, clock } = client(srv.url);
    const error = await waitForAgentJob({ client: api, clock, projectId: 'proj', jobId: 'job_1' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnknownStatusError);
    expect((error as UnknownStatusError).status).toBe('paused');
    expect((error as UnknownStatusError).lastSeen).toEqual(paused);
    expect(srv.requests).toHaveLength(2);
  });

  it.each([
    {
      name: 'an interval under 100 ms',
      options: { intervalMs: 50 },
      message: 'intervalMs: 50 must be at least 100 (milliseconds)',
    },
    {
      name: 'a timeout of zero',
      options: { timeoutMs: 0 },
      message: 'timeoutMs: 0 must be longer than zero (milliseconds)',
    },
    {
      name: 'a job id that would change the path',
      options: { jobId: '../x' },
      message: expect.stringContaining('is not an agent job id'),
    },
  ])('$name is a UsageError before anything is sent', async ({ options, message }) => {
    const srv = await server({});
    const { api, clock } = client(srv.url);
    const error = await waitForAgentJob({ client: api, clock, projectId: 'proj', jobId: 'job_1', ...options }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toEqual(message);
    expect(srv.requests).toHaveLength(0);
  });
});

describe('waitForBuild', () => {
  it('follows a deployment to success, each log line delivered once, in order', async () => {
    sandbox.faults.buildPollsToFinish = 4;
    const { api, clock } = client();
    const { statusId } = await api.triggerUpdate(sandbox.projectId);
    const events: BuildWaitEvent[] = [];
    const done = await waitForBuild({ client: api, clock, statusId, intervalMs: 1000, onEvent: (e) => events.push(e) });
    expect(done.status).toBe('success');
    const lines = events.flatMap((e) => (e.kind === 'log' ? e.lines : []));
    expect(lines).toEqual(done.logs);
    expect(lines.at(-1)).toMatch(/^Deployed /);
    expect(events.filter((e) => e.kind === 'status').map((e) => (e as { build: UpdateStatus }).build.status)).toEqual([
      'in_progress',
      'in_progress',
      'in_progress',
      'success',
    ]);
  });

  it('a failed build is a BuildFailedError carrying the build and its last log lines', async () => {
    sandbox.faults.buildsFail = true;
    const { api, clock } = client();
    const { statusId } = await api.triggerUpdate(sandbox.projectId);
    const error = await waitForBuild({ client: api, clock, statusId }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildFailedError);
    expect(error).toBeInstanceOf(JobFailedError);
    const failed = error as BuildFailedError;
    expect(failed.build.status).toBe('failure');
    expect(failed.lastLogLines).toEqual(failed.build.logs!.slice(-5));
    expect(failed.lastLogLines.slice(-2)).toEqual(['Error: docs.json: "navigation" is missing', 'Build failed']);
    expect(failed.message).toBe(`build ${statusId} failed: Build failed: docs.json is invalid`);
  });

  it('a log the server resends whole, shorter or as a sliding window gives each new line once', async () => {
    const srv = await server({
      [BUILD_ROUTE]: sequence(
        json(200, build('queued', ['a', 'b'])),
        json(200, build('in_progress', ['a', 'b', 'c'])),
        json(200, build('in_progress', ['a', 'b'])), // a lagging read
        json(200, build('in_progress', ['b', 'c', 'd'])), // old lines dropped at the front
        json(200, build('success', ['b', 'c', 'd', 'd', 'done'])),
      ),
    });
    const { api, clock } = client(srv.url);
    const events: BuildWaitEvent[] = [];
    await waitForBuild({ client: api, clock, statusId: 'st_1', onEvent: (e) => events.push(e) });
    expect(events.filter((e) => e.kind === 'log').map((e) => (e as { lines: string[] }).lines)).toEqual([
      ['a', 'b'],
      ['c'],
      ['d'],
      ['d', 'done'],
    ]);
    expect(events.filter((e) => e.kind === 'status').map((e) => (e as { changed: boolean }).changed)).toEqual([
      true,
      true,
      false,
      false,
      true,
    ]);
  });

  it('a deadline passing is a BuildTimeoutError carrying the last status seen', async () => {
    const srv = await server({ [BUILD_ROUTE]: json(200, build('in_progress', ['building'])) });
    const { api, clock } = client(srv.url);
    const error = await waitForBuild({ client: api, clock, statusId: 'st_1', intervalMs: 1000, timeoutMs: 5000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BuildTimeoutError);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as BuildTimeoutError).lastSeen).toEqual(build('in_progress', ['building']));
    expect((error as BuildTimeoutError).elapsedMs).toBe(5000);
  });

  it('a status this version does not know ends the wait with an UnknownStatusError, its log delivered first', async () => {
    const srv = await server({ [BUILD_ROUTE]: json(200, build('cancelled', ['stopped by a person'])) });
    const { api, clock } = client(srv.url);
    const events: BuildWaitEvent[] = [];
    const error = await waitForBuild({ client: api, clock, statusId: 'st_1', onEvent: (e) => events.push(e) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnknownStatusError);
    expect((error as UnknownStatusError).status).toBe('cancelled');
    expect(events.map((e) => e.kind)).toEqual(['status', 'log']);
    expect(srv.requests).toHaveLength(1);
  });
});

describe('abort', () => {
  it('stops a wait at once while its request is in flight, rejecting with the signal reason', async () => {
    let arrived: () => void = () => {};
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    // Never answers: only the abort can end the wait.
    const srv = await server({ [BUILD_ROUTE]: () => arrived() });
    const { api, clock } = client(srv.url);
    const controller = new AbortController();
    const waiting = waitForBuild({ client: api, clock, statusId: 'st_1', signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    await requestArrived;
    const reason = new Error('the script is done waiting');
    controller.abort(reason);
    expect(await waiting).toBe(reason);
    expect(srv.requests).toHaveLength(1);
  });

  it('stops a wait between looks: no look after the abort', async () => {
    const srv = await server({ [AGENT_ROUTE]: json(200, agentJob()) });
    const { api, clock } = client(srv.url);
    const controller = new AbortController();
    const reason = new Error('enough');
    const error = await waitForAgentJob({
      client: api,
      clock,
      projectId: 'proj',
      jobId: 'job_1',
      signal: controller.signal,
      onEvent: () => controller.abort(reason),
    }).catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(srv.requests).toHaveLength(1);
    expect(clock.sleeps).toHaveLength(0);
  });
});
