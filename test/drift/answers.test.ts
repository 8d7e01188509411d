// The drift suite: every command that calls the API today, run as the built CLI against a loopback
// server that answers what a real server could but should not (an empty 2xx, `null`, a 204, wrong
// types, missing fields, an unknown status, a 100 MB or endless body, a plain-text 429, odd
// Retry-After values). Each case asserts the exit code, the one line that explains it, that nothing
// like `undefined`, `NaN` or a JavaScript error reaches any output, and how many requests were sent.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, type CliResult } from '../helpers/cli.js';

const KEY = 'mint_drifttestkey0123456789';
const PROJECT = 'proj1';
const NOW = '2026-11-22T12:00:00.000Z';

const AGENT_JOB = {
  id: 'job1',
  status: 'active',
  source: { repository: 'https://github.com/o/r', ref: 'main' },
  model: 'm',
  prLink: null,
  createdAt: NOW,
  archivedAt: null,
};
const EXPORT_JOB = { jobId: 'se_1', status: 'running', progress: 42, pageCount: 7, createdAt: NOW, updatedAt: NOW };
const BUNDLE = {
  jobId: 'se_1',
  bundleUrl: 'https://storage.example.com/se_1/bundle.tar.gz?X-Amz-Signature=abc',
  sizeBytes: 1234,
  expiresAt: '2099-01-01T00:00:00.000Z',
};
const SEARCHES = {
  searches: [{ searchQuery: 'q', hits: 3, ctr: 0.5, topClickedPage: null, lastSearchedAt: NOW }],
  totalSearches: 3,
  nextCursor: null,
};

/** An answer the loopback server gives: status, headers and body, or a body written by hand. */
type Answer = {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  write?: (res: ServerResponse) => void;
};

const jsonAnswer = (body: unknown, status = 200): Answer => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

interface CommandCase {
  name: string;
  args: (dir: string) => string[];
  /** `METHOD /path` the command calls. */
  route: string;
  /** GETs are retried on 5xx and network errors; POSTs never after the server may have acted. */
  method: 'GET' | 'POST';
  good: unknown;
  /** The call as errors name it. */
  call: string;
  /** A required field to drop, and one to give the wrong type; none for an answer that may be any object. */
  missing?: string;
  wrongType?: [string, unknown, string];
}

