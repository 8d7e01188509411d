// The committed action bundle run the way a runner runs it: `node action/dist/index.cjs` with INPUT_*
// variables, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and a pull_request event, against the sandbox (the
// Admin API) and a loopback GitHub API whose routes are checked against GitHub's OpenAPI description.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseOutputFile } from '../../action/src/outputs.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { CLEARED } from '../helpers/cli.js';
import { GITHUB_ACTIONS_BOT, loadGithubRoutes, startFakeGithub, type FakeGithub } from '../helpers/github-api.js';

const BUNDLE = fileURLToPath(new URL('../../action/dist/index.cjs', import.meta.url));
const API_KEY = 'mint_action_test_key_4f1c9e';
const PR = 7;

let sandbox: Sandbox;
let gh: FakeGithub;
let dir: string;
const routes = loadGithubRoutes();

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, previewRateWindowMs: 0 });
  gh = await startFakeGithub(routes, { owner: 'acme', repo: 'docs', pageSize: 2 });
});
afterAll(async () => {
  await gh?.close();
  await sandbox?.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mint-admin-action-test-'));
  gh.comments.clear();
  gh.requests.length = 0;
  gh.forbidWrites = false;
  gh.endlessPages = false;
  gh.viewer = GITHUB_ACTIONS_BOT;
  gh.failures = { list: [], create: [], update: [], viewer: [] };
  sandbox.faults.reset();
  sandbox.faults.buildPollsToFinish = 1;
});
afterEach(() => {
  expect(gh.unknown).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

interface StepResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Map<string, string>;
  outputText: string;
  summary: string;
}

function pullRequestEvent(fork: boolean) {
  return {
    action: 'synchronize',
    number: PR,
    pull_request: {
      number: PR,
      head: { ref: 'feature-x', repo: { full_name: fork ? 'someone/docs' : 'acme/docs', fork } },
      base: { ref: 'main' },
    },
    repository: { name: 'docs', owner: { login: 'acme' }, full_name: 'acme/docs' },
  };
}

async function runStep(
  inputs: Record<string, string>,
  { fork = false, event = 'pull_request', keyInEnv = false, payload = undefined as object | undefined } = {},
): Promise<StepResult> {
  const outputPath = join(dir, `output-${Math.random()}`);
  const summaryPath = join(dir, `summary-${Math.random()}`);
  const eventPath = join(dir, 'event.json');
  writeFileSync(outputPath, '');
  writeFileSync(summaryPath, '');
  writeFileSync(eventPath, JSON.stringify(payload ?? pullRequestEvent(fork)));
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of [...CLEARED, ...Object.keys(env).filter((n) => n.startsWith('INPUT_') || n.startsWith('GITHUB_'))])
    delete env[name];
  Object.assign(env, {
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'xdg'),
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_EVENT_NAME: event,
    GITHUB_REPOSITORY: 'acme/docs',
    GITHUB_API_URL: gh.url,
    GITHUB_WORKFLOW: 'Docs preview',
    GITHUB_JOB: 'preview',
    'INPUT_GITHUB-TOKEN': 'ghs_fake_token',
    INPUT_COMMENT: 'false',
    'INPUT_BASE-URL': sandbox.baseUrl,
    'INPUT_PROJECT-ID': sandbox.projectId,
    'INPUT_API-KEY': API_KEY,
  });
  if (keyInEnv) env.MINTLIFY_ADMIN_API_KEY = API_KEY;
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  const child = spawn(process.execPath, [BUNDLE], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const outputText = readFileSync(outputPath, 'utf8');
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(outputText),
    outputText,
    summary: readFileSync(summaryPath, 'utf8'),
  };
}

