// What the server says reaches people clean: escape sequences made visible, the admin key masked,
// ids with shell characters refused rather than pasted into a command, and ids that would change
// the URL path refused before anything is sent. The built CLI against a loopback server.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentJob, ExportJob } from '../../src/api/types.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { term } from '../helpers/searches.js';
import { json, startServer, type Handler } from '../helpers/server.js';

const KEY = 'mint_outputTestKey0123456789';
const MASKED = 'mint_****6789';
const PROJECT = 'proj_1';
/** Clears the screen, and a hyperlink whose text hides where it goes (OSC 8), ended by BEL. */
const CLEAR = '\x1b[2J';
const LINK = '\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07';
const CSI_C1 = '\x9b31m';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function cli(routes: Record<string, Handler>, args: string[]) {
  const server = await startServer(routes);
  const dir = tempDir();
  cleanups.push(() => server.close(), dir.cleanup);
  const env = {
    MINTLIFY_API_URL: server.url,
    MINTLIFY_ADMIN_API_KEY: KEY,
    MINTLIFY_PROJECT_ID: PROJECT,
    HOME: dir.path,
    XDG_CONFIG_HOME: join(dir.path, 'xdg'),
  };
  const r = await runCli(args, { env, cwd: dir.path });
  return { ...r, requests: server.requests };
}

const agentJob = (over: Partial<AgentJob> = {}): AgentJob => ({
  id: 'job_1',
  status: 'completed',
  source: { repository: 'https://github.com/acme/docs', ref: 'mint-agent/fix' },
  model: 'sonnet',
  prLink: 'https://github.com/acme/docs/pull/7',
  createdAt: '2026-11-22T12:00:00.000Z',
  archivedAt: null,
  ...over,
});
const exportJob = (over: Partial<ExportJob> = {}): ExportJob => ({
  jobId: 'se_1',
  status: 'completed',
  progress: 100,
  pageCount: 12,
  createdAt: '2026-11-22T12:00:00.000Z',
  updatedAt: '2026-11-22T12:05:00.000Z',
  ...over,
});

/** Nothing that drives a terminal: no ESC, no BEL, no C1 control, no CR. */
function expectClean(text: string) {
  expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
}

