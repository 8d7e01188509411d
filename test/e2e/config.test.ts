import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { noPython, PYTHON_SKIP_NOTE, runCliOnPty, screenText } from '../helpers/pty.js';

const KEY = 'mint_e2eSecretKey000111wxyz';
let home: ReturnType<typeof tempDir>;
let env: Record<string, string>;
const configFile = () => join(home.path, 'xdg', 'mint-admin', 'config.json');
const saved = () =>
  JSON.parse(readFileSync(configFile(), 'utf8')) as { profiles: Record<string, Record<string, string>> };

beforeEach(() => {
  home = tempDir();
  env = { HOME: home.path, XDG_CONFIG_HOME: join(home.path, 'xdg') };
});
afterEach(() => home.cleanup());

describe('config set api-key', () => {
  it('reads the key from stdin, stores it 0600 in a 0700 directory, and never echoes it', async () => {
    const r = await runCli(['config', 'set', 'api-key'], { env, stdin: `${KEY}\n` });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('saved api-key = mint_****wxyz in profile "default"\n');
    expect(saved().profiles.default!['api-key']).toBe(KEY);
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(statSync(join(home.path, 'xdg', 'mint-admin')).mode & 0o777).toBe(0o700);
  });

  it('accepts "-" for stdin and warns when the key comes from argv', async () => {
    expect((await runCli(['config', 'set', 'api-key', '-'], { env, stdin: KEY })).code).toBe(0);
    const fromArgv = await runCli(['config', 'set', 'api-key', KEY], { env });
    expect(fromArgv.code).toBe(0);
    expect(fromArgv.stderr).toMatch(/shell history/);
    expect(fromArgv.stderr).not.toContain(KEY);
  });

  it.each([
    ['an assistant key', 'mint_dsc_0123456789abcdef', 3, /assistant API key/],
    ['an index key', 'mint_us_0123456789abcdef', 3, /search index API key/],
    ['a malformed key', 'sk-live-123', 3, /should start with "mint_"/],
    ['an empty stdin', '', 2, /no key given on stdin/],
  ])('refuses %s with a one-line error, exit %i, and writes nothing', async (_n, stdin, code, message) => {
    const r = await runCli(['config', 'set', 'api-key'], { env, stdin });
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(home.path, 'xdg'))).toBe(false);
  });

  it('does not replace a good key with a bad one', async () => {
    await runCli(['config', 'set', 'api-key'], { env, stdin: KEY });
    expect((await runCli(['config', 'set', 'api-key'], { env, stdin: 'mint_dsc_nope' })).code).toBe(3);
    expect(saved().profiles.default!['api-key']).toBe(KEY);
  });
});