const COMMANDS: CommandCase[] = [
  {
    name: 'agent run',
    args: () => ['agent', 'run', 'Fix typos'],
    route: `POST /v2/agent/${PROJECT}/job`,
    method: 'POST',
    good: AGENT_JOB,
    call: 'POST /v2/agent/{projectId}/job',
    missing: 'id',
    wrongType: ['status', 5, 'status should be a string, got a number'],
  },
  {
    name: 'agent get',
    args: () => ['agent', 'get', 'job1'],
    route: `GET /v2/agent/${PROJECT}/job/job1`,
    method: 'GET',
    good: AGENT_JOB,
    call: 'GET /v2/agent/{projectId}/job/{jobId}',
    missing: 'status',
    wrongType: ['prLink', 5, 'prLink should be a string, got a number'],
  },
  {
    name: 'agent message',
    args: () => ['agent', 'message', 'job1', 'More'],
    route: `POST /v2/agent/${PROJECT}/job/job1/message`,
    method: 'POST',
    good: AGENT_JOB,
    call: 'POST /v2/agent/{projectId}/job/{jobId}/message',
    missing: 'id',
    wrongType: ['source', 'r', 'source should be an object, got a string'],
  },
  {
    name: 'export start',
    args: () => ['export', 'start', 'docs.example.com'],
    route: 'POST /v1/static-export/jobs',
    method: 'POST',
    good: EXPORT_JOB,
    call: 'POST /v1/static-export/jobs',
    missing: 'jobId',
    wrongType: ['progress', '42', 'progress should be a number, got a string'],
  },
  {
    name: 'export status',
    args: () => ['export', 'status', 'se_1'],
    route: 'GET /v1/static-export/jobs/se_1',
    method: 'GET',
    good: EXPORT_JOB,
    call: 'GET /v1/static-export/jobs/{jobId}',
    missing: 'pageCount',
    wrongType: ['pageCount', null, 'pageCount should be a number, got null'],
  },
  {
    name: 'export bundle',
    args: () => ['export', 'bundle', 'se_1'],
    route: 'POST /v1/static-export/jobs/se_1/bundle',
    method: 'POST',
    good: BUNDLE,
    call: 'POST /v1/static-export/jobs/{jobId}/bundle',
    missing: 'bundleUrl',
    wrongType: ['sizeBytes', 'big', 'sizeBytes should be a number, got a string'],
  },
  {
    name: 'export download',
    args: (dir) => ['export', 'download', 'se_1', '-o', join(dir, 'site')],
    route: 'POST /v1/static-export/jobs/se_1/bundle',
    method: 'POST',
    good: BUNDLE,
    call: 'POST /v1/static-export/jobs/{jobId}/bundle',
    missing: 'expiresAt',
    wrongType: ['bundleUrl', 7, 'bundleUrl should be a string, got a number'],
  },
  {
    name: 'searches list',
    args: () => ['searches', 'list', '--json'],
    route: `GET /v1/analytics/${PROJECT}/searches`,
    method: 'GET',
    good: SEARCHES,
    call: 'GET /v1/analytics/{projectId}/searches',
    missing: 'totalSearches',
    wrongType: [
      'searches',
      [{ searchQuery: 'q', hits: 1, ctr: 0, topClickedPage: null }],
      'searches.0.lastSearchedAt is missing',
    ],
  },
  {
    name: 'deploy start',
    args: () => ['deploy', 'start'],
    route: `POST /v1/project/update/${PROJECT}`,
    method: 'POST',
    good: { statusId: 's1' },
    call: 'POST /v1/project/update/{projectId}',
    missing: 'statusId',
    wrongType: ['statusId', 5, 'statusId should be a string, got a number'],
  },
  {
    name: 'deploy status',
    args: () => ['deploy', 'status', 's1'],
    route: 'GET /v1/project/update-status/s1',
    method: 'GET',
    good: { _id: 's1', status: 'in_progress', logs: ['a'] },
    call: 'GET /v1/project/update-status/{statusId}',
    missing: 'status',
    wrongType: ['logs', 'a', 'logs should be an array, got a string'],
  },
  {
    name: 'preview start',
    args: () => ['preview', 'start', 'main'],
    route: `POST /v1/project/preview/${PROJECT}`,
    method: 'POST',
    good: { statusId: 's1', previewUrl: 'https://p.mintlify.app' },
    call: 'POST /v1/project/preview/{projectId}',
    missing: 'statusId',
    wrongType: ['previewUrl', 5, 'previewUrl should be a string, got a number'],
  },
  {
    name: 'automation run',
    args: () => ['automation', 'run', 'wf1'],
    route: `POST /v1/workflow/${PROJECT}/wf1/trigger`,
    method: 'POST',
    good: { schemaId: 'wf1', instanceId: 'i1', jobId: 'j1' },
    call: 'POST /v1/workflow/{projectId}/{workflowSchemaId}/trigger',
    missing: 'instanceId',
    wrongType: ['jobId', 5, 'jobId should be a string, got a number'],
  },
  {
    name: 'autopilot run',
    args: () => ['autopilot', 'run', 'Update the changelog'],
    route: `POST /v2/autopilot/${PROJECT}/webhook`,
    method: 'POST',
    good: { runId: 'r1' },
    call: 'POST /v2/autopilot/{projectId}/webhook',
  },
  {
    name: 'automation run --webhook',
    args: () => ['automation', 'run', 'wf1', '--webhook'],
    route: `POST /v2/workflow/${PROJECT}/wf1/webhook`,
    method: 'POST',
    good: { success: true, runId: 'r1' },
    call: 'POST /v2/workflow/{projectId}/{workflowSchemaId}/webhook',
    missing: 'runId',
    wrongType: ['runId', 5, 'runId should be a string, got a number'],
  },
];

// ---- a loopback server per run, so the cases can run side by side ------------------------------

interface Seen {
  route: string;
  at: number;
}