describe('escape sequences from the server are shown, not obeyed', () => {
  it('an agent pull request link on stdout', async () => {
    const r = await cli(
      { [`GET /v2/agent/${PROJECT}/job/job_1`]: json(200, agentJob({ prLink: `https://x/${CLEAR}${LINK}` })) },
      ['agent', 'get', 'job_1'],
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('job_1  completed  https://x/^[[2J^[]8;;https://evil.example/^Gclick^[]8;;^G\n');
    expectClean(r.stdout + r.stderr);
  });

  it('an agent pull request link after a wait', async () => {
    const r = await cli(
      { [`GET /v2/agent/${PROJECT}/job/job_1`]: json(200, agentJob({ prLink: `https://x/${CSI_C1}pr\r\n` })) },
      ['agent', 'get', 'job_1', '--wait'],
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('https://x/^[[31mpr^M^J\n');
    expectClean(r.stdout + r.stderr);
  });

  it("an export job's error, on stdout's hint line and in the final error", async () => {
    const failed = exportJob({ status: 'failed', error: `build broke${CLEAR}\rOK: all good` });
    const status = await cli({ 'GET /v1/static-export/jobs/se_1': json(200, failed) }, ['export', 'status', 'se_1']);
    expect(status.stderr).toBe(
      'Static export: the jobs flow (the job id looks like a jobs-flow id)\nThe export failed: build broke^[[2J^MOK: all good\n',
    );
    const waited = await cli({ 'GET /v1/static-export/jobs/se_1': json(200, failed) }, [
      'export',
      'status',
      'se_1',
      '--wait',
      '--interval',
      '100ms',
    ]);
    expect(waited.code).toBe(4);
    expect(waited.stderr).toContain('error: export se_1 failed: build broke^[[2J^MOK: all good\n');
    expectClean(status.stdout + status.stderr + waited.stdout + waited.stderr);
  });

  it("a server's error message", async () => {
    const r = await cli(
      {
        [`GET /v2/agent/${PROJECT}/job/job_1`]: json(404, {
          error: `no such job${LINK}`,
          details: [{ message: `see ${CLEAR}` }],
        }),
      },
      ['agent', 'get', 'job_1'],
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: not found (404: no such job^[]8;;https://evil.example/^Gclick^[]8;;^G; see ^[[2J); check the id and --project\n',
    );
  });

  it('the export bundle link on stdout', async () => {
    const bundle = {
      jobId: 'se_1',
      bundleUrl: `https://storage.example/b.tar.gz?sig=1${CLEAR}`,
      sizeBytes: 1000,
      expiresAt: '2099-01-01T00:00:00.000Z',
    };
    const r = await cli({ 'POST /v1/static-export/jobs/se_1/bundle': json(200, bundle) }, ['export', 'bundle', 'se_1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('https://storage.example/b.tar.gz?sig=1^[[2J\n');
    expectClean(r.stdout + r.stderr);
  });

  it('search terms in a piped table, and a cursor with shell characters in the footer', async () => {
    const page = {
      searches: [term({ searchQuery: `x${CLEAR}y`, topClickedPage: `/p${CSI_C1}` })],
      totalSearches: 10,
      nextCursor: "a'b$(id)",
    };
    const r = await cli({ [`GET /v1/analytics/${PROJECT}/searches`]: json(200, page) }, ['searches', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'query\thits\tCTR\ttop clicked page\tlast searched\nx\\x1b[2Jy\t10\t12.5%\t/p\\x9b31m\t2026-10-31T12:00:00.000Z\n',
    );
    expect(r.stderr).toBe(`Showing 1 terms, 10 searches in total; more: --cursor 'a'\\''b$(id)'\n`);
  });

  it('a cursor with an escape sequence is refused, not printed', async () => {
    const page = { searches: [term()], totalSearches: 10, nextCursor: `c${CLEAR}` };
    const r = await cli({ [`GET /v1/analytics/${PROJECT}/searches`]: json(200, page) }, ['searches', 'list']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'error: unexpected answer from the API while listing search terms: the API sent a cursor that is not plain printable text on the first page',
    );
    expectClean(r.stderr);
  });
});

describe('the admin key echoed by the server is masked everywhere', () => {
  it.each<[string, string[]]>([
    ['human output', []],
    ['--json', ['--json']],
  ])('agent get, %s', async (_n, flags) => {
    const r = await cli(
      {
        [`GET /v2/agent/${PROJECT}/job/job_1`]: json(
          200,
          agentJob({ prLink: `https://x/?k=${KEY}`, status: 'active' }),
        ),
      },
      ['agent', 'get', 'job_1', ...flags],
    );
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(r.stdout).toContain(`https://x/?k=${MASKED}`);
  });

  it('in an export job error and a server error message', async () => {
    const failed = await cli(
      { 'GET /v1/static-export/jobs/se_1': json(200, exportJob({ status: 'failed', error: `bad key ${KEY}` })) },
      ['export', 'status', 'se_1'],
    );
    expect(failed.stderr).toBe(
      `Static export: the jobs flow (the job id looks like a jobs-flow id)\nThe export failed: bad key ${MASKED}\n`,
    );
    const refused = await cli({ [`GET /v2/agent/${PROJECT}/job/job_1`]: json(400, { error: `key ${KEY} is wrong` }) }, [
      'agent',
      'get',
      'job_1',
    ]);
    expect(refused.stderr).toBe(`error: the API rejected the request (400: key ${MASKED} is wrong)\n`);
  });

  it('in the export bundle link', async () => {
    const bundle = {
      jobId: 'se_1',
      bundleUrl: `https://storage.example/${KEY}.tar.gz`,
      sizeBytes: 1000,
      expiresAt: '2099-01-01T00:00:00.000Z',
    };
    const r = await cli({ 'POST /v1/static-export/jobs/se_1/bundle': json(200, bundle) }, ['export', 'bundle', 'se_1']);
    expect(r.stdout).toBe(`https://storage.example/${MASKED}.tar.gz\n`);
  });
});

describe('ids from the server that are not plain tokens are refused, never printed into a command', () => {
  const evil = ['job 1; rm -rf ~', '$(touch pwned)', "a'b", `j${CLEAR}`, '..', 'a/b'];

  it.each(evil)('agent run answering id %j: exit 1, no hint, no further request', async (id) => {
    const r = await cli(
      { [`POST /v2/agent/${PROJECT}/job`]: json(201, agentJob({ id, status: 'active', prLink: null })) },
      ['agent', 'run', 'Fix', 'typos', '--wait'],
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: unexpected answer from the API: the agent job id ${JSON.stringify(id)} is not a plain token (letters, digits, ".", "_", "-"), so it is not used in a URL or printed into a command; the job was created: follow it in the Mintlify dashboard and the repository's pull requests\n`,
    );
    expect(r.requests).toHaveLength(1);
  });

  it.each(evil)('agent get answering id %j: exit 1, no hint', async (id) => {
    const r = await cli(
      { [`GET /v2/agent/${PROJECT}/job/job_1`]: json(200, agentJob({ id, status: 'active', prLink: null })) },
      ['agent', 'get', 'job_1'],
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: unexpected answer from the API: the agent job id .* is not a plain token/);
    expect(r.stderr).not.toContain('mint-admin agent get');
  });

  it.each(evil)('export start answering id %j: exit 1, no hint, no poll', async (id) => {
    const r = await cli({ 'POST /v1/static-export/jobs': json(201, exportJob({ jobId: id, status: 'queued' })) }, [
      'export',
      'start',
      'docs.example.com',
      '--wait',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: unexpected answer from the API: the export job id .* is not a plain token .*; the export was started: see it in the Mintlify dashboard\n$/,
    );
    expect(r.requests).toHaveLength(1);
  });
});

describe('ids that would change the URL path: exit 2, nothing sent', () => {
  const commands: Array<[string, (id: string) => string[]]> = [
    ['agent get', (id) => ['agent', 'get', id]],
    ['agent message', (id) => ['agent', 'message', id, 'Also', 'this']],
    ['export status', (id) => ['export', 'status', id]],
    ['export bundle', (id) => ['export', 'bundle', id]],
    ['export download', (id) => ['export', 'download', id, '-o', 'site']],
  ];
  const ids = ['.', '..', 'a/b', 'a\\b', 'a\x1bb', ''];
  it.each(commands.flatMap(([name, args]) => ids.map((id) => [name, id, args] as const)))(
    '%s %j',
    async (_name, id, args) => {
      const r = await cli({}, args(id));
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toMatch(
        /^error: (the (export )?job id is empty|".*" is not an? (export )?job id \(no "\/", "\\", spaces or control characters, and not "\." or "\.\."\))/,
      );
      expectClean(r.stderr);
      expect(r.requests).toHaveLength(0);
    },
  );
});