describe('config get, list, unset, path', () => {
  beforeEach(async () => {
    await runCli(['config', 'set', 'api-key'], { env, stdin: KEY });
    await runCli(['config', 'set', 'project-id', 'proj_default'], { env });
    await runCli(['--profile', 'staging', 'config', 'set', 'project-id', 'proj_staging'], { env });
  });

  it('gets the key masked and other values as they are', async () => {
    expect((await runCli(['config', 'get', 'api-key'], { env })).stdout).toBe('mint_****wxyz\n');
    expect((await runCli(['config', 'get', 'project-id'], { env })).stdout).toBe('proj_default\n');
    expect((await runCli(['config', 'get', 'base-url'], { env })).stdout).toBe('https://api.mintlify.com\n');
  });

  it('keeps profiles apart', async () => {
    expect((await runCli(['config', 'get', 'project-id', '--profile', 'staging'], { env })).stdout).toBe(
      'proj_staging\n',
    );
    expect(
      (await runCli(['config', 'get', 'project-id'], { env: { ...env, MINT_ADMIN_PROFILE: 'staging' } })).stdout,
    ).toBe('proj_staging\n');
    const missing = await runCli(['config', 'get', 'api-key', '--profile', 'staging'], { env });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe(
      'error: api-key is not set in profile "staging"; set it with `mint-admin config set api-key`\n',
    );
  });

  it('lists every setting with its source, the key masked', async () => {
    const r = await runCli(['config', 'list', '--json'], { env: { ...env, MINTLIFY_API_URL: 'http://127.0.0.1:1' } });
    expect(JSON.parse(r.stdout)).toEqual({
      profile: { value: 'default', source: 'default' },
      'api-key': { value: 'mint_****wxyz', source: 'config file' },
      'project-id': { value: 'proj_default', source: 'config file' },
      'base-url': { value: 'http://127.0.0.1:1', source: 'MINTLIFY_API_URL' },
      'export-api': { value: 'auto', source: 'default' },
    });
    const human = await runCli(['config', 'list', '-p', 'flagged'], { env });
    expect(human.stdout).toBe(
      [
        'profile     default                   default',
        'api-key     mint_****wxyz             config file',
        'project-id  flagged                   --project (overrides profile "default")',
        'base-url    https://api.mintlify.com  default',
        'export-api  auto                      default',
        '',
      ].join('\n'),
    );
    expect(human.stdout + human.stderr).not.toContain(KEY);
  });

  it('unsets a value, idempotently', async () => {
    expect((await runCli(['config', 'unset', 'project-id'], { env })).stderr).toBe(
      'removed project-id from profile "default"\n',
    );
    expect((await runCli(['config', 'unset', 'project-id'], { env })).stderr).toMatch(/was not set/);
    expect(saved().profiles.default).toEqual({ 'api-key': KEY });
    expect(saved().profiles.staging).toEqual({ 'project-id': 'proj_staging' });
  });

  it('sets, gets and unsets export-api; the environment and the flag beat the config file', async () => {
    const set = await runCli(['config', 'set', 'export-api', 'Project'], { env });
    expect(set.code).toBe(0);
    expect(set.stderr).toBe('saved export-api = project in profile "default"\n');
    expect(saved().profiles.default!['export-api']).toBe('project');
    expect((await runCli(['config', 'get', 'export-api', '--json'], { env })).stdout).toBe(
      '{\n  "key": "export-api",\n  "value": "project",\n  "source": "config file"\n}\n',
    );
    const fromEnv = await runCli(['config', 'list', '--json'], { env: { ...env, MINT_ADMIN_EXPORT_API: 'jobs' } });
    expect(JSON.parse(fromEnv.stdout)['export-api']).toEqual({
      value: 'jobs',
      source: 'MINT_ADMIN_EXPORT_API (overrides profile "default")',
    });
    expect((await runCli(['config', 'unset', 'export-api'], { env })).stderr).toBe(
      'removed export-api from profile "default"\n',
    );
    expect((await runCli(['config', 'get', 'export-api'], { env })).stdout).toBe('auto\n');
  });

  it('says when the environment or a flag overrides a value the profile holds', async () => {
    const r = await runCli(['config', 'list', '--json', '--base-url', 'http://127.0.0.1:2'], {
      env: { ...env, MINTLIFY_PROJECT_ID: 'proj_env', MINTLIFY_API_URL: 'http://127.0.0.1:1' },
    });
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.stdout) as Record<string, { value: string; source: string }>;
    expect(listed['project-id']).toEqual({
      value: 'proj_env',
      source: 'MINTLIFY_PROJECT_ID (overrides profile "default")',
    });
    // Nothing in the profile to override: the source is the plain name.
    expect(listed['base-url']).toEqual({
      value: 'http://127.0.0.1:2',
      source: '--base-url (overrides MINTLIFY_API_URL)',
    });
    const human = await runCli(['--profile', 'staging', 'config', 'list', '-p', 'proj_flag'], {
      env: { ...env, MINTLIFY_PROJECT_ID: 'proj_env' },
    });
    expect(human.stdout.split('\n')[2]).toBe(
      'project-id  proj_flag                 --project (overrides MINTLIFY_PROJECT_ID, profile "staging")',
    );
  });

  it.each([
    ['config list', ['--profile', 'stagign', 'config', 'list'], {}],
    ['config get', ['config', 'get', 'project-id'], { MINT_ADMIN_PROFILE: 'stagign' }],
    ['config unset', ['--profile', 'stagign', 'config', 'unset', 'project-id'], {}],
    [
      'a command that calls the API',
      ['--profile', 'stagign', 'agent', 'get', 'job_1'],
      { MINTLIFY_API_URL: 'http://127.0.0.1:1' },
    ],
  ])('%s with a profile the config file does not have: exit 2, naming the profiles it has', async (_n, args, extra) => {
    const r = await runCli(args, { env: { ...env, ...extra } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: no profile "stagign" in ${configFile()}; its profiles are default, staging (\`mint-admin --profile stagign config set <key> <value>\` creates it)\n`,
    );
    expect(r.stdout).toBe('');
  });

  it('config set with a new profile still creates it, and "default" needs no file', async () => {
    const r = await runCli(['--profile', 'prod', 'config', 'set', 'project-id', 'proj_prod'], { env });
    expect(r.code).toBe(0);
    expect(saved().profiles.prod).toEqual({ 'project-id': 'proj_prod' });
    expect((await runCli(['--profile', 'prod', 'config', 'get', 'project-id'], { env })).stdout).toBe('proj_prod\n');
    const bare = tempDir();
    try {
      const noFile = await runCli(['--profile', 'default', 'config', 'list', '--json'], {
        env: { HOME: bare.path, XDG_CONFIG_HOME: join(bare.path, 'xdg') },
      });
      expect(noFile.code).toBe(0);
    } finally {
      bare.cleanup();
    }
  });

  it('prints the config path', async () => {
    expect((await runCli(['config', 'path'], { env })).stdout).toBe(`${configFile()}\n`);
  });
});

describe('bad input', () => {
  it.each([
    [
      'an unknown config key',
      ['config', 'set', 'colour', 'x'],
      2,
      "error: command-argument value 'colour' is invalid for argument 'key'. Allowed choices are api-key, project-id, base-url, export-api.",
    ],
    [
      'an export flow that is not one',
      ['config', 'set', 'export-api', 'v2'],
      2,
      'error: export-api: "v2" is not a static export flow; use one of auto, jobs, project',
    ],
    [
      'a project id with a slash',
      ['config', 'set', 'project-id', 'a/b'],
      2,
      'error: project-id: "a/b" is not a project id (letters, digits, "-" and "_" only)',
    ],
    [
      'a base URL that is not one',
      ['config', 'set', 'base-url', 'api.mintlify.com'],
      2,
      'error: base-url: "api.mintlify.com" is not a URL; use e.g. https://api.mintlify.com',
    ],
    ['a missing value', ['config', 'set', 'project-id'], 2, 'error: config set project-id needs a value'],
    ['an unknown option', ['config', 'list', '--colour'], 2, "error: unknown option '--colour'"],
    [
      'a bad profile name',
      ['--profile', 'a b', 'config', 'set', 'project-id', 'p'],
      2,
      'error: invalid profile name "a b": use letters, digits, "-" and "_"',
    ],
  ])('%s: one line, exit %i, nothing written', async (_n, args, code, line) => {
    const r = await runCli(args, { env });
    expect(r.code).toBe(code);
    expect(r.stderr.split('\n')[0]).toBe(line);
    expect(existsSync(join(home.path, 'xdg'))).toBe(false);
  });
});

describe('a damaged config file', () => {
  it('is named in a one-line error with exit 3, and left as it was', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(home.path, 'xdg', 'mint-admin'), { recursive: true });
    writeFileSync(configFile(), '{"profiles": {');
    const r = await runCli(['config', 'list'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `error: the config file ${configFile()} is not valid JSON; fix it, or remove it and set your settings again\n`,
    );
    expect(readFileSync(configFile(), 'utf8')).toBe('{"profiles": {');
  });
});

