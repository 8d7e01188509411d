import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import type { ExportJob } from '../../../src/api/types.js';
import { exportApi } from '../../../src/cli/commands/export/api.js';
import { describeProgress, followExport } from '../../../src/cli/commands/export/follow.js';
import { progressBar } from '../../../src/output/progress.js';
import { ApiError, InterruptedError, JobFailedError, WaitTimeoutError } from '../../../src/errors.js';
import { createReporter } from '../../../src/cli/io.js';
import type { Activity, Reporter } from '../../../src/reporter.js';
import { FakeClock } from '../../helpers/clock.js';
import { captureIO } from '../../helpers/io.js';
import { dropConnection, json, sequence, startServer, type Handler } from '../../helpers/server.js';
import { exitCodeOf } from '../../../src/cli/cli-errors.js';

const ID = 'se_0123456789abcdef';
const PATH = `GET /v1/static-export/jobs/${ID}`;
const WAITING = `Waiting for export ${ID} (Ctrl-C stops waiting; the export keeps running)`;

function job(status: ExportJob['status'], progress: number, pageCount: number, error?: string): Handler {
  const body: ExportJob = {
    jobId: ID,
    status,
    progress,
    pageCount,
    createdAt: '2026-11-22T12:00:00Z',
    updatedAt: '2026-11-22T12:00:00Z',
  };
  return json(200, error === undefined ? body : { ...body, error });
}

let cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(cleanups.map((c) => c()));
  cleanups = [];
});

/** followExport against a loopback server, with a fake clock and a plain (CI) reporter. */
async function follow(
  handlers: Handler[],
  opts: { timeoutMs?: number; reporter?: Reporter; controller?: AbortController } = {},
) {
  const server = await startServer({ [PATH]: sequence(...handlers) });
  const dispatcher = new Agent();
  cleanups.push(
    () => server.close(),
    () => dispatcher.close(),
  );
  const clock = new FakeClock();
  const controller = opts.controller ?? new AbortController();
  // One try per look: the retries under test here are the wait loop's, not the client's.
  const client = new ApiClient({
    baseUrl: server.url,
    apiKey: 'mint_test_0123456789',
    userAgent: 't',
    dispatcher,
    clock,
    signal: controller.signal,
    retry: { attempts: 1 },
  });
  const io = captureIO();
  const reporter = opts.reporter ?? createReporter(io.io, { json: false, quiet: false, color: false }, clock);
  const run = followExport(
    { jobId: ID, fetch: exportApi(client).get, intervalMs: 1000, timeoutMs: opts.timeoutMs ?? 600_000 },
    { clock, random: () => 0.5, signal: controller.signal, reporter },
  );
  const outcome = await run.then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return { ...outcome, stderr: io.stderr(), clock, server };
}

