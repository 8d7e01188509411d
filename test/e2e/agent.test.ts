import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useSandboxPerTest } from '../helpers/sandbox.js';

const FAST = ['--interval', '100ms'];

/** A sandbox and a config home of each test's own, so the cases can run side by side. */
const sandboxOfItsOwn = useSandboxPerTest();

async function setup() {
  const t = await sandboxOfItsOwn();
  return {
    ...t,
    env: t.env(),
    posts: () => t.sandbox.requests.filter((r) => r.method === 'POST'),
    gets: () => t.sandbox.requests.filter((r) => r.method === 'GET'),
  };
}

/** The job id from the first progress line ("agent job <id>: active"). */
const idIn = (stderr: string) => /agent job (\w+)/.exec(stderr)?.[1] ?? 'no id found';

/** What plain (non-terminal) output must never contain. */
function expectPlain(text: string): void {
  expect(text).not.toMatch(/\x1b|\r/);
}

describe.concurrent('agent run', () => {
  it.each([
    ['the arguments', ['Document', 'the', 'users', 'endpoint'], undefined, 'Document the users endpoint'],
    ['a file', ['-f', '$DIR/prompt.md'], undefined, 'Add a quick start.\n\nKeep it short.'],
    ['stdin', ['-f', '-'], 'Fix the typos\n', 'Fix the typos'],
  ])(
    'sends the prompt from %s, then prints the job id (its status and how to follow it on stderr)',
    async (_name, args, stdin, prompt) => {
      const { home, cli, posts } = await setup();
      writeFileSync(join(home, 'prompt.md'), 'Add a quick start.\n\nKeep it short.\n');
      const r = await cli(['agent', 'run', ...args.map((a) => a.replace('$DIR', home))], { stdin });
      expect(r.code).toBe(0);
      expect(posts().map((p) => p.body)).toEqual([{ prompt }]);
      const id = /^(\w+)\n$/.exec(r.stdout)?.[1];
      expect(id).toBeDefined();
      expect(r.stderr).toBe(`agent job ${id}: active\nfollow it: mint-admin agent get ${id} --wait\n`);
    },
  );

  it.each([
    [
      'a pull request: the link on stdout',
      'Add a changelog',
      0,
      /^https:\/\/github\.com\/sandbox\/docs\/pull\/1\n$/,
      /: completed after \d+s\n$/,
    ],
    [
      'no files changed: said on stderr',
      '[no-changes] Check the links',
      0,
      /^$/,
      /completed without changing any files, so no pull request was opened\n$/,
    ],
    ['archived: said with its time', '[archive] Old page', 0, /^$/, /was archived at \d{4}-\d\d-\d\dT[\d:.]+Z\n$/],
    [
      'failed: exit 4 and how to look at it',
      '[fail] Break it',
      4,
      /^$/,
      /^error: agent job \w+ failed; see what it did with `mint-admin agent get \w+ --json`/m,
    ],
  ])('--wait ends with %s', async (_name, prompt, code, stdout, stderr) => {
    const { sandbox, cli, posts, gets } = await setup();
    const r = await cli(['agent', 'run', prompt, '--wait', ...FAST]);
    expect(r.code).toBe(code);
    expect(r.stdout).toMatch(stdout);
    expect(r.stderr).toMatch(stderr);
    expect(r.stderr).toMatch(/^agent job \w+: active\n/);
    expectPlain(r.stderr);
    expect(posts()).toHaveLength(1);
    expect(gets()).toHaveLength(sandbox.faults.agentPollsToFinish);
  });

  it('--json --wait prints the final job and nothing else on stdout', async () => {
    const { cli } = await setup();
    const r = await cli(['agent', 'run', 'Add a changelog', '--wait', '--json', ...FAST]);
    expect(r.code).toBe(0);
    const job = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(job).toMatchObject({
      status: 'completed',
      prLink: 'https://github.com/sandbox/docs/pull/1',
      archivedAt: null,
    });
    expect(r.stdout).toBe(`${JSON.stringify(job, null, 2)}\n`);
    expectPlain(r.stderr);
  });

  it('--json without --wait prints the created job', async () => {
    const { cli } = await setup();
    const r = await cli(['agent', 'run', 'Add a changelog', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'active',
      prLink: null,
      source: { repository: 'https://github.com/sandbox/docs' },
    });
  });

  it.each([
    ['an empty prompt', ['agent', 'run', ''], undefined, /^error: the prompt is empty/],
    ['no prompt at all', ['agent', 'run'], undefined, /^error: the prompt is empty/],
    ['a whitespace-only prompt', ['agent', 'run', '  ', '\t'], undefined, /^error: the prompt is empty/],
    [
      'both a prompt and --file',
      ['agent', 'run', 'Fix', '-f', 'prompt.md'],
      undefined,
      /^error: give the prompt either as arguments or with --file, not both/,
    ],
    [
      'a missing prompt file',
      ['agent', 'run', '-f', 'no-such.md'],
      undefined,
      /^error: cannot read the prompt file "no-such\.md" \(no such file\)/,
    ],
    ['an empty stdin', ['agent', 'run', '-f', '-'], '', /^error: the prompt read from stdin is empty/],
    [
      'a bad --timeout',
      ['agent', 'run', 'Fix', '--wait', '--timeout', 'soon'],
      undefined,
      /^error: --timeout: "soon" is not a duration/,
    ],
    [
      'a too short --interval',
      ['agent', 'run', 'Fix', '--wait', '--interval', '10ms'],
      undefined,
      /^error: --interval must be at least 100ms/,
    ],
    ['a job id with a slash', ['agent', 'get', 'a/b'], undefined, /^error: "a\/b" is not a job id/],
    ['an empty job id for a message', ['agent', 'message', '', 'Fix'], undefined, /^error: the job id is empty/],
    ['an empty follow-up message', ['agent', 'message', 'job_1', ' '], undefined, /^error: the prompt is empty/],
  ])('refuses %s with exit 2 and sends nothing', async (_name, args, stdin, message) => {
    const { sandbox, home, cli } = await setup();
    const r = await cli(args, { stdin, cwd: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stdout).toBe('');
    expect(sandbox.requests).toEqual([]);
  });

  it.each([
    [
      'no project id',
      { MINTLIFY_PROJECT_ID: undefined },
      /^error: no project id: pass --project <id>, set MINTLIFY_PROJECT_ID, or run `mint-admin config set project-id <id>`\n$/,
    ],
    ['no API key', { MINTLIFY_ADMIN_API_KEY: undefined }, /^error: no API key: set MINTLIFY_ADMIN_API_KEY/],
    ['an assistant key', { MINTLIFY_ADMIN_API_KEY: 'mint_dsc_0123456789abcdef' }, /assistant API key/],
  ])('stops with exit 3 on %s, before sending anything', async (_name, overrides, message) => {
    const { sandbox, env } = await setup();
    const r = await runCli(['agent', 'run', 'Fix the typos', '--wait'], { env: { ...env, ...overrides } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(message);
    expect(sandbox.requests).toEqual([]);
  });

  it.each([
    ['a 500', { status: 500 }],
    ['a dropped connection', { dropConnection: true }],
  ])('sends exactly one POST when the create meets %s, and says the job may exist', async (_name, fault) => {
    const { sandbox, cli, posts, gets } = await setup();
    sandbox.faults.inject({ route: 'agent.create', ...fault });
    const r = await cli(['agent', 'run', 'Fix the typos', '--wait', ...FAST]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /while creating the agent job, so the job may have been created anyway: check the repository's pull requests and the Mintlify dashboard before running it again\n$/,
    );
    expect(posts()).toHaveLength(1);
    expect(gets()).toHaveLength(0);
  });

  it('states the rate limit (100 jobs per project per hour) and when to try again: exit 6', async () => {
    const { sandbox, cli, posts } = await setup();
    sandbox.faults.inject({ route: 'agent.create', status: 429, retryAfter: 1800 });
    const r = await cli(['agent', 'run', 'Fix the typos']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(
      /^error: rate limited \(Injected fault: 429 Too Many Requests\): the API accepts 100 agent jobs per project per hour; try again in 30m00s \(after \d{4}-[\d-]+T[\d:.]+Z\)\n$/,
    );
    expect(posts()).toHaveLength(1);
  });
});

describe.concurrent('waiting', () => {
  it('survives an outage (503s past the client retries) and a 429 with a short Retry-After', async () => {
    const { sandbox, cli, posts, gets } = await setup();
    sandbox.faults.inject({ route: 'agent.get', status: 503, times: 4 });
    sandbox.faults.inject({ route: 'agent.get', status: 429, retryAfter: 1 });
    const r = await cli(['agent', 'run', 'Add a changelog', '--wait', ...FAST]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('https://github.com/sandbox/docs/pull/1\n');
    expect(r.stderr).toMatch(/^agent job \w+: the API answered 503; retrying shortly$/m);
    expect(r.stderr).toMatch(/^agent job \w+: rate limited \(429\); retrying in 1s$/m);
    expectPlain(r.stderr);
    expect(posts()).toHaveLength(1);
    expect(gets()).toHaveLength(4 + 1 + sandbox.faults.agentPollsToFinish);
  }, 20_000);

  it('times out with exit 5 and the command that resumes the wait, --project included', async () => {
    const { sandbox, env } = await setup();
    sandbox.faults.agentPollsToFinish = 1_000_000;
    const r = await runCli(
      ['agent', 'run', 'Add a changelog', '--wait', '--timeout', '600ms', ...FAST, '--project', sandbox.projectId],
      {
        env: { ...env, MINTLIFY_PROJECT_ID: undefined },
      },
    );
    expect(r.code).toBe(5);
    const id = idIn(r.stderr);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: gave up waiting after \\d+s: agent job ${id} is still active and keeps running on the server; resume the wait with \`mint-admin agent get ${id} --wait --project ${sandbox.projectId}\`\n$`,
        'm',
      ),
    );
    expect(r.stdout).toBe('');
  });

  it('stops on Ctrl-C with exit 130, saying the job keeps running and how to resume', async () => {
    const { sandbox, cli, posts, gets } = await setup();
    sandbox.faults.agentPollsToFinish = 1_000_000;
    const r = await cli(['agent', 'run', 'Add a changelog', '--wait', ...FAST], {
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (gets().length >= 2) {
            clearInterval(timer);
            child.kill('SIGINT');
          }
        }, 20);
        child.on('exit', () => clearInterval(timer));
      },
    });
    expect(r.code).toBe(130);
    const id = idIn(r.stderr);
    expect(
      r.stderr.endsWith(
        `error: stopped waiting; agent job ${id} keeps running on the server: resume the wait with \`mint-admin agent get ${id} --wait\`\n`,
      ),
    ).toBe(true);
    expect(posts()).toHaveLength(1);
  });
});