describe.skipIf(noPython)(`the hidden prompt on a terminal${PYTHON_SKIP_NOTE}`, () => {
  it('reads the key typed at a hidden prompt and never echoes it', async () => {
    // A real pseudo-terminal; the key is typed once the prompt is up and the terminal's echo is off.
    const typed = 'mint_ptyTypedKey0000wxyz';
    const r = await runCliOnPty(['config', 'set', 'api-key'], {
      env,
      steps: [{ wait: 'input hidden\\): ', send: `${typed}\r`, echoOff: true }],
    });
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(0);
    expect(screenText(r.output)).toBe(
      'Admin API key (input hidden): \nsaved api-key = mint_****wxyz in profile "default"\n',
    );
    expect(r.output).not.toContain(typed);
    expect(saved().profiles.default!['api-key']).toBe(typed);
  });
});

// A base URL holding credentials is refused wherever it is given, with one message that shows the
// password as REDACTED: `config list` and `auth status` print settings, and an error repeats them.
describe('a base URL with credentials', () => {
  const WITH_CREDENTIALS = 'https://ci-bot:S3cretProxyPass@api.example.com';
  const refusal = (where: string) =>
    `error: ${where}: "https://ci-bot:REDACTED@api.example.com/" must be a plain origin with no credentials, query or fragment`;
  it.each([
    ['config set base-url', ['config', 'set', 'base-url', WITH_CREDENTIALS], {}, 'base-url'],
    ['config list --base-url', ['--base-url', WITH_CREDENTIALS, 'config', 'list'], {}, '--base-url'],
    [
      'config list --json with MINTLIFY_API_URL',
      ['config', 'list', '--json'],
      { MINTLIFY_API_URL: WITH_CREDENTIALS },
      'MINTLIFY_API_URL',
    ],
    [
      'auth status with MINTLIFY_API_URL',
      ['auth', 'status'],
      { MINTLIFY_API_URL: WITH_CREDENTIALS },
      'MINTLIFY_API_URL',
    ],
    [
      'auth status --json with MINTLIFY_API_URL',
      ['auth', 'status', '--json'],
      { MINTLIFY_API_URL: WITH_CREDENTIALS },
      'MINTLIFY_API_URL',
    ],
  ])('%s: exit 2, the password nowhere', async (_n, args, extra, where) => {
    const r = await runCli(args, {
      env: { ...env, MINTLIFY_ADMIN_API_KEY: KEY, MINTLIFY_PROJECT_ID: 'proj_1', ...extra },
    });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).not.toContain('S3cretProxyPass');
    expect(r.stderr.split('\n')[0]).toBe(refusal(where));
  });
});
