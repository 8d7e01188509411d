// deploy, preview and automation through the built CLI, against the sandbox and per-test servers:
// the log streamed once and in order, the exit codes of every ending, the preview URL only once
// live, input refused before anything is sent, the documented automation failures, the shared rate
// limit under a burst, and the files --github-output writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { useSandboxPerTest } from '../helpers/sandbox.js';
import { runCli, tempDir, type CliOptions } from '../helpers/cli.js';
import { json, sequence, startServer, type Handler } from '../helpers/server.js';

const FAST = ['--interval', '100ms'];
const KEY = 'mint_e2etestkey0123456789';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  await Promise.all(cleanups.map((c) => c()));
});

function home() {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  return { path: dir.path, env: { HOME: dir.path, XDG_CONFIG_HOME: join(dir.path, 'xdg') } };
}

const sandboxOfItsOwn = useSandboxPerTest();

async function setup(opts: SandboxOptions = {}) {
  const t = await sandboxOfItsOwn(opts);
  return {
    ...t,
    dir: t.home,
    posts: () => t.sandbox.requests.filter((r) => r.method === 'POST'),
    api: () => t.sandbox.requests.filter((r) => r.origin === 'api' && !r.path.startsWith('/_sandbox')),
  };
}

/** A per-test server for answers the sandbox does not give. */
async function server(routes: Record<string, Handler>) {
  const s = await startServer(routes);
  cleanups.push(() => s.close());
  const h = home();
  const env = { ...h.env, MINTLIFY_API_URL: s.url, MINTLIFY_ADMIN_API_KEY: KEY, MINTLIFY_PROJECT_ID: 'p1' };
  return {
    ...s,
    dir: h.path,
    cli: (args: string[], o: CliOptions = {}) => runCli(args, { ...o, env: { ...env, ...o.env } }),
  };
}

/** The sandbox's log for a build of `branch` with the default four polls. */
const logOf = (branch: string, sha: string, ending: string[]) => [
  `Cloning ${branch} at ${sha}`,
  'Installing dependencies',
  'Building pages (step 1 of 3)',
  'Building pages (step 2 of 3)',
  'Building pages (step 3 of 3)',
  ...ending,
];
const SUCCEEDED = ['Build succeeded'];
const FAILED = ['Error: docs.json: "navigation" is missing', 'Build failed'];

/** stderr of a plain (non-terminal) wait: the progress lines around the log, exactly. */
function waitStderr(kind: string, id: string, log: string[], outcome: string): RegExp {
  const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const lines = [
    `${kind} ${id}: waiting for the build (Ctrl-C stops waiting; the build goes on)`,
    `${kind} ${id}: in_progress`,
    ...log,
  ].map(escapeRegExp);
  // The build takes four polls 100 ms or so apart; on a busy machine that can round to a second.
  return new RegExp(`${lines.join('\\n')}\\n${escapeRegExp(`${kind} ${id}: ${outcome} after `)}\\ds\\n`);
}

const shaIn = (stderr: string) => /Cloning \S+ at ([0-9a-f]{7})/.exec(stderr)?.[1] ?? 'no sha';

