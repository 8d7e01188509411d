// V8 takes a code cache only under the flags it was made with (src/tuning/v8-flags.ts). The API commands set
// flags of their own (the WebAssembly baseline tier for undici; a small young generation during a
// download, a tight old generation during export verify), and while one was set mid-run every run of them compiled the program again and rewrote
// its cache at exit. Here the second run of each must use the cache the first made, as it is.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({ bundle: { files: 30, bytesPerFile: 2000 } });

/** The cache files under `cacheHome`, with what tells a rewrite: inode and mtime. */
function theCaches(cacheHome: string): Array<{ name: string; version: [number, number] }> {
  const dir = join(cacheHome, 'mint-admin');
  return readdirSync(dir)
    .filter((n) => n.endsWith('.v8cache'))
    .sort()
    .map((name) => {
      const info = statSync(join(dir, name));
      return { name, version: [info.ino, info.mtimeMs] };
    });
}

/** The program's cache, and that of undici's chunk when the command sent a request (it loads with the first). */
function theCache(cacheHome: string, sends: boolean): Array<{ name: string; version: [number, number] }> {
  const caches = theCaches(cacheHome);
  expect(caches.map((c) => c.name.replace(/-[0-9a-f]{16}-[a-z-]+-v[\d.]+-\w+\.v8cache$/, ''))).toEqual(sends ? ['program', 'vendor-undici'] : ['program']);
  return caches;
}

async function completedExport(): Promise<string> {
  t.sandbox.faults.exportPollsToFinish = 0;
  const { jobId } = await t.api<{ jobId: string }>('POST', '/v1/static-export/jobs', { domain: 'docs.example.com' });
  await t.api('GET', `/v1/static-export/jobs/${jobId}`);
  return jobId;
}

/** A site of one page with nothing to find. */
function cleanSite(root: string): string {
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'index.html'), '<a href="/">home</a>');
  return root;
}

describe('the code cache of the API commands', () => {
  it.each<[string, (run: number, dir: string) => Promise<string[]>]>([
    ['export status', async () => ['export', 'status', await completedExport()]],
    ['export download (which also keeps the young generation small)', async (run, dir) => ['export', 'download', await completedExport(), '-o', join(dir, `site-${run}`)]],
    ['searches list', async () => ['searches', 'list', '--limit', '1']],
    ['export verify (which keeps the old generation tight)', async (run, dir) => ['export', 'verify', cleanSite(join(dir, `site-${run}`))]],
  ])('%s: the second run uses the caches the first made, unchanged', async (name, argsOf) => {
    const dir = tempDir();
    try {
      const env = { XDG_CACHE_HOME: join(dir.path, 'cache') };
      const first = await t.cli(await argsOf(1, dir.path), { env, subprocess: true });
      expect(first.code, first.stderr).toBe(0);
      // export verify reads a local site: no request, so no undici.
      const sends = !name.startsWith('export verify');
      const made = theCache(env.XDG_CACHE_HOME, sends);
      const second = await t.cli(await argsOf(2, dir.path), { env, subprocess: true });
      expect(second.code, second.stderr).toBe(0);
      // Rejected by V8, the cache would be made again and renamed over this one.
      expect(theCache(env.XDG_CACHE_HOME, sends)).toEqual(made);
    } finally {
      dir.cleanup();
    }
  });
});