/** Serves `answer(n)` for the n-th request (from 0) to `route`; anything else gets a 599 and is counted. */
async function serve(route: string, answer: (n: number) => Answer) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const at = `${req.method} ${(req.url ?? '').split('?')[0]}`;
      const n = seen.filter((s) => s.route === at).length;
      seen.push({ route: at, at: Date.now() });
      const reply = at === route ? answer(n) : { status: 599, body: 'unexpected request' };
      if (reply.write) return reply.write(res);
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body ?? '');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const home = tempDir();
afterAll(() => home.cleanup());

async function run(
  command: CommandCase,
  answer: (n: number) => Answer,
  extra: string[] = [],
): Promise<CliResult & { requests: Seen[] }> {
  const server = await serve(command.route, answer);
  const dir = tempDir();
  try {
    const r = await runCli([...command.args(dir.path), ...extra], {
      env: {
        MINTLIFY_API_URL: server.url,
        MINTLIFY_ADMIN_API_KEY: KEY,
        MINTLIFY_PROJECT_ID: PROJECT,
        HOME: home.path,
        XDG_CONFIG_HOME: join(home.path, 'xdg'),
      },
    });
    return { ...r, requests: server.seen };
  } finally {
    await server.close();
    dir.cleanup();
  }
}

/** Nothing a person reads may show that the CLI fell over or printed a value it did not have. */
function expectNoGarbage(r: CliResult): void {
  for (const text of [r.stdout, r.stderr]) {
    expect(text).not.toMatch(/undefined|NaN|Cannot read|TypeError|RangeError|at .*\.js:\d+/);
    expect(text).not.toContain(KEY);
  }
}

/** The error line main.ts prints last on stderr. */
const firstLine = (r: CliResult) => r.stderr.trim().split('\n').at(-1) ?? '';

const without = (body: unknown, field: string) =>
  Object.fromEntries(Object.entries(body as object).filter(([k]) => k !== field));

/** Where a create may have acted: the error also says the job may exist and how to check. */
const CREATE_ADVICE: Record<string, RegExp> = {
  'agent run':
    / while creating the agent job, so the job may have been created anyway: check the repository's pull requests and the Mintlify dashboard before running it again$/,
  'agent message':
    / while sending the message, so it may have been delivered anyway: check with `mint-admin agent get job1` before sending it again$/,
  'export start':
    /; the export may have started anyway: look for it in the Mintlify dashboard before starting another$/,
  'deploy start':
    /, so the deployment may have been queued anyway: look for it in the Mintlify dashboard before deploying again$/,
  'preview start':
    /, so the preview of main may have been queued anyway: look for it in the Mintlify dashboard before starting it again$/,
  'automation run':
    /, so the run may have been queued anyway: look for it on https:\/\/app\.mintlify\.com\/products\/automations before running it again$/,
  'autopilot run':
    /, so the run may have started anyway: check Autopilot in the Mintlify dashboard before running it again$/,
  'automation run --webhook':
    /, so the run may have been queued anyway: look for it on https:\/\/app\.mintlify\.com\/products\/automations before running it again$/,
};

