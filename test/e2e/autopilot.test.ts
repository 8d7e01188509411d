// autopilot run in-process against the sandbox and per-test servers: the prompt from words, a file or
// stdin, refused before anything is sent when it is empty or given twice; any JSON object accepted as
// the answer (its runId printed when it has one), a non-object refused; the webhook family's 402, 404
// and 503 (sent again: nothing was started); other failures after the POST may have acted say to look.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useSandboxPerTest } from '../helpers/sandbox.js';
import { runCli, tempDir, type CliOptions } from '../helpers/cli.js';
import { json, startServer, type Handler } from '../helpers/server.js';

const KEY = 'mint_e2etestkey0123456789';
const ROUTE = 'POST /v2/autopilot/p1/webhook';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  await Promise.all(cleanups.map((c) => c()));
});

const sandboxOfItsOwn = useSandboxPerTest();

// A prompt past 1 MiB is no instruction (and /dev/zero never ends): refused before it is read whole.
const files = tempDir();
cleanups.push(files.cleanup);
const OVER_A_MIB = join(files.path, 'huge.md');
writeFileSync(OVER_A_MIB, 'x'.repeat(1024 * 1024 + 1));
const A_MIB = join(files.path, 'mib.md');
writeFileSync(A_MIB, 'y'.repeat(1024 * 1024));

async function setup() {
  const t = await sandboxOfItsOwn();
  return { ...t, posts: () => t.sandbox.requests.filter((r) => r.origin === 'api' && r.method === 'POST') };
}

/** A per-test server for answers the sandbox does not give. */
async function server(handler: Handler) {
  const s = await startServer({ [ROUTE]: handler });
  const dir = tempDir();
  cleanups.push(() => s.close(), dir.cleanup);
  const env = {
    HOME: dir.path,
    XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    MINTLIFY_API_URL: s.url,
    MINTLIFY_ADMIN_API_KEY: KEY,
    MINTLIFY_PROJECT_ID: 'p1',
  };
  return {
    ...s,
    cli: (args: string[], o: CliOptions = {}) =>
      runCli(['autopilot', 'run', ...args], { ...o, env: { ...env, ...o.env } }),
  };
}