describe('followExport', () => {
  it('stops at a status the documents do not list: exit 1, no line for it, one request per look', async () => {
    const r = await follow([
      job('running', 25, 6),
      job('paused' as ExportJob['status'], 25, 6),
      job('completed', 100, 24),
    ]);
    expect(r.error).toBeInstanceOf(Error);
    expect(exitCodeOf(r.error)).toBe(1);
    expect((r.error as Error).message).toBe(
      `stopped waiting: export ${ID} reports status "paused", which this version of mint-admin does not know, so it cannot tell whether the job will finish; look at it with \`mint-admin export status ${ID} --json\` or update mint-admin`,
    );
    expect(r.stderr).toBe([WAITING, 'Exporting [#####---------------] 25% · 6 pages · 0s', ''].join('\n'));
    expect(r.server.requests).toHaveLength(2);
  });

  it('prints plain lines on a change of status and at most every 5 seconds otherwise, then the outcome', async () => {
    const r = await follow([
      job('queued', 0, 0),
      job('running', 25, 6),
      job('running', 50, 12),
      job('running', 50, 12),
      job('running', 75, 18),
      job('running', 90, 21),
      job('completed', 100, 24),
    ]);
    expect(r.error).toBeUndefined();
    expect(r.value?.status).toBe('completed');
    expect(r.stderr).toBe(
      [
        WAITING,
        'Exporting [--------------------] 0% · queued · 0s',
        'Exporting [#####---------------] 25% · 6 pages · 1s',
        'Exporting [##################--] 90% · 21 pages · 7s',
        'Exported 24 pages in 10s',
        '',
      ].join('\n'),
    );
    expect(r.clock.sleeps.map(Math.round)).toEqual([1000, 1200, 1440, 1728, 2074, 2488]);
  });

  it("throws JobFailedError (exit 4) carrying the job's own error", async () => {
    const r = await follow([job('running', 50, 12), job('failed', 75, 18, 'Rendering docs.example.com failed')]);
    expect(r.error).toBeInstanceOf(JobFailedError);
    expect(exitCodeOf(r.error)).toBe(4);
    expect((r.error as Error).message).toBe(`export ${ID} failed: Rendering docs.example.com failed`);
    expect(r.stderr).toBe(`${WAITING}\nExporting [##########----------] 50% · 12 pages · 0s\n`);
  });

  it('times out with exit 5, the last state seen and the command that resumes the wait', async () => {
    const r = await follow([job('running', 40, 10)], { timeoutMs: 5000 });
    expect(r.error).toBeInstanceOf(WaitTimeoutError);
    expect(exitCodeOf(r.error)).toBe(5);
    expect((r.error as Error).message).toBe(
      `export ${ID} did not finish within 5s (last seen running, 40%, 10 pages); it keeps running on the server: resume with \`mint-admin export status ${ID} --wait\``,
    );
  });

  it('sits out a 502, a dropped connection and a 429, saying so, and goes on to completion', async () => {
    const r = await follow([
      job('running', 25, 6),
      json(502, { error: 'bad gateway' }),
      dropConnection,
      json(429, { error: 'slow down' }, { 'retry-after': '3' }),
      job('completed', 100, 24),
    ]);
    expect(r.error).toBeUndefined();
    expect(r.value?.pageCount).toBe(24);
    const lines = r.stderr.split('\n');
    expect(lines[2]).toMatch(
      /^Exporting \[#####-+\] 25% · 6 pages · \d+s · the API answered 502; still waiting, next look in \d+s$/,
    );
    expect(lines[3]).toMatch(
      /^Exporting .* · the connection to the API was dropped; still waiting, next look in \d+s$/,
    );
    expect(lines[4]).toMatch(/^Exporting .* · rate limited \(429\); still waiting, next look in 3s$/);
    expect(lines[5]).toMatch(/^Exported 24 pages in \d+s$/);
    expect(r.server.requests).toHaveLength(5);
  });

  it('ends at once on a 404: the job id is wrong, waiting will not help', async () => {
    const r = await follow([json(404, { error: `No static export job with ID ${ID}` })]);
    expect(r.error).toBeInstanceOf(ApiError);
    expect((r.error as Error).message).toBe(
      `no static export job ${ID} (404: No static export job with ID ${ID}); check the job id that \`mint-admin export start\` printed`,
    );
    expect(r.server.requests).toHaveLength(1);
  });

  it('on Ctrl-C, says the export keeps running and how to resume (exit 130)', async () => {
    const controller = new AbortController();
    const abortOnSecondLook: Handler = (req, res) => {
      controller.abort(new InterruptedError());
      job('running', 50, 12)(req, res);
    };
    const r = await follow([job('running', 25, 6), abortOnSecondLook], { controller });
    expect(r.error).toBeInstanceOf(InterruptedError);
    expect(exitCodeOf(r.error)).toBe(130);
    expect((r.error as Error).message).toBe(
      `interrupted: stopped waiting, but export ${ID} keeps running on the server; resume with \`mint-admin export status ${ID} --wait\``,
    );
  });

  it('on a terminal, redraws the bar on every look, even when nothing moved', async () => {
    const updates: string[] = [];
    const finals: string[] = [];
    const activity: Activity = {
      update: (t) => void updates.push(t),
      succeed: (t) => void finals.push(t),
      fail: (t) => void finals.push(t),
      stop() {},
    };
    const reporter: Reporter = { live: true, info() {}, warn() {}, activity: async () => activity };
    const r = await follow([job('running', 50, 12), job('running', 50, 12), job('completed', 100, 24)], { reporter });
    expect(r.error).toBeUndefined();
    expect(updates).toEqual([
      'Exporting [##########----------] 50% · 12 pages · 0s',
      'Exporting [##########----------] 50% · 12 pages · 1s',
    ]);
    expect(finals).toEqual(['Exported 24 pages in 2s']);
  });
});

describe('the progress line', () => {
  it.each([
    [0, '--------------------'],
    [58, '############--------'],
    [100, '####################'],
    [140, '####################'],
    [-5, '--------------------'],
  ])('draws %i%% as [%s]', (percent, bar) => {
    expect(progressBar(percent / 100)).toBe(`[${bar}]`);
  });

  it('shows percent, pages and elapsed time', () => {
    const running: ExportJob = {
      jobId: ID,
      status: 'running',
      progress: 57.6,
      pageCount: 1200,
      createdAt: '',
      updatedAt: '',
    };
    expect(describeProgress(running, 65_000)).toBe('Exporting [############--------] 58% · 1,200 pages · 1m05s');
    expect(describeProgress({ ...running, pageCount: 1 }, 0)).toBe(
      'Exporting [############--------] 58% · 1 page · 0s',
    );
  });
});
