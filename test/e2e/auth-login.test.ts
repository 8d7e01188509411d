// `auth login`: a key is saved only after the API accepted it, by the request `auth status` makes.
// The hidden prompt is typed on a real pseudo-terminal; --with-token is stdin, as with gh.
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, startServer } from '../helpers/server.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { noPython, PYTHON_SKIP_NOTE, runCliOnPty, screenText } from '../helpers/pty.js';

const PROBE = '/job/000000000000000000000000';
const fx = useSandbox({}, { homePerTest: true });

const configFile = () => join(fx.home, 'xdg', 'mint-admin', 'config.json');
const saved = () =>
  JSON.parse(readFileSync(configFile(), 'utf8')) as { profiles: Record<string, Record<string, string>> };
/** The sandbox's URL and project, a private HOME, and no key in the environment: login is how it gets one. */
const envWithoutKey = () => ({ ...fx.env(), MINTLIFY_ADMIN_API_KEY: undefined });

describe('auth login --with-token', () => {
  it('checks the key with the API (one request, the auth status probe), then saves it masked in what it says', async () => {
    const { sandbox } = fx;
    const r = await runCli(['auth', 'login', '--with-token'], { env: envWithoutKey(), stdin: `${sandbox.apiKey}\n` });
    expect(r.stderr).toBe(
      `the API accepted the key (GET /v2/agent/${sandbox.projectId}${PROBE} answered 404); saved api-key = mint_****${sandbox.apiKey.slice(-4)} in profile "default"\n`,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(saved().profiles.default!['api-key']).toBe(sandbox.apiKey);
    expect(sandbox.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      `GET /v2/agent/${sandbox.projectId}${PROBE}`,
    ]);
    // The saved key is the one later commands use.
    const status = await runCli(['auth', 'status'], { env: envWithoutKey() });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^api-key +mint_\\*{4}${sandbox.apiKey.slice(-4)} +config file$`, 'm'));
  });

  it('--json: the profile, the masked key and the check', async () => {
    const r = await runCli(['auth', 'login', '--with-token', '--json'], {
      env: envWithoutKey(),
      stdin: fx.sandbox.apiKey,
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      profile: 'default',
      'api-key': `mint_****${fx.sandbox.apiKey.slice(-4)}`,
      check: { status: 404, accepted: true },
    });
    expect(r.stdout + r.stderr).not.toContain(fx.sandbox.apiKey);
  });

  it('--profile makes the profile it logs in to', async () => {
    const r = await runCli(['--profile', 'staging', 'auth', 'login', '--with-token'], {
      env: envWithoutKey(),
      stdin: fx.sandbox.apiKey,
    });
    expect(r.code).toBe(0);
    expect(saved().profiles.staging!['api-key']).toBe(fx.sandbox.apiKey);
  });

  it('says when MINTLIFY_ADMIN_API_KEY will hide the saved key', async () => {
    const r = await runCli(['auth', 'login', '--with-token'], { env: fx.env(), stdin: fx.sandbox.apiKey });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/MINTLIFY_ADMIN_API_KEY is set and takes precedence over the saved key/);
  });

  it.each([
    ['an empty stdin', '', 2, /^error: no key given on stdin; nothing was saved/],
    ['an assistant key', 'mint_dsc_0123456789abcdef', 3, /assistant API key/],
  ])('%s: exit %i, nothing sent, nothing saved', async (_n, stdin, code, message) => {
    const r = await runCli(['auth', 'login', '--with-token'], { env: envWithoutKey(), stdin });
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(fx.sandbox.requests).toEqual([]);
    expect(existsSync(configFile())).toBe(false);
  });

  it('without --with-token and no terminal: exit 2 naming --with-token, nothing read', async () => {
    const r = await runCli(['auth', 'login'], { env: envWithoutKey(), stdin: fx.sandbox.apiKey });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*--with-token/);
    expect(existsSync(configFile())).toBe(false);
  });

  it('no project id: exit 2 before the key is read, saying how to set one', async () => {
    const r = await runCli(['auth', 'login', '--with-token'], {
      env: { ...envWithoutKey(), MINTLIFY_PROJECT_ID: undefined },
      stdin: fx.sandbox.apiKey,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config set project-id/);
    expect(fx.sandbox.requests).toEqual([]);
    expect(existsSync(configFile())).toBe(false);
  });
});

describe('auth login against an API that refuses the key', () => {
  const GOOD = 'mint_workingKey00000000abcd';
  const REFUSED = 'mint_refusedKey0000000wxyz';
  it.each([401, 403])('%i: exit 3, the config file byte for byte as it was, the key masked', async (status) => {
    const server = await startServer({ [`GET /v2/agent/proj_1${PROBE}`]: json(status, { error: 'Invalid API key' }) });
    const home = tempDir();
    try {
      const dir = join(home.path, 'xdg', 'mint-admin');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const before = JSON.stringify(
        { profiles: { default: { 'api-key': GOOD, 'project-id': 'proj_1' } } },
        undefined,
        '\t',
      );
      writeFileSync(join(dir, 'config.json'), before, { mode: 0o600 });
      const r = await runCli(['auth', 'login', '--with-token'], {
        env: { MINTLIFY_API_URL: server.url, HOME: home.path, XDG_CONFIG_HOME: join(home.path, 'xdg') },
        stdin: REFUSED,
      });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stdout + r.stderr).not.toContain(REFUSED);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${REFUSED}`);
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
    } finally {
      await server.close();
      home.cleanup();
    }
  });

  it('an API nobody answers: exit 1, nothing saved', async () => {
    const server = await startServer({});
    const url = server.url;
    await server.close();
    const home = tempDir();
    try {
      const r = await runCli(['auth', 'login', '--with-token'], {
        env: {
          MINTLIFY_API_URL: url,
          MINTLIFY_PROJECT_ID: 'proj_1',
          HOME: home.path,
          XDG_CONFIG_HOME: join(home.path, 'xdg'),
        },
        stdin: REFUSED,
      });
      expect(r.code).toBe(1);
      expect(existsSync(join(home.path, 'xdg'))).toBe(false);
    } finally {
      home.cleanup();
    }
  });
});

describe.skipIf(noPython)(`auth login's hidden prompt on a real terminal${PYTHON_SKIP_NOTE}`, () => {
  it('the key typed is never shown, and is saved once the API accepts it', async () => {
    const r = await runCliOnPty(['auth', 'login'], {
      env: envWithoutKey(),
      steps: [{ wait: 'input hidden\\): ', send: `${fx.sandbox.apiKey}\r`, echoOff: true }],
    });
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(0);
    expect(r.output).not.toContain(fx.sandbox.apiKey);
    expect(screenText(r.output)).toMatch(
      /^Admin API key \(input hidden\): \nthe API accepted the key .*saved api-key = mint_\*{4}\w{4} in profile "default"\n$/,
    );
    expect(saved().profiles.default!['api-key']).toBe(fx.sandbox.apiKey);
    expect(r.modes).toEqual({ echo: true, isig: true, icanon: true });
  });

  it('a refused key typed at the prompt: exit 3, nothing saved', async () => {
    const r = await runCliOnPty(['auth', 'login'], {
      env: envWithoutKey(),
      steps: [{ wait: 'input hidden\\): ', send: 'mint_notTheSandboxKey0000\r', echoOff: true }],
    });
    expect(r.code).toBe(3);
    expect(r.output).not.toContain('mint_notTheSandboxKey0000');
    expect(existsSync(configFile())).toBe(false);
  });
});