describe.concurrent('autopilot run against the sandbox', () => {
  it('sends the words as one prompt and prints the run id; stderr says it started', async () => {
    const t = await setup();
    const r = await t.cli(['autopilot', 'run', 'Update', 'the', 'changelog']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^apr_[0-9a-f]{16}\n$/);
    expect(r.stderr).toBe(`autopilot: run ${r.stdout.trim()} started\n`);
    expect(t.posts().map((p) => [p.path, p.body])).toEqual([
      [`/v2/autopilot/${t.sandbox.projectId}/webhook`, { prompt: 'Update the changelog' }],
    ]);
  });

  it('reads the prompt from a file, or from stdin with -f -', async () => {
    const t = await setup();
    const file = join(t.home, 'prompt.md');
    writeFileSync(file, '  Document the release\n');
    expect((await t.cli(['autopilot', 'run', '-f', file])).code).toBe(0);
    expect((await t.cli(['autopilot', 'run', '--file', '-'], { stdin: 'From the pipe\n' })).code).toBe(0);
    expect(t.posts().map((p) => p.body)).toEqual([{ prompt: 'Document the release' }, { prompt: 'From the pipe' }]);
  });

  it('--json prints the whole answer', async () => {
    const t = await setup();
    const r = await t.cli(['autopilot', 'run', 'Go', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ success: true, runId: expect.stringMatching(/^apr_/) });
  });

  it.each([
    ['no prompt', [], {}, /^error: the prompt is empty: give it as arguments \(mint-admin autopilot run "/],
    ['a blank prompt', ['  '], {}, /^error: the prompt is empty/],
    [
      'an empty file from stdin',
      ['-f', '-'],
      { stdin: '\n' },
      /^error: the prompt read from stdin is empty; nothing was sent\n$/,
    ],
    [
      'words and a file',
      ['Go', '-f', '-'],
      { stdin: 'x' },
      /^error: give the prompt either as arguments or with --file, not both; nothing was sent\n$/,
    ],
    [
      'a missing file',
      ['-f', '/nonexistent/prompt.md'],
      {},
      /^error: cannot read the prompt file "\/nonexistent\/prompt.md" \(no such file\); nothing was sent\n$/,
    ],
    [
      'a file over 1 MiB',
      ['-f', OVER_A_MIB],
      {},
      /^error: the prompt file ".*huge\.md" holds more than 1 MiB; give a shorter prompt; nothing was sent\n$/,
    ],
    [
      '/dev/zero',
      ['-f', '/dev/zero'],
      {},
      /^error: the prompt file "\/dev\/zero" holds more than 1 MiB; give a shorter prompt; nothing was sent\n$/,
    ],
    [
      'stdin over 1 MiB',
      ['-f', '-'],
      { stdin: 'z'.repeat(1024 * 1024 + 1) },
      /^error: the prompt read from stdin holds more than 1 MiB; give a shorter prompt; nothing was sent\n$/,
    ],
  ])('%s: exit 2 and nothing sent', async (_name, args, opts, stderr) => {
    const t = await setup();
    const r = await t.cli(['autopilot', 'run', ...args], opts);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(stderr);
    expect(t.posts()).toEqual([]);
  });

  it('a prompt of exactly 1 MiB is sent whole', async () => {
    const s = await server(json(202, { runId: 'r1' }));
    const r = await s.cli(['-f', A_MIB]);
    expect(r.code).toBe(0);
    expect(s.requests).toHaveLength(1);
    expect((JSON.parse(s.requests[0]!.body) as { prompt: string }).prompt).toHaveLength(1024 * 1024);
  });

  it('402: exit 1, credits exhausted, nothing started, what to do; sent once', async () => {
    const t = await setup();
    t.sandbox.faults.creditsExhausted = true;
    const r = await t.cli(['autopilot', 'run', 'Go']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: AI credits are exhausted for this billing cycle (402: AI credits are exhausted for this billing cycle. Upgrade your plan or wait for your credits to renew.); no run was started. Upgrade your plan or wait for your credits to renew, then run it again\n',
    );
    expect(t.posts()).toHaveLength(1);
  });

  it('404 for another project: exit 1 naming the project and what to check', async () => {
    const t = await setup();
    const r = await t.cli(['autopilot', 'run', 'Go', '--project', 'proj_other']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: Autopilot cannot be run for project proj_other \(404: Project proj_other not found\): the project does not exist, is not yours, or has no Autopilot set up\. Check --project and Autopilot in the Mintlify dashboard\n$/,
    );
  });

  it("the webhook's 503 (credit check failed, nothing started) is sent again until it starts", async () => {
    const t = await setup();
    t.sandbox.faults.webhookCreditCheckFailures = 2;
    const r = await t.cli(['autopilot', 'run', 'Go']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^apr_\w+\n$/);
    expect(t.posts()).toHaveLength(3);
  });
});

/** An answer sent as written: JSON.stringify cannot make one nested past the call stack. */
const jsonText =
  (status: number, text: string): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(text);
  };

describe.concurrent('autopilot run against answers the sandbox does not give', () => {
  it('an answer with extra fields: all kept under --json', async () => {
    const s = await server(
      json(202, { runId: 'r1', queuedAt: '2026-11-24T00:00:00Z', links: { dashboard: 'https://x' } }),
    );
    const r = await s.cli(['Go', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      runId: 'r1',
      queuedAt: '2026-11-24T00:00:00Z',
      links: { dashboard: 'https://x' },
    });
  });

  it('an object without runId is still a success: nothing on stdout, stderr says there was no id', async () => {
    const s = await server(json(200, { ok: true }));
    const r = await s.cli(['Go']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('autopilot: run started; the answer carried no run id (--json prints it whole)\n');
    expect((await s.cli(['Go', '--json'])).stdout).toBe('{\n  "ok": true\n}\n');
  });

  it('a runId that is not a plain token is not printed as an id', async () => {
    const s = await server(json(202, { runId: '\u001b]0;owned\u0007' }));
    const r = await s.cli(['Go']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('autopilot: run started; the answer carried no run id (--json prints it whole)\n');
  });

  it.each([
    ['an array', [{ runId: 'r1' }], 'the body should be an object, got an array'],
    ['a string', 'started', 'the body should be an object, got a string'],
    ['null', null, ''],
    // Printing it (--json) went down the nesting with the call stack and crashed with no hint.
    [
      'an object nested 5,000 deep',
      `{"runId":"r1","x":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      `${['x', ...Array<string>(64).fill('0')].join('.')} is nested deeper than 64 levels`,
    ],
  ])('%s as the answer: exit 1, the run may have started, sent once', async (_name, body, problem) => {
    const s = await server(typeof body === 'string' && body.startsWith('{') ? jsonText(202, body) : json(202, body));
    const r = await s.cli(['Go']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unexpected answer from the API to POST /v2/autopilot/{projectId}/webhook');
    expect(r.stderr).toContain(problem);
    expect(r.stderr).toMatch(
      /, so the run may have started anyway: check Autopilot in the Mintlify dashboard before running it again\n$/,
    );
    expect(s.requests).toHaveLength(1);
  });

  it('a 503 that never clears: exit 1 after the allowed tries, nothing was started', async () => {
    const s = await server(json(503, { error: 'Credit check failed. Retry the request.' }));
    const r = await s.cli(['Go']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /\nerror: the credit check failed \(503: Credit check failed\. Retry the request\.\) on every try; no run was started\. Try again in a few minutes\n$/,
    );
    expect(s.requests).toHaveLength(4);
  });

  it('a 500 is not sent again: the run may have started', async () => {
    const s = await server(json(500, { error: 'boom' }));
    const r = await s.cli(['Go']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: the API answered 500 (boom), so the run may have started anyway: check Autopilot in the Mintlify dashboard before running it again\n',
    );
    expect(s.requests).toHaveLength(1);
  });

  it('a dropped connection after sending is not sent again', async () => {
    const s = await server((req) => req.socket.destroy());
    const r = await s.cli(['Go']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /, so the run may have started anyway: check Autopilot in the Mintlify dashboard before running it again\n$/,
    );
    expect(s.requests).toHaveLength(1);
  });

  it('the key never reaches the output', async () => {
    const s = await server(json(400, { error: `bad key ${KEY}` }));
    const r = await s.cli(['Go']);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });
});