/** The key may appear once, in the ::add-mask:: command the runner consumes; nowhere else. */
function expectKeyNowhere(step: StepResult) {
  const lines = step.stdout.split('\n');
  expect(lines[0]).toBe(`::add-mask::${API_KEY}`);
  for (const text of [lines.slice(1).join('\n'), step.stderr, step.outputText, step.summary])
    expect(text).not.toContain(API_KEY);
  for (const request of gh.requests) expect(JSON.stringify(request)).not.toContain(API_KEY);
  for (const comment of [...gh.comments.values()].flat()) expect(comment.body).not.toContain(API_KEY);
}

describe("the loopback GitHub API's route check", () => {
  it("knows GitHub's issue-comment routes and refuses ones GitHub lacks", () => {
    expect(routes.match('GET', '/repos/acme/docs/issues/7/comments')).toBe(
      'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
    );
    expect(routes.match('POST', '/repos/acme/docs/issues/7/comments')).toBe(
      'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
    );
    expect(routes.match('PATCH', '/repos/acme/docs/issues/comments/5')).toBe(
      'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
    );
    expect(routes.match('PATCH', '/repos/acme/docs/issues/7/comments')).toBeUndefined();
    expect(routes.match('PUT', '/repos/acme/docs/issues/comments/5')).toBeUndefined();
    expect(routes.match('GET', '/repos/acme/docs/sticky-comments')).toBeUndefined();
  });
});

