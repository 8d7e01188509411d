// A config no one else can steer: the file and its directory must be ours, not links, and not
// writable by others (as ssh demands of its config); writes never follow a link, take a lock so
// concurrent `config set` lose nothing, and leave the file 0600.
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { CAN_CREATE_OTHER_USER, createOtherUser, OTHER_USER_SKIP_NOTE } from '../helpers/other-user.js';

const KEY = 'mint_trustSecretKey000wxyz';
let home: ReturnType<typeof tempDir>;
let env: Record<string, string>;
const dir = () => join(home.path, 'xdg', 'mint-admin');
const file = () => join(dir(), 'config.json');
const saved = () => JSON.parse(readFileSync(file(), 'utf8')) as { profiles: Record<string, Record<string, string>> };

beforeEach(() => {
  home = tempDir();
  env = { HOME: home.path, XDG_CONFIG_HOME: join(home.path, 'xdg') };
});
afterEach(() => home.cleanup());

describe('refusing a config others could steer', () => {
  it('refuses a config.json that is a symlink, for reads and writes, and writes nothing through it', async () => {
    mkdirSync(dir(), { recursive: true, mode: 0o700 });
    const elsewhere = join(home.path, 'elsewhere.json');
    writeFileSync(elsewhere, '{"profiles":{"default":{"base-url":"http://127.0.0.1:9"}}}');
    symlinkSync(elsewhere, file());
    const line = `error: the config file ${file()} is a symbolic link; mint-admin does not follow links for its config: replace it with a regular file (or remove it)\n`;
    for (const args of [
      ['config', 'list'],
      ['config', 'set', 'api-key'],
    ]) {
      const r = await runCli(args, { env, stdin: KEY });
      expect(r.code).toBe(3);
      expect(r.stderr).toBe(line);
    }
    expect(readFileSync(elsewhere, 'utf8')).toBe('{"profiles":{"default":{"base-url":"http://127.0.0.1:9"}}}');
    expect(lstatSync(file()).isSymbolicLink()).toBe(true);
  });

  it('refuses a config directory that is a symlink', async () => {
    mkdirSync(join(home.path, 'xdg'));
    mkdirSync(join(home.path, 'theirs'), { mode: 0o700 });
    writeFileSync(
      join(home.path, 'theirs', 'config.json'),
      '{"profiles":{"default":{"base-url":"http://127.0.0.1:9"}}}',
    );
    symlinkSync(join(home.path, 'theirs'), dir());
    const r = await runCli(['config', 'get', 'base-url'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `error: the config directory ${dir()} is a symbolic link; mint-admin does not follow links for its config: replace it with a real directory (mode 0700)\n`,
    );
  });

  it.each([
    ['a group-writable config file', 0o660, 'file'],
    ['a world-writable config file', 0o606, 'file'],
    ['a group-writable config directory', 0o770, 'directory'],
  ])('refuses %s, saying how to fix it', async (_n, mode, which) => {
    mkdirSync(dir(), { recursive: true, mode: 0o700 });
    writeFileSync(file(), '{"profiles":{}}', { mode: 0o600 });
    const path = which === 'file' ? file() : dir();
    chmodSync(path, mode);
    const r = await runCli(['config', 'list'], { env });
    expect(r.code).toBe(3);
    const fix = which === 'file' ? 'chmod 600' : 'chmod 700';
    expect(r.stderr).toBe(
      `error: the config ${which} ${path} is writable by others (mode 0${mode.toString(8)}); run \`${fix} ${path}\`\n`,
    );
  });
});

describe.skipIf(!CAN_CREATE_OTHER_USER)(`a config owned by another user${OTHER_USER_SKIP_NOTE}`, () => {
  let other: ReturnType<typeof createOtherUser>;
  beforeAll(() => {
    other = createOtherUser('mintadmin-cfg');
  });
  afterAll(() => other.remove());

  it('refuses a config file that belongs to someone else and leaves it as it was', async () => {
    mkdirSync(dir(), { recursive: true, mode: 0o700 });
    writeFileSync(file(), '{"profiles":{}}', { mode: 0o600 });
    chownSync(file(), other.uid, other.gid);
    const r = await runCli(['config', 'set', 'api-key'], { env, stdin: KEY });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `error: the config file ${file()} belongs to uid ${other.uid}, not to you (uid 0); remove it, or give it to yourself with chown\n`,
    );
    expect(readFileSync(file(), 'utf8')).toBe('{"profiles":{}}');
    expect(statSync(file()).uid).toBe(other.uid);
  });

  it('writes nothing into a file of someone else that config.json links to', async () => {
    const theirs = join(home.path, 'theirs.json');
    writeFileSync(theirs, '{"profiles":{}}', { mode: 0o600 });
    chownSync(theirs, other.uid, other.gid);
    mkdirSync(dir(), { recursive: true, mode: 0o700 });
    symlinkSync(theirs, file());
    expect((await runCli(['config', 'set', 'api-key'], { env, stdin: KEY })).code).toBe(3);
    expect(readFileSync(theirs, 'utf8')).toBe('{"profiles":{}}');
  });

  it('refuses a config directory that belongs to someone else', async () => {
    mkdirSync(dir(), { recursive: true, mode: 0o700 });
    writeFileSync(file(), '{"profiles":{"default":{"base-url":"http://127.0.0.1:9"}}}', { mode: 0o600 });
    chownSync(dir(), other.uid, other.gid);
    const r = await runCli(['config', 'list'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `error: the config directory ${dir()} belongs to uid ${other.uid}, not to you (uid 0); remove it, or give it to yourself with chown\n`,
    );
  });
});

describe('writes', () => {
  it('lose nothing when `config set` runs concurrently for different keys', async () => {
    for (let round = 0; round < 5; round++) {
      const results = await Promise.all([
        runCli(['config', 'set', 'project-id', `proj_${round}`], { env }),
        runCli(['config', 'set', 'base-url', `https://r${round}.example.com`], { env }),
        runCli(['--profile', 'other', 'config', 'set', 'project-id', `other_${round}`], { env }),
      ]);
      expect(results.map((r) => [r.code, r.stderr.includes('saved')])).toEqual([
        [0, true],
        [0, true],
        [0, true],
      ]);
      expect(saved().profiles).toEqual({
        default: { 'project-id': `proj_${round}`, 'base-url': `https://r${round}.example.com` },
        other: { 'project-id': `other_${round}` },
      });
    }
  });

  it('leave the file 0600 under SNAP too, even when it was 0644', async () => {
    mkdirSync(dir(), { recursive: true, mode: 0o700 });
    writeFileSync(file(), '{"profiles":{}}', { mode: 0o644 });
    chmodSync(file(), 0o644);
    const r = await runCli(['config', 'set', 'api-key'], {
      env: { ...env, SNAP: '/snap/mint-admin/1', SNAP_USER_DATA: home.path },
      stdin: KEY,
    });
    expect(r.code).toBe(0);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(saved().profiles.default).toEqual({ 'api-key': KEY });
  });
});