describe.concurrent.each(COMMANDS.map((c) => [c.name, c] as const))('%s', (_name, command) => {
  const unexpected = (problem: string) => `unexpected answer from the API to ${command.call}: ${problem}`;
  const expectFailure = (r: CliResult & { requests: Seen[] }, problem: string) => {
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(firstLine(r).startsWith(`error: ${unexpected(problem)}`)).toBe(true);
    expect(firstLine(r)).toMatch(
      CREATE_ADVICE[command.name] ?? /^error: unexpected answer from the API to [^:]+: [^;]+$/,
    );
    // A 2xx is an answer: nothing is sent again, GET or POST.
    expect(r.requests).toHaveLength(1);
    expectNoGarbage(r);
  };

  it.each([
    [
      'an empty 200',
      { status: 200, headers: { 'content-type': 'application/json' }, body: '' },
      'the body is empty (200)',
    ],
    ['a 204', { status: 204 }, 'the body is empty (204)'],
    ['`null`', jsonAnswer(null), 'the body is null'],
    [
      'an HTML page',
      { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>login</html>' },
      'the body is text/html, not JSON (a proxy or gateway page? check --base-url and your proxy settings)',
    ],
    ['an array', jsonAnswer([command.good]), 'the body should be an object, got an array'],
  ])('%s: exit 1, one line naming the call', async (_case, answer, problem) => {
    expectFailure(await run(command, () => answer as Answer), problem);
  });

  it.runIf(command.missing)(`a missing ${command.missing}: exit 1, the field named`, async () => {
    expectFailure(
      await run(command, () => jsonAnswer(without(command.good, command.missing!))),
      `${command.missing} is missing`,
    );
  });

  it.runIf(command.wrongType)(
    `a wrong type (${command.wrongType?.[0]}): exit 1, the field and its problem named`,
    async () => {
      const [field, value, problem] = command.wrongType!;
      expectFailure(await run(command, () => jsonAnswer({ ...(command.good as object), [field]: value })), problem);
    },
  );

  it('a 100 MB body: aborted at 32 MB, exit 1', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const r = await run(command, () => ({
      status: 200,
      write: (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"pad":"');
        let sent = 0;
        const more = () => {
          while (sent < 100 && !res.destroyed) {
            sent++;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          if (!res.destroyed) res.end('"}');
        };
        res.on('error', () => undefined);
        more();
      },
    }));
    expect(r.code).toBe(1);
    expect(
      firstLine(r).startsWith(
        `error: the API sent more than 32 MB in answer to ${command.call}, far more than any documented answer; check --base-url`,
      ),
    ).toBe(true);
    expect(r.requests).toHaveLength(1);
    expectNoGarbage(r);
  });

  it('a plain-text 429 past the wait cap: exit 6, the server text shown', async () => {
    const r = await run(command, () => ({
      status: 429,
      headers: { 'content-type': 'text/plain', 'retry-after': '3600' },
      body: 'Too many requests, please try again later.\u001b[2J',
    }));
    expect(r.code).toBe(6);
    expect(firstLine(r)).toMatch(
      /^error: rate limited.*Too many requests, please try again later\..*try again in 1h00m \(after \d{4}-\d\d-\d\dT/,
    );
    expect(r.stderr).not.toContain('\u001b');
    expect(r.requests).toHaveLength(1);
    expectNoGarbage(r);
  });

  it('a Retry-After too large for any date: exit 6, held to the hour, no crash', async () => {
    const r = await run(command, () => ({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '100000000000000000000' },
      body: '{"error":"slow down"}',
    }));
    expect(r.code).toBe(6);
    expect(firstLine(r)).toMatch(/try again in 1h00m \(after \d{4}-\d\d-\d\dT[^)]*\)$/);
    expect(r.requests).toHaveLength(1);
    expectNoGarbage(r);
  });
});