describe.concurrent('deploy', () => {
  it('start --wait: the statusId on stdout, each log line once and in order on stderr, exit 0', async () => {
    const t = await setup();
    const r = await t.cli(['deploy', 'start', '--wait', ...FAST]);
    expect(r.code).toBe(0);
    const id = /^([0-9a-f]{24})\n$/.exec(r.stdout)?.[1] ?? 'none';
    expect(r.stderr).toMatch(
      waitStderr('deploy', id, logOf('main', shaIn(r.stderr), [...SUCCEEDED, 'Deployed main']), 'success'),
    );
    expect(r.stderr.startsWith('deploy ')).toBe(true);
    expect(r.stderr).not.toMatch(/\x1b|\r/);
    expect(t.posts().map((p) => p.path)).toEqual([`/v1/project/update/${t.sandbox.projectId}`]);
  });

  it('start --wait: a failed build is exit 4 with its summary and the last log lines', async () => {
    const t = await setup();
    t.sandbox.faults.buildsFail = true;
    const r = await t.cli(['deploy', 'start', '--wait', ...FAST]);
    expect(r.code).toBe(4);
    const id = r.stdout.trim();
    const log = logOf('main', shaIn(r.stderr), FAILED);
    expect(r.stderr).toMatch(waitStderr('deploy', id, log, 'failure'));
    expect(
      r.stderr.endsWith(
        `error: the deployment ${id} failed: Build failed: docs.json is invalid; last log lines:\n${log
          .slice(-5)
          .map((l) => `  ${l}`)
          .join('\n')}\n`,
      ),
    ).toBe(true);
  });

  it('start --wait --timeout: exit 5 with the command that resumes the wait, which then finishes it', async () => {
    const t = await setup();
    t.sandbox.faults.buildPollsToFinish = 1000;
    const r = await t.cli(['deploy', 'start', '--wait', '--timeout', '1s', ...FAST]);
    expect(r.code).toBe(5);
    const id = r.stdout.trim();
    // The time it names is how long it waited (1s and the last look), which a loaded machine stretches.
    expect(r.stderr).toMatch(
      new RegExp(
        `error: gave up waiting after [12]s: deploy ${id} is still in_progress and keeps building on the server; resume the wait with \`mint-admin deploy status ${id} --wait\`\\n$`,
      ),
    );
    t.sandbox.faults.buildPollsToFinish = 1;
    const resumed = await t.cli(['deploy', 'status', id, '--wait', ...FAST]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('success\n');
    // Lines the first wait printed are printed again by the second: it is a new process, and says the whole story.
    expect(resumed.stderr).toMatch(/Build succeeded\nDeployed main\ndeploy \w+: success after \d+s\n$/);
  });

  it('status without --wait: the status on stdout, how to follow it on stderr; --json the whole object', async () => {
    const t = await setup();
    const start = await t.cli(['deploy', 'start']);
    const id = start.stdout.trim();
    expect(start.stderr).toBe(`deployment queued; follow it: mint-admin deploy status ${id} --wait\n`);
    const r = await t.cli(['deploy', 'status', id]);
    expect(r).toMatchObject({
      code: 0,
      stdout: 'in_progress\n',
      stderr: `summary: Building\nfollow it: mint-admin deploy status ${id} --wait\n`,
    });
    const j = await t.cli(['deploy', 'status', id, '--json']);
    expect(JSON.parse(j.stdout)).toMatchObject({
      _id: id,
      status: 'in_progress',
      logs: expect.any(Array),
      commit: { ref: 'main' },
    });
  });

  it('start --wait --json: the final status object, and only it, on stdout', async () => {
    const t = await setup();
    const r = await t.cli(['deploy', 'start', '--wait', '--json', ...FAST]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({ status: 'success', summary: 'Deployed', source: 'api' });
    expect(body.logs).toHaveLength(7);
  });

  it.each([
    ['a status id with a slash', ['deploy', 'status', 'a/b'], /^error: "a\/b" is not a status id/],
    ['a bad --timeout', ['deploy', 'start', '--wait', '--timeout', 'soon'], /--timeout/],
    [
      '--github-output outside GitHub Actions',
      ['deploy', 'start', '--github-output'],
      /^error: --github-output needs \$GITHUB_OUTPUT, which GitHub Actions sets for every step; nothing was sent\n$/,
    ],
  ])('%s is exit 2 and sends nothing', async (_name, args, stderr) => {
    const t = await setup();
    const r = await t.cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(stderr);
    expect(t.api()).toEqual([]);
  });
});

describe.concurrent('preview', () => {
  it('start --wait: the preview URL on stdout only once the build succeeded', async () => {
    const t = await setup();
    const r = await t.cli(['preview', 'start', 'feat/new-guide', '--wait', ...FAST]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('https://sandbox-feat-new-guide.mintlify.app\n');
    const id = /preview of feat\/new-guide queued: (\w+)/.exec(r.stderr)?.[1] ?? 'none';
    expect(r.stderr).toMatch(
      waitStderr(
        'preview',
        id,
        logOf('feat/new-guide', shaIn(r.stderr), [...SUCCEEDED, 'Deployed feat/new-guide']),
        'success',
      ),
    );
    expect(t.posts().map((p) => p.body)).toEqual([{ branch: 'feat/new-guide' }]);
  });

  it('start --wait: a failed build prints no URL at all, exit 4', async () => {
    const t = await setup();
    const r = await t.cli(['preview', 'start', 'fail/broken-nav', '--wait', ...FAST]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('mintlify.app');
    expect(r.stderr).toMatch(
      /error: the preview build \w+ failed: Build failed: docs\.json is invalid; last log lines:\n/,
    );
  });

  it('start without --wait: the statusId on stdout, the URL on stderr marked as not live yet', async () => {
    const t = await setup();
    const r = await t.cli(['preview', 'start', 'docs/typo']);
    expect(r.code).toBe(0);
    const id = /^(\w+)\n$/.exec(r.stdout)?.[1];
    expect(r.stderr).toBe(
      `preview of docs/typo (live once its build succeeds): https://sandbox-docs-typo.mintlify.app\nfollow it: mint-admin preview status ${id} --wait\n`,
    );
    const status = await t.cli(['preview', 'status', id!, '--wait', ...FAST]);
    expect(status).toMatchObject({ code: 0, stdout: 'success\n' });
  });

  it.each([
    ['empty', '', 'it is empty'],
    ['with a space', 'my branch', 'it contains a space'],
    ['with ..', 'a..b', 'it contains ".."'],
    ['with a [fail] marker', 'x[fail]', 'it contains "["'],
    ['ending in .lock', 'feat.lock', 'the part "feat.lock" ends with ".lock"'],
    ['with an escape sequence', 'x\x1b[2J', 'it contains a control character (U+001B)'],
  ])('a branch name %s is exit 2 and nothing is sent', async (_name, branch, problem) => {
    const t = await setup();
    const r = await t.cli(['preview', 'start', branch, '--wait']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: ${JSON.stringify(branch)} is not a valid git branch name: ${problem}; nothing was sent\n`,
    );
    expect(t.api()).toEqual([]);
  });

  it('a plan without previews (403) is exit 3 saying so', async () => {
    const t = await setup();
    t.sandbox.faults.previewForbidden = true;
    const r = await t.cli(['preview', 'start', 'main', '--wait']);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      "error: preview deployments are not available on your current plan (403: Preview deployments are not available on your current plan.); upgrade the plan in the Mintlify dashboard, or check that the key belongs to this project's organization\n",
    );
  });
});

describe.concurrent('automation run', () => {
  it.each([
    [
      'a scheduled automation by its trigger',
      ['wf_scheduled'],
      /^wfi_[0-9a-f]{16}\n$/,
      '/v1/workflow/proj_sandbox/wf_scheduled/trigger',
    ],
    [
      'a webhook automation by its webhook',
      ['wf_webhook', '--webhook'],
      /^wfi_[0-9a-f]{16}\n$/,
      '/v2/workflow/proj_sandbox/wf_webhook/webhook',
    ],
  ])('runs %s and prints the run id; says there is no way to follow it', async (_name, args, stdout, path) => {
    const t = await setup();
    const r = await t.cli(['automation', 'run', ...args]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(stdout);
    expect(r.stderr).toBe(
      `automation ${args[0]}: run ${r.stdout.trim()} queued; the API cannot follow a run, see it on https://app.mintlify.com/products/automations\n`,
    );
    expect(t.posts().map((p) => p.path)).toEqual([path]);
  });

  it('--json prints the API answer as it came', async () => {
    const t = await setup();
    const r = await t.cli(['automation', 'run', 'wf_scheduled', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({
      schemaId: 'wf_scheduled',
      instanceId: expect.stringMatching(/^wfi_/),
      jobId: expect.stringMatching(/^job_/),
    });
  });

  it.each([
    ['trigger', []],
    ['webhook', ['--webhook']],
  ])('402 by %s: exit 1, credits exhausted and what to do', async (_how, flags) => {
    const t = await setup();
    t.sandbox.faults.creditsExhausted = true;
    const r = await t.cli(['automation', 'run', flags.length ? 'wf_webhook' : 'wf_scheduled', ...flags]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: AI credits are exhausted for this billing cycle (402: AI credits are exhausted for this billing cycle. Upgrade your plan or wait for your credits to renew.); nothing was queued. Upgrade your plan or wait for your credits to renew, then run it again\n',
    );
    expect(t.posts()).toHaveLength(1);
  });

  it.each([
    [
      'an unknown id by trigger',
      ['wf_nope'],
      /^error: automation wf_nope was not found \(404: .*\): it does not exist or does not belong to this project\. Check the id and --project on https:\/\/app\.mintlify\.com\/products\/automations\n$/,
    ],
    [
      'a scheduled automation by webhook',
      ['wf_scheduled', '--webhook'],
      /^error: automation wf_scheduled cannot be run by webhook \(404: .*\): it was not found, is not active, does not belong to this project, or has no webhook trigger \(predefined automations and scheduled ones answer 404 here; run a scheduled one without --webhook\)/,
    ],
  ])('404 for %s: exit 1 naming the documented causes', async (_name, args, stderr) => {
    const t = await setup();
    const r = await t.cli(['automation', 'run', ...args]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(stderr);
  });

  it("the webhook's 503 (credit check failed, no run queued) is sent again until it is queued", async () => {
    const t = await setup();
    t.sandbox.faults.webhookCreditCheckFailures = 2;
    const r = await t.cli(['automation', 'run', 'wf_webhook', '--webhook']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^wfi_\w+\n$/);
    expect(t.posts()).toHaveLength(3);
  });

  it('a 503 that never clears ends with exit 1 after the allowed tries', async () => {
    const s = await server({
      'POST /v2/workflow/p1/wf_1/webhook': json(503, { error: 'Credit check failed. Retry the request.' }),
    });
    const r = await s.cli(['automation', 'run', 'wf_1', '--webhook']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /error: the credit check failed \(503: Credit check failed\. Retry the request\.\) on every try; no run was queued\. Try again in a few minutes\n$/,
    );
    expect(s.requests).toHaveLength(4);
  });

  it('a 503 from the trigger is not resent: the run may have been queued', async () => {
    const s = await server({ 'POST /v1/workflow/p1/wf_1/trigger': json(503, { error: 'Service Unavailable' }) });
    const r = await s.cli(['automation', 'run', 'wf_1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: the API answered 503 (Service Unavailable), so the run may have been queued anyway: look for it on https://app.mintlify.com/products/automations before running it again\n',
    );
    expect(s.requests).toHaveLength(1);
  });

  it('a deployment whose start fails after it may have reached the server is sent once, and the error says to look first', async () => {
    const s = await server({ 'POST /v1/project/update/p1': (req) => req.socket.destroy() });
    const r = await s.cli(['deploy', 'start', '--wait']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /, so the deployment may have been queued anyway: look for it in the Mintlify dashboard before deploying again\n$/,
    );
    expect(s.requests).toHaveLength(1);
  });

  it('an automation id that would change the path is exit 2 and sends nothing', async () => {
    const t = await setup();
    const r = await t.cli(['automation', 'run', '../x']);
    expect(r.code).toBe(2);
    expect(t.api()).toEqual([]);
  });
});

describe('the shared rate limit under a burst', () => {
  it('12 deployments and automation triggers at once against 10 per window: each succeeds after a wait or exits 6, never 1', async () => {
    // The sandbox's clock stands still through the burst, so all twelve first sends fall in one window
    // however slowly the processes start; it moves one window on when the first resent request comes
    // (the 13th), as real time would have by then. The window is 1 s, so the test waits a second.
    const base = Date.UTC(2026, 10, 23, 10, 0, 0);
    const sent = { count: () => 0 };
    const t = await setup({ deployRateWindowMs: 1000, now: () => base + (sent.count() > 12 ? 1000 : 0) });
    sent.count = () => t.posts().length;
    const runs = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.cli(i % 2 === 0 ? ['deploy', 'start'] : ['automation', 'run', 'wf_scheduled']),
      ),
    );
    for (const r of runs) expect([0, 6]).toContain(r.code);
    // Here every one succeeds: ten at once, two after sitting out the 429 (which means nothing was done).
    expect(runs.map((r) => r.code)).toEqual(Array(12).fill(0));
    expect(t.posts()).toHaveLength(14);
    expect(runs.filter((r) => r.stderr.includes('rate limited (429); retrying in 1s\n'))).toHaveLength(2);
    const ids = runs.map((r) => r.stdout.trim());
    expect(new Set(ids).size).toBe(12);
  }, 30_000);

  it('a 429 whose wait is too long is exit 6 at once, naming the limit and when to retry', async () => {
    const s = await server({
      'POST /v1/project/preview/p1': json(429, { error: 'Too many previews' }, { 'retry-after': '3600' }),
    });
    const r = await s.cli(['preview', 'start', 'main']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(
      /^error: rate limited by the API \(Too many previews\); preview deployments allow 5 requests per minute; try again in 1h00m \(after /,
    );
    expect(s.requests).toHaveLength(1);
  });
});

describe.concurrent('a build log from a server that does not only append', () => {
  it('each line is printed once, in order, when the log shrinks, slides and is rewritten; server text cannot drive the terminal; the key is masked', async () => {
    const status = (state: string, logs: string[]) => json(200, { _id: 's1', status: state, logs });
    const s = await server({
      'GET /v1/project/update-status/s1': sequence(
        status('queued', []),
        status('in_progress', ['one', 'two']),
        status('in_progress', ['one']), // a lagging read
        status('in_progress', ['one', 'two', 'three']),
        status('in_progress', ['two', 'three', 'four']), // a sliding window
        status('in_progress', ['rewritten a', 'rewritten b', 'rewritten c', 'rewritten d', 'five']),
        status('success', [
          'rewritten a',
          'rewritten b',
          'rewritten c',
          'rewritten d',
          'five',
          `done \x1b[2J with ${KEY}`,
        ]),
      ),
    });
    const r = await s.cli(['deploy', 'status', 's1', '--wait', ...FAST]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('success\n');
    expect(r.stderr.replace(/\ndeploy s1: success after \ds\n$/, '\n')).toBe(
      [
        'deploy s1: waiting for the build (Ctrl-C stops waiting; the build goes on)',
        'deploy s1: queued',
        'deploy s1: in_progress',
        'one',
        'two',
        'three',
        'four',
        'five',
        'done ^[[2J with mint_****6789',
        '',
      ].join('\n'),
    );
  });

  it('a status this CLI does not know ends the wait with exit 1', async () => {
    const s = await server({
      'GET /v1/project/update-status/s1': json(200, { _id: 's1', status: 'paused', logs: [] }),
    });
    const r = await s.cli(['deploy', 'status', 's1', '--wait', ...FAST]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /error: stopped waiting: deploy s1 reports status "paused", which this version of mint-admin does not know/,
    );
  });
});

describe.concurrent('--github-output', () => {
  function actionsFiles(dir: string) {
    const output = join(dir, 'github_output');
    const summary = join(dir, 'step_summary');
    writeFileSync(output, 'earlier=kept\n');
    writeFileSync(summary, '');
    return {
      env: { GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary },
      output: () => readFileSync(output, 'utf8'),
      summary: () => readFileSync(summary, 'utf8'),
    };
  }

  it('preview start --wait: status-id, status and preview-url appended; a summary with status, commit, duration and link', async () => {
    const t = await setup();
    const gh = actionsFiles(t.dir);
    const r = await t.cli(['preview', 'start', 'feat/new-guide', '--wait', '--github-output', ...FAST], {
      env: gh.env,
    });
    expect(r.code).toBe(0);
    const id = /queued: (\w+)/.exec(r.stderr)![1]!;
    expect(gh.output()).toBe(
      `earlier=kept\nstatus-id=${id}\nstatus=success\npreview-url=https://sandbox-feat-new-guide.mintlify.app\n`,
    );
    expect(gh.summary()).toMatch(
      new RegExp(
        `^### Mintlify preview: success\\n\\n\\| \\| \\|\\n\\|---\\|---\\|\\n` +
          `\\| Status \\| \\*\\*success\\*\\* Deployed \\|\\n` +
          `\\| Commit \\| \`[0-9a-f]{7}\` on feat/new\\\\-guide Preview feat/new\\\\-guide \\|\\n` +
          `\\| Duration \\| \\d+s \\|\\n` +
          `\\| Preview \\| https://sandbox-feat-new-guide\\.mintlify\\.app \\|\\n` +
          `\\| Status id \\| \`${id}\` \\|\\n\\n$`,
      ),
    );
  });

  it('a failed preview: status=failure and no preview-url, exit 4', async () => {
    const t = await setup();
    const gh = actionsFiles(t.dir);
    const r = await t.cli(['preview', 'start', 'fail/nav', '--wait', '--github-output', ...FAST], { env: gh.env });
    expect(r.code).toBe(4);
    expect(gh.output()).toMatch(/^earlier=kept\nstatus-id=\w+\nstatus=failure\n$/);
    expect(gh.summary()).toMatch(/^### Mintlify preview: failure\n/);
    expect(gh.summary()).not.toContain('mintlify.app');
  });

  it('deploy start without --wait: status=queued; a timeout: the last status seen', async () => {
    const t = await setup();
    const gh = actionsFiles(t.dir);
    const r = await t.cli(['deploy', 'start', '--github-output'], { env: gh.env });
    expect(r.code).toBe(0);
    expect(gh.output()).toBe(`earlier=kept\nstatus-id=${r.stdout.trim()}\nstatus=queued\n`);
    t.sandbox.faults.buildPollsToFinish = 1000;
    const late = await t.cli(
      ['deploy', 'status', r.stdout.trim(), '--wait', '--timeout', '500ms', '--github-output', ...FAST],
      { env: gh.env },
    );
    expect(late.code).toBe(5);
    expect(gh.output()).toBe(
      `earlier=kept\nstatus-id=${r.stdout.trim()}\nstatus=queued\nstatus-id=${r.stdout.trim()}\nstatus=in_progress\n`,
    );
    expect(gh.summary()).toMatch(
      /### Mintlify deployment: in\\_progress\n[\s\S]*\| Site \| https:\/\/sandbox\.mintlify\.app \|/,
    );
  });

  it('server text cannot add outputs or markup, and the key never reaches the files', async () => {
    const s = await server({
      'GET /v1/project/update-status/s1': json(200, {
        _id: 's1',
        status: 'failure\nstatus-id=forged',
        summary: `<img src=x onerror=alert(1)> | ${KEY}`,
        commit: { sha: 'not a sha', message: '[click](javascript:alert(1))' },
      }),
    });
    const gh = actionsFiles(s.dir);
    const r = await s.cli(['deploy', 'status', 's1', '--github-output'], { env: gh.env });
    expect(r.code).toBe(0);
    const output = gh.output();
    const delimiter = /status<<(ghadelimiter_[0-9a-f-]{36})\n/.exec(output)?.[1];
    expect(output).toBe(`earlier=kept\nstatus-id=s1\nstatus<<${delimiter}\nfailure\nstatus-id=forged\n${delimiter}\n`);
    const summary = gh.summary();
    expect(summary).toContain(
      '| Status | **failure status\\-id=forged** &lt;img src=x onerror=alert\\(1\\)&gt; &#124; mint\\_\\*\\*\\*\\*6789 |',
    );
    expect(summary).toContain('| Commit | \\[click\\]\\(javascript:alert\\(1\\)\\) |');
    expect(output + summary).not.toContain(KEY);
    expect(output + summary).not.toContain('e2etestkey');
  });
});
