// `auth status`: what is in effect and where it comes from, and whether the API takes the key, by a
// call that spends no limited budget (an agent job GET of an id nobody was given).
import { describe, expect, it } from 'vitest';
import { json, startServer, type Handler } from '../helpers/server.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { join } from 'node:path';

const PROBE = '/job/000000000000000000000000';
const fx = useSandbox();

describe('auth status against the sandbox', () => {
  it('shows the settings with their sources, the key masked, and that the key is accepted, in one request', async () => {
    const { sandbox } = fx;
    const r = await fx.cli(['auth', 'status']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const masked = `mint_****${sandbox.apiKey.slice(-4)}`;
    expect(r.stdout.split('\n').slice(0, 5)).toEqual([
      'profile     default' + ' '.repeat(Math.max(0, sandbox.baseUrl.length - 'default'.length)) + '  default',
      `api-key     ${masked.padEnd(sandbox.baseUrl.length)}  MINTLIFY_ADMIN_API_KEY`,
      `project-id  ${sandbox.projectId.padEnd(sandbox.baseUrl.length)}  MINTLIFY_PROJECT_ID`,
      `base-url    ${sandbox.baseUrl}  MINTLIFY_API_URL`,
      '',
    ]);
    expect(r.stdout.split('\n').slice(5)).toEqual([
      `key accepted: GET /v2/agent/${sandbox.projectId}${PROBE} answered 404, so the API knows this key`,
      `the API said: Agent job ${PROBE.slice('/job/'.length)} not found`,
      'not proven:',
      '  - that the project id is right: a 404 for a job does not say whether the API has the project',
      '  - what the plan allows: static export, previews and automations answer 403 or 402 only when used',
      '  - how much of a rate limit is left (analytics: 100 requests per organization per hour, shared)',
      '',
    ]);
    expect(r.stdout + r.stderr).not.toContain(sandbox.apiKey);
    expect(sandbox.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      `GET /v2/agent/${sandbox.projectId}${PROBE}`,
    ]);
  });

  it('--json: one document with every setting and what the check proves', async () => {
    const { sandbox } = fx;
    const r = await fx.cli(['auth', 'status', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({
      profile: { value: 'default', source: 'default' },
      'api-key': { value: `mint_****${sandbox.apiKey.slice(-4)}`, source: 'MINTLIFY_ADMIN_API_KEY' },
      'project-id': { value: sandbox.projectId, source: 'MINTLIFY_PROJECT_ID' },
      'base-url': { value: sandbox.baseUrl, source: 'MINTLIFY_API_URL' },
      check: { request: `GET /v2/agent/${sandbox.projectId}${PROBE}`, status: 404, accepted: true },
    });
    const check = doc.check as { proves: string; notProven: string[] };
    expect(check.proves).toMatch(/key/);
    expect(check.notProven.length).toBeGreaterThanOrEqual(3);
    expect(r.stdout).not.toContain(sandbox.apiKey);
  });

  it('no key: says so, exit 3, nothing sent', async () => {
    const r = await fx.cli(['auth', 'status'], { env: { MINTLIFY_ADMIN_API_KEY: undefined } });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('api-key     (not set)');
    expect(r.stderr).toMatch(/^error: no API key: set MINTLIFY_ADMIN_API_KEY/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(fx.sandbox.requests).toEqual([]);
  });
});

describe('auth status against an API that refuses the key', () => {
  const KEY = 'mint_refusedKey0000000wxyz';
  const cases: Array<[string, number, Handler]> = [
    ['401', 401, json(401, { error: 'Invalid API key' })],
    ['403', 403, json(403, { error: 'Forbidden' })],
  ];
  it.each(cases)('%s: the report says refused, exit 3, the key masked everywhere', async (_n, status, handler) => {
    const server = await startServer({ [`GET /v2/agent/proj_1${PROBE}`]: handler });
    const home = tempDir();
    try {
      const r = await runCli(['auth', 'status'], {
        env: {
          MINTLIFY_API_URL: server.url,
          MINTLIFY_ADMIN_API_KEY: KEY,
          MINTLIFY_PROJECT_ID: 'proj_1',
          HOME: home.path,
          XDG_CONFIG_HOME: join(home.path, 'xdg'),
        },
      });
      expect(r.code).toBe(3);
      expect(r.stdout).toContain(`key refused: GET /v2/agent/proj_1${PROBE} answered ${status}`);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stdout + r.stderr).not.toContain(KEY);
      expect(r.stdout).toContain('mint_****wxyz');
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    } finally {
      await server.close();
      home.cleanup();
    }
  });

  // Any web server answers 404 to a path it lacks: only the API's own JSON error says the key got past
  // authentication.
  const notTheApi: Array<[string, Handler]> = [
    [
      'an HTML page',
      (_req, res) =>
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html><title>404 Not Found</title></html>'),
    ],
    ['plain text', (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found')],
    ['JSON of another shape', json(404, { message: 'Not Found', documentation_url: 'https://example.com' })],
  ];
  it.each(notTheApi)(
    'a base URL that answers 404 with %s: not checked, exit 1, never "accepted"',
    async (_n, handler) => {
      const server = await startServer({ [`GET /v2/agent/proj_1${PROBE}`]: handler });
      const home = tempDir();
      try {
        const env = {
          MINTLIFY_API_URL: server.url,
          MINTLIFY_ADMIN_API_KEY: KEY,
          MINTLIFY_PROJECT_ID: 'proj_1',
          HOME: home.path,
          XDG_CONFIG_HOME: join(home.path, 'xdg'),
        };
        const r = await runCli(['auth', 'status'], { env });
        expect(r.code).toBe(1);
        expect(r.stdout).not.toContain('key accepted');
        expect(r.stdout).toContain(
          `key not checked: GET /v2/agent/proj_1${PROBE} answered 404, but not with the API's JSON error`,
        );
        expect(r.stderr).toMatch(/^error: .*404.*check --base-url/);
        const j = await runCli(['auth', 'status', '--json'], { env });
        expect(j.code).toBe(1);
        expect(JSON.parse(j.stdout)).toMatchObject({ check: { status: 404, accepted: null, proves: null } });
      } finally {
        await server.close();
        home.cleanup();
      }
    },
  );

  it('an API nobody answers: exit 1, the settings still shown', async () => {
    const server = await startServer({});
    const url = server.url;
    await server.close();
    const home = tempDir();
    try {
      const r = await runCli(['auth', 'status', '--json'], {
        env: {
          MINTLIFY_API_URL: url,
          MINTLIFY_ADMIN_API_KEY: KEY,
          MINTLIFY_PROJECT_ID: 'proj_1',
          HOME: home.path,
          XDG_CONFIG_HOME: join(home.path, 'xdg'),
        },
      });
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({
        'base-url': { value: url },
        check: { accepted: null, status: null },
      });
      expect(r.stdout + r.stderr).not.toContain(KEY);
    } finally {
      home.cleanup();
    }
  }, 60_000);
});