describe.concurrent('Retry-After values that are not a delay or a future date count as absent: backoff applies', () => {
  const agentGet = COMMANDS.find((c) => c.name === 'agent get')!;
  it.each([['-5'], ['1.5'], ['soon'], ['Wed, 21 Oct 2015 07:28:00 GMT'], ['']])(
    'Retry-After %j: waits the backoff (>= 250 ms), then succeeds',
    async (value) => {
      const r = await run(agentGet, (n) =>
        n === 0
          ? {
              status: 429,
              headers: { 'content-type': 'application/json', 'retry-after': value },
              body: '{"error":"slow"}',
            }
          : jsonAnswer(AGENT_JOB),
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('job1  active\n');
      expect(r.requests).toHaveLength(2);
      // The run's clock skips its sleeps: the backoff shows as the pause it asked for.
      expect(r.sleeps).toHaveLength(1);
      expect(r.sleeps![0]).toBeGreaterThanOrEqual(250);
      expectNoGarbage(r);
    },
  );
});

describe.concurrent('unknown states', () => {
  const agentGet = COMMANDS.find((c) => c.name === 'agent get')!;
  const exportStatus = COMMANDS.find((c) => c.name === 'export status')!;

  it('agent get without --wait prints an unknown status as sent, exit 0', async () => {
    const r = await run(agentGet, () => jsonAnswer({ ...AGENT_JOB, status: 'paused' }));
    expect(r).toMatchObject({ code: 0, stdout: 'job1  paused\n' });
    expect(r.requests).toHaveLength(1);
    expectNoGarbage(r);
  });

  it('agent get --json keeps it, and any field the API added', async () => {
    const job = { ...AGENT_JOB, status: 'paused', addedLater: { x: 1 } };
    const r = await run(agentGet, () => jsonAnswer(job), ['--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(job);
  });

  it('agent get --wait stops at an unknown status: exit 1, said why', async () => {
    const r = await run(agentGet, (n) => jsonAnswer({ ...AGENT_JOB, status: n === 0 ? 'active' : 'paused' }), [
      '--wait',
      '--interval',
      '100ms',
    ]);
    expect(r.code).toBe(1);
    expect(firstLine(r)).toBe(
      'error: stopped waiting: agent job job1 reports status "paused", which this version of mint-admin does not know, so it cannot tell whether the job will finish; look at it with `mint-admin agent get job1 --json` or update mint-admin',
    );
    expect(r.requests).toHaveLength(2);
    expectNoGarbage(r);
  });

  it('export status without --wait prints an unknown status as sent, and no hint to follow it', async () => {
    const r = await run(exportStatus, () => jsonAnswer({ ...EXPORT_JOB, status: 'paused' }));
    // The one stderr line says which flow answered; no "Follow it with" hint for a state it does not know.
    expect(r).toMatchObject({
      code: 0,
      stdout: 'se_1  paused  42%  7 pages\n',
      stderr: 'Static export: the jobs flow (the job id looks like a jobs-flow id)\n',
    });
  });

  it('export status --wait stops at an unknown status: exit 1, said why', async () => {
    const r = await run(exportStatus, (n) => jsonAnswer({ ...EXPORT_JOB, status: n === 0 ? 'running' : 'archiving' }), [
      '--wait',
      '--interval',
      '100ms',
    ]);
    expect(r.code).toBe(1);
    expect(firstLine(r)).toBe(
      'error: stopped waiting: export se_1 reports status "archiving", which this version of mint-admin does not know, so it cannot tell whether the job will finish; look at it with `mint-admin export status se_1 --json` or update mint-admin',
    );
    expect(r.requests).toHaveLength(2);
    expectNoGarbage(r);
  });
});

describe.concurrent('statuses the automation endpoints use, and the limits a 429 names', () => {
  const agentRun = COMMANDS.find((c) => c.name === 'agent run')!;
  const searches = COMMANDS.find((c) => c.name === 'searches list')!;
  const exportStart = COMMANDS.find((c) => c.name === 'export start')!;

  it('a 402 with a text body: exit 1, the server text', async () => {
    const r = await run(exportStart, () => ({
      status: 402,
      headers: { 'content-type': 'text/plain' },
      body: 'AI credits are exhausted for this billing cycle.',
    }));
    expect(r.code).toBe(1);
    expect(firstLine(r)).toBe(
      'error: the API rejected the request (402: AI credits are exhausted for this billing cycle.)',
    );
    expect(r.requests).toHaveLength(1);
  });

  it('a 429 on analytics names the organization-wide budget', async () => {
    const r = await run(searches, () => ({
      status: 429,
      headers: { 'content-type': 'text/html', 'retry-after': '3600' },
      body: '<html><head><title>429 Too Many Requests</title></head><body><h1>Too Many Requests</h1></body></html>',
    }));
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(
      'rate limited by the API (429 Too Many Requests); the analytics API allows 100 requests per organization per hour, shared by every analytics endpoint and everyone in the organization; try again in 1h00m',
    );
    expect(r.requests).toHaveLength(1);
  });

  it('a 429 on agent run names the per-project budget', async () => {
    const r = await run(agentRun, () => ({
      status: 429,
      headers: { 'content-type': 'text/plain', 'retry-after': '3600' },
      body: 'Too many requests',
    }));
    expect(r.code).toBe(6);
    expect(firstLine(r)).toMatch(
      /^error: rate limited \(Too many requests\): the API accepts 100 agent jobs per project per hour; try again in 1h00m/,
    );
  });
});