describe('the action', () => {
  it('starts a preview: outputs, a summary, exit code 0, the key masked first and nowhere else', async () => {
    const step = await runStep({ command: 'preview start feature-x' });
    expect(step.code).toBe(0);
    expect(step.outputs.get('exit-code')).toBe('0');
    expect(step.outputs.get('status')).toBe('queued');
    expect(step.outputs.get('status-id')).toMatch(/\S/);
    expect(step.outputs.get('preview-url')).toMatch(/^https:\/\//);
    expect(step.summary).toContain('Mintlify preview');
    expect(step.summary).toContain(step.outputs.get('status-id'));
    expectKeyNowhere(step);
  });

  it('keeps ONE comment across three runs: created once, then updated in place, found again past the first page', async () => {
    // Someone else's comments, one of them a passer-by's copy of the marker, which must be left alone.
    const passerBy = {
      id: 3,
      body: '<!-- mint-admin:preview Docs preview/preview -->\nphishing link',
      author: { login: 'mallory', type: 'User' as const, association: 'NONE' },
    };
    gh.comments.set(PR, [{ id: 1, body: 'looks good' }, { id: 2, body: 'one nit' }, passerBy]);
    const steps = [];
    for (const branch of ['feature-x', 'feature-y', 'feature-z'])
      steps.push(await runStep({ command: `preview start ${branch}`, comment: 'true' }));
    for (const step of steps) {
      expect(step.code).toBe(0);
      expectKeyNowhere(step);
    }
    const mine = gh.comments.get(PR)!.filter((c) => c.body.includes('<!-- mint-admin:preview') && c.id !== passerBy.id);
    expect(mine).toHaveLength(1);
    expect(passerBy.body).toBe('<!-- mint-admin:preview Docs preview/preview -->\nphishing link');
    expect(mine[0]!.body).toContain(steps[2]!.outputs.get('preview-url'));
    expect(mine[0]!.body).toContain(steps[2]!.outputs.get('status-id'));
    const writes = gh.requests
      .filter((r) => r.method !== 'GET' && r.url !== '/graphql')
      .map((r) => `${r.method} ${r.url.split('?')[0]}`);
    expect(writes).toEqual([
      `POST /repos/acme/docs/issues/${PR}/comments`,
      `PATCH /repos/acme/docs/issues/comments/${mine[0]!.id}`,
      `PATCH /repos/acme/docs/issues/comments/${mine[0]!.id}`,
    ]);
    // Three pages of comments (page size 2) are read on the runs that come after the first.
    expect(gh.requests.filter((r) => r.method === 'GET' && r.url.includes('page=2')).length).toBeGreaterThanOrEqual(2);
  });

  // A copy of the marker in a member's comment or another app's is theirs: only the token's own account
  // (GraphQL's viewer, which answers for GITHUB_TOKEN, an app token or a PAT alike) has a comment to edit.
  it.each([
    ['GITHUB_TOKEN (github-actions[bot])', GITHUB_ACTIONS_BOT],
    ['a personal token (a member)', { login: 'docs-ci', type: 'User', association: 'MEMBER' }],
  ] as const)("with %s, a member's pasted copy and another app's comment are left alone", async (_name, viewer) => {
    const marker = '<!-- mint-admin:preview Docs preview/preview -->';
    const others = [
      {
        id: 1,
        body: `${marker}\nQuoting the bot: please review`,
        author: { login: 'alice', type: 'User' as const, association: 'MEMBER' },
      },
      {
        id: 2,
        body: `${marker}\nanother app's report`,
        author: { login: 'some-other-app[bot]', type: 'Bot' as const, association: 'NONE' },
      },
      {
        id: 3,
        body: `${marker}\nan earlier token's comment`,
        author:
          viewer.type === 'Bot'
            ? { login: 'docs-ci', type: 'User' as const, association: 'MEMBER' }
            : GITHUB_ACTIONS_BOT,
      },
    ];
    gh.viewer = viewer;
    gh.comments.set(
      PR,
      others.map((c) => ({ ...c })),
    );
    for (const branch of ['feature-x', 'feature-y'])
      expect((await runStep({ command: `preview start ${branch}`, comment: 'true' })).code).toBe(0);
    const all = gh.comments.get(PR)!;
    expect(all.slice(0, 3).map((c) => c.body)).toEqual(others.map((c) => c.body));
    expect(all).toHaveLength(4);
    expect(all[3]!.author?.login).toBe(viewer.login);
    expect(all[3]!.body).toContain('feature-y');
    const writes = gh.requests
      .filter((r) => r.method === 'POST' || r.method === 'PATCH')
      .filter((r) => r.url !== '/graphql')
      .map((r) => r.method);
    expect(writes).toEqual(['POST', 'PATCH']);
  });

  // A viewer without a login proves nothing: a marked comment of a deleted account (`user: null`) is
  // not the token's to edit, however alike two nulls look.
  it('when GraphQL names no login, no marked comment is edited, not even one whose author is gone', async () => {
    const marker = '<!-- mint-admin:preview Docs preview/preview -->';
    const orphan = { id: 1, body: `${marker}\na deleted account's copy`, author: null };
    gh.comments.set(PR, [{ ...orphan }]);
    gh.viewer = { login: null, type: 'Bot', association: 'NONE' };
    const step = await runStep({ command: 'preview start feature-x', comment: 'true' });
    expect(step.code).toBe(0);
    expect(gh.comments.get(PR)![0]!.body).toBe(orphan.body);
    expect(gh.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
    expect(step.stdout).toMatch(/^::warning::mint-admin: .*own/m);
    expectKeyNowhere(step);
  });

  it('a comment listing whose next page never ends is read to a bound, then given up with a warning; the step succeeds', async () => {
    gh.endlessPages = true;
    gh.comments.set(PR, [{ id: 1, body: 'looks good' }]);
    const step = await runStep({ command: 'preview start feature-x', comment: 'true' });
    expect(step.code).toBe(0);
    const pages = gh.requests.filter((r) => r.method === 'GET' && r.url.includes('/comments'));
    expect(pages.length).toBe(50);
    expect(step.stdout).toMatch(
      /^::warning::mint-admin: could not comment on pull request #7 \(more than 50 pages of comments/m,
    );
    expect(gh.requests.filter((r) => r.method === 'POST' && r.url !== '/graphql')).toEqual([]);
    expect(step.summary).toContain(step.outputs.get('preview-url'));
  });

  it('a `/preview` comment on a pull request (issue_comment): the comment goes to that pull request', async () => {
    const payload = {
      action: 'created',
      issue: { number: 12, pull_request: { url: 'https://api.github.com/repos/acme/docs/pulls/12' } },
      comment: { id: 1, body: '/preview', author_association: 'MEMBER' },
      repository: { name: 'docs', owner: { login: 'acme' }, full_name: 'acme/docs' },
    };
    const step = await runStep(
      { command: 'preview start mint-admin-preview/pr-12', comment: 'true' },
      { event: 'issue_comment', payload },
    );
    expect(step.code).toBe(0);
    expect(gh.comments.get(12)).toHaveLength(1);
    expect(gh.comments.get(12)![0]!.body).toContain(step.outputs.get('preview-url'));
    expectKeyNowhere(step);
  });

  it('a comment on an issue that is not a pull request, or a push: no comment, and it says why', async () => {
    const issue = {
      action: 'created',
      issue: { number: 13 },
      comment: { id: 2, body: '/preview' },
      repository: { name: 'docs', owner: { login: 'acme' } },
    };
    const onIssue = await runStep(
      { command: 'preview start feature-x', comment: 'true' },
      { event: 'issue_comment', payload: issue },
    );
    const onPush = await runStep(
      { command: 'preview start feature-x', comment: 'true' },
      { event: 'push', payload: { ref: 'refs/heads/main' } },
    );
    for (const step of [onIssue, onPush]) {
      expect(step.code).toBe(0);
      expect(step.stdout).toContain('comment: true, but this event is not about a pull request; no comment');
    }
    expect(gh.requests).toEqual([]);
  });

  it('a fork pull request whose token may not comment (403): a warning, the result in the summary, the step still succeeds', async () => {
    gh.forbidWrites = true;
    const step = await runStep({ command: 'preview start feature-x', comment: 'true' }, { fork: true });
    expect(step.code).toBe(0);
    expect(step.outputs.get('exit-code')).toBe('0');
    expect(step.stdout).toMatch(/^::warning::mint-admin: could not comment on pull request #7 \(403/m);
    expect(step.summary).toContain(step.outputs.get('preview-url'));
    expect(gh.comments.get(PR) ?? []).toEqual([]);
    expectKeyNowhere(step);
  });

  // The step's result is the command's: a comment GitHub would not take is a warning, never exit 1.
  it.each([
    ['the listing answers 500 twice', { list: [500, 500] }, 'preview start feature-x', 0, '500'],
    [
      'the create answers 502 twice, on a failed build',
      { create: [502, 502] },
      'preview start fail/broken --wait --interval 1s',
      4,
      '502',
    ],
    ['an expired token (401)', { list: [401] }, 'preview start feature-x', 0, '401'],
    [
      'a comment GitHub refuses (422), on a failed build',
      { create: [422] },
      'preview start fail/broken --wait --interval 1s',
      4,
      '422',
    ],
  ] as const)(
    "GitHub fails the comment (%s): a warning, the result in the summary, the step ends with the command's code",
    async (_name, failures, command, code, status) => {
      gh.failures = {
        list: [],
        create: [],
        update: [],
        viewer: [],
        ...(failures as unknown as Partial<Record<string, number[]>>),
      };
      const step = await runStep({ command, comment: 'true' });
      expect(step.code).toBe(code);
      expect(step.outputs.get('exit-code')).toBe(String(code));
      expect(step.stdout).toMatch(
        new RegExp(`^::warning::mint-admin: could not comment on pull request #7 \\(${status}`, 'm'),
      );
      // The one annotation, if any, is the command's failure: never the comment's.
      expect(step.stdout.split('\n').filter((line) => line.startsWith('::error::')).length).toBe(code === 0 ? 0 : 1);
      expect(step.stdout).not.toMatch(/^::error::.*comment/m);
      expect(step.summary).toContain(
        code === 0 ? step.outputs.get('preview-url') : `failed: the job failed (exit code ${code})`,
      );
      expect(gh.comments.get(PR) ?? []).toEqual([]);
      expectKeyNowhere(step);
    },
  );

  it('GitHub answers 502 once: sent again, the comment is posted, no warning', async () => {
    gh.failures.create = [502];
    const step = await runStep({ command: 'preview start feature-x', comment: 'true' });
    expect(step.code).toBe(0);
    expect(step.stdout).not.toContain('::warning::');
    expect(gh.comments.get(PR)).toHaveLength(1);
    expect(gh.comments.get(PR)![0]!.body).toContain(step.outputs.get('preview-url'));
  });

  it('a failing build: exit-code 4 as an output, the step fails with exit code 4, the comment says so', async () => {
    const step = await runStep({ command: 'preview start fail/broken --wait --interval 1s', comment: 'true' });
    expect(step.code).toBe(4);
    expect(step.outputs.get('exit-code')).toBe('4');
    expect(step.outputs.get('status')).toBe('failure');
    // The build's own failure, not only its exit code.
    const annotation = /^::error::(.*)$/m.exec(step.stdout)![1]!;
    expect(annotation).toMatch(/fail/i);
    expect(annotation).toMatch(/\(exit code 4\)$/);
    expect(annotation).not.toMatch(/^mint-admin exited with code/);
    const [comment] = gh.comments.get(PR)!;
    expect(comment!.body).toContain('failed: the job failed (exit code 4)');
    expect(comment!.body).not.toContain('Preview:');
    expectKeyNowhere(step);
  });

  it("the agent: job-id, status and pr-link as outputs, the agent's pull request in the comment", async () => {
    sandbox.faults.agentPollsToFinish = 1;
    const step = await runStep({
      command: `agent run "Document the 'export' flags" --wait --interval 1s`,
      comment: 'true',
    });
    expect(step.code).toBe(0);
    expect(step.outputs.get('job-id')).toMatch(/\S/);
    expect(step.outputs.get('status')).toBe('completed');
    const prLink = step.outputs.get('pr-link');
    expect(prLink).toMatch(/^https:\/\//);
    expect(step.stdout).toContain(prLink);
    expect(gh.comments.get(PR)![0]!.body).toContain(`- Pull request: ${prLink}`);
    expect(step.summary).toContain(`- Pull request: ${prLink}`);
    expectKeyNowhere(step);
  });

  it('an export: job-id and directory as outputs, the site on disk', async () => {
    sandbox.faults.exportPollsToFinish = 1;
    const out = join(dir, 'site');
    const step = await runStep({ command: `export run -o '${out}' --interval 1s` });
    expect(step.code).toBe(0);
    expect(step.outputs.get('directory')).toBe(out);
    expect(step.outputs.get('job-id')).toMatch(/\S/);
    expect(readFileSync(join(out, 'index.html'), 'utf8').length).toBeGreaterThan(0);
    expectKeyNowhere(step);
  });

  it('a command with an unclosed quote: exit 2, nothing sent', async () => {
    const before = sandbox.requests.length;
    const step = await runStep({ command: `preview start 'feature-x` });
    expect(step.code).toBe(2);
    expect(step.outputs.get('exit-code')).toBe('2');
    expect(step.stdout).toContain('::error::the `command` input has an unclosed single quote');
    expect(sandbox.requests.length).toBe(before);
  });

  it.each([
    ['an empty command', { command: '  ' }, 'the `command` input is empty'],
    [
      'a comment input that is not true or false',
      { command: 'preview start feature-x', comment: 'yes' },
      'the `comment` input is "yes": use true or false',
    ],
  ])('%s: exit 2, nothing sent', async (_name, inputs, message) => {
    const before = sandbox.requests.length;
    const step = await runStep(inputs);
    expect(step.code).toBe(2);
    expect(step.outputs.get('exit-code')).toBe('2');
    expect(step.stdout).toContain(`::error::${message}`);
    expect(sandbox.requests.length).toBe(before);
    expect(gh.requests).toEqual([]);
  });

  // The annotation is the command's own error line, in the action's terms where an input is at fault.
  it.each([
    [
      'an empty api-key input (none in the env either)',
      { command: 'deploy start', 'api-key': '' },
      3,
      /^set the `api-key` input to the admin key, from a secret/,
    ],
    [
      'a bad flag in the command',
      { command: 'preview start feature-x --no-such-flag' },
      2,
      /^the `command` input: unknown option '--no-such-flag'/,
    ],
    [
      'an api-key input that is not an admin key',
      { command: 'deploy start', 'api-key': 'mint_dsc_assistantkey0123' },
      3,
      /^the `api-key` input holds an assistant API key \(mint_\*\*\*\*0123\)/,
    ],
    ['a refused key (401)', { command: 'deploy start', 'api-key': 'mint_refused_key_0123456789' }, 3, /401/],
  ])(
    '%s: the annotation says why, naming the input; the summary says what failed',
    async (_name, inputs, code, why) => {
      const step = await runStep(inputs);
      expect(step.code).toBe(code);
      expect(step.outputs.get('exit-code')).toBe(String(code));
      const annotations = step.stdout.split('\n').filter((line) => line.startsWith('::error::'));
      expect(annotations).toHaveLength(1);
      const annotation = annotations[0]!.slice('::error::'.length);
      expect(annotation).toMatch(why);
      expect(annotation).toMatch(new RegExp(`\\(exit code ${code}\\)$`));
      // Not the CLI's advice, which is about its environment variable and `config set`.
      expect(annotation).not.toMatch(
        /set MINTLIFY_ADMIN_API_KEY|config set|holds.*MINTLIFY_ADMIN_API_KEY|MINTLIFY_ADMIN_API_KEY holds/,
      );
      expect(step.summary).toMatch(
        new RegExp(`^### mint-admin .*: failed: (usage error|authentication failed) \\(exit code ${code}\\)$`, 'm'),
      );
      expect(step.summary).toContain('- Error: `');
      // The wrong key, masked by the runner's ::add-mask:: first, is nowhere else either.
      for (const text of [step.stdout.split('\n').slice(1).join('\n'), step.stderr, step.summary])
        expect(text).not.toContain('assistantkey0123');
    },
  );

  it('the key from the step env instead of the input is masked all the same', async () => {
    const step = await runStep({ command: 'preview start feature-x', 'api-key': '' }, { keyInEnv: true });
    expect(step.code).toBe(0);
    expect(step.outputs.get('status')).toBe('queued');
    expectKeyNowhere(step);
  });

  // Code spans show their text as is (GitHub decodes no entity there), and a mention in one notifies nobody.
  it('the summary and comment show values verbatim in code spans, and server text @-mentions nobody', async () => {
    sandbox.faults.inject({
      route: 'deploy.status',
      status: 200,
      body: {
        _id: 'abc_123-x',
        projectId: sandbox.projectId,
        status: 'queued @acme/docs-team @octocat `x` <b>',
        logs: [],
      },
    });
    const step = await runStep({ command: '--debug deploy status abc_123-x', comment: 'true' });
    const [comment] = gh.comments.get(PR)!;
    expect(comment!.body).toContain('### mint-admin `--debug deploy`');
    expect(comment!.body).toContain('- status-id: `abc_123-x`');
    expect(comment!.body).not.toContain('&#');
    expect(comment!.body.replace(/``.*?``|`[^`]*`/g, '')).not.toContain('@');
    expect(comment!.body).toContain('- Status: **`` queued @acme/docs-team @octocat `x` <b> ``**');
    expect(step.summary).not.toContain('&#');
    expectKeyNowhere(step);
  });

  it('an agent-free command that yields nothing special still gets exit-code and a summary', async () => {
    const step = await runStep({ command: 'deploy status no-such-status-id' });
    expect(step.outputs.get('exit-code')).toBe(String(step.code));
    expect(step.code).not.toBe(0);
    expect(step.summary).toMatch(/mint-admin .*deploy status.*failed: [A-Za-z ]+ \(exit code \d\)/);
    expectKeyNowhere(step);
  });
});
