// The program bundle's V8 code cache (src/tuning/code-cache.ts) is code the CLI runs, so it is used only
// from a directory and a file that are ours and that no one else can write; anything else is ignored,
// and a corrupt cache only costs the speed-up. Each case runs the built CLI as a user would.
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { CAN_CREATE_OTHER_USER, createOtherUser, OTHER_USER_SKIP_NOTE } from './helpers/other-user.js';

let dir: { path: string; cleanup: () => void };
let cacheHome: string;
let cacheDir: string;
beforeEach(() => {
  dir = tempDir();
  cacheHome = join(dir.path, 'cache');
  cacheDir = join(cacheHome, 'mint-admin');
});
afterEach(() => dir.cleanup());

/** `config path` with this cache home; its output must be right whatever the cache holds. */
async function run(): Promise<void> {
  const config = join(dir.path, 'config');
  const r = await runCli(['config', 'path'], { env: { XDG_CACHE_HOME: cacheHome, XDG_CONFIG_HOME: config }, subprocess: true });
  expect(r).toEqual({ code: 0, signal: null, stdout: `${join(config, 'mint-admin', 'config.json')}\n`, stderr: '' });
}

const cacheFiles = () => readdirSync(cacheDir).filter((n) => n.endsWith('.v8cache'));
function theCache(): string {
  const files = cacheFiles();
  expect(files).toHaveLength(1);
  return join(cacheDir, files[0]!);
}
const mode = (path: string) => statSync(path).mode & 0o777;

describe('code cache', () => {
  it('is written on the first run, to a 0700 directory and a 0600 file named for the build, command group, Node and arch; the next run uses it as is', async () => {
    await run();
    const file = theCache();
    expect(file).toMatch(new RegExp(`/program-[0-9a-f]{16}-config-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.v8cache$`));
    expect(mode(cacheDir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    const before = statSync(file);
    await run();
    const after = statSync(file);
    // Accepted by V8: not rewritten.
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(readdirSync(cacheDir)).toEqual([file.slice(cacheDir.length + 1)]); // no temp file left behind
  });

  it('a corrupt cache is ignored and replaced', async () => {
    await run();
    const file = theCache();
    const garbage = Buffer.alloc(statSync(file).size, 0x5a);
    writeFileSync(file, garbage);
    await run();
    expect(readFileSync(theCache()).equals(garbage)).toBe(false);
    expect(statSync(theCache()).size).toBeGreaterThan(0);
  });

  it('a cache file others can write to is not trusted: the run replaces it with its own', async () => {
    await run();
    const file = theCache();
    chmodSync(file, 0o666);
    const planted = statSync(file);
    await run();
    const now = statSync(theCache());
    expect(now.ino).not.toBe(planted.ino);
    expect(mode(theCache())).toBe(0o600);
  });

  it('a cache directory that is a symbolic link is neither read nor written', async () => {
    const elsewhere = join(dir.path, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    mkdirSync(cacheHome);
    symlinkSync(elsewhere, cacheDir);
    await run();
    await run();
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('a cache directory others can write to is neither read nor written', async () => {
    mkdirSync(cacheDir, { recursive: true });
    chmodSync(cacheDir, 0o777);
    await run();
    await run();
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it("another build's cache is removed when this build writes its own", async () => {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const old = `program-0000000000000000-config-${process.version}-${process.arch}.v8cache`;
    writeFileSync(join(cacheDir, old), 'old', { mode: 0o600 });
    await run();
    expect(cacheFiles()).toHaveLength(1);
    expect(cacheFiles()).not.toContain(old);
  });

  it('`mcp` also caches the MCP SDK chunk, in a file of its own that the program\'s cache leaves alone; the next run uses both as they are', async () => {
    const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const mcp = async () => {
      const r = await runCli(['mcp'], { env: { XDG_CACHE_HOME: cacheHome, XDG_CONFIG_HOME: join(dir.path, 'config') }, stdin: `${JSON.stringify(INIT)}\n`, subprocess: true });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).result.serverInfo.name).toBe('mint-admin');
    };
    await mcp();
    const files = cacheFiles().sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^program-[0-9a-f]{16}-mcp-/);
    expect(files[1]).toMatch(/^vendor-mcp-[0-9a-f]{16}-mcp-/);
    const before = files.map((f) => statSync(join(cacheDir, f)).mtimeMs);
    await mcp();
    expect(cacheFiles().sort().map((f) => statSync(join(cacheDir, f)).mtimeMs)).toEqual(before);
    // A run of another group writes the program's cache only, and removes neither of these.
    await run();
    expect(cacheFiles()).toHaveLength(3);
  });

  it('a cache that cannot be put in place (a directory stands at its name) leaves no temporary file behind', async () => {
    await run();
    const name = cacheFiles()[0]!;
    rmSync(join(cacheDir, name));
    mkdirSync(join(cacheDir, name), { mode: 0o700 });
    await run();
    await run();
    expect(readdirSync(cacheDir)).toEqual([name]);
  });

  it.skipIf(!CAN_CREATE_OTHER_USER)(`a cache file owned by another user is not trusted${OTHER_USER_SKIP_NOTE}`, async () => {
    const other = createOtherUser('mint-admin-cache-test');
    try {
      await run();
      const file = theCache();
      chownSync(file, other.uid, other.gid);
      const planted = statSync(file);
      await run();
      const now = statSync(theCache());
      expect(now.ino).not.toBe(planted.ino);
      expect(now.uid).toBe(process.getuid!());
    } finally {
      other.remove();
    }
  });
});