describe.concurrent('agent get and agent message', () => {
  async function createJob(cli: Awaited<ReturnType<typeof setup>>['cli']): Promise<string> {
    const r = await cli(['agent', 'run', 'Add a changelog']);
    return r.stdout.trimEnd();
  }

  it('get prints the status, and with --wait the pull request', async () => {
    const { cli } = await setup();
    const id = await createJob(cli);
    expect((await cli(['agent', 'get', id])).stdout).toBe(`${id}  active\n`);
    const waited = await cli(['agent', 'get', id, '--wait', ...FAST]);
    expect(waited.code).toBe(0);
    expect(waited.stdout).toBe('https://github.com/sandbox/docs/pull/1\n');
    expect(waited.stderr).toMatch(new RegExp(`^waiting for agent job ${id}\nagent job ${id}: active\n`));
    expect((await cli(['agent', 'get', id])).stdout).toBe(`${id}  completed  https://github.com/sandbox/docs/pull/1\n`);
  });

  it('message sends the follow-up and, with --wait, prints the same pull request', async () => {
    const { sandbox, cli } = await setup();
    const id = await createJob(cli);
    await cli(['agent', 'get', id, '--wait', ...FAST]);
    const r = await cli(['agent', 'message', id, 'Also', 'add', 'an', 'example', '--wait', ...FAST]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('https://github.com/sandbox/docs/pull/1\n');
    const message = sandbox.requests.find((q) => q.method === 'POST' && q.path.endsWith('/message'));
    expect(message).toMatchObject({
      path: `/v2/agent/${sandbox.projectId}/job/${id}/message`,
      body: { prompt: 'Also add an example' },
    });
  });

  it('message without --wait prints the job id, and on stderr that it is active again', async () => {
    const { cli } = await setup();
    const id = await createJob(cli);
    const r = await cli(['agent', 'message', id, '-f', '-'], { stdin: 'Also add an example' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${id}\n`);
    expect(r.stderr).toBe(`agent job ${id}: active\nfollow it: mint-admin agent get ${id} --wait\n`);
  });

  it.each([
    ['message', ['agent', 'message', 'nosuchjob', 'Hello']],
    ['get', ['agent', 'get', 'nosuchjob', '--wait']],
  ])('%s of an unknown job: exit 1 with the 404', async (_name, args) => {
    const { cli } = await setup();
    const r = await cli([...args, ...FAST]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: not found \(404: Agent job nosuchjob not found\); check the id and --project\n$/m,
    );
    expect(r.stdout).toBe('');
  });
});
