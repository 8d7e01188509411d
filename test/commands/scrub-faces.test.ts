// The key and a base URL's credentials past the last face that printed them: the step summary a
// server's own statusId reaches, and `config get base-url`. In-process through runCli, against a
// loopback API that echoes the key back.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { json, startServer } from '../helpers/server.js';

const KEY = 'mint_scrubFacesKey0123456789';
let dir: string;
const cleanups: Array<() => unknown> = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mint-admin-scrub-'));
});
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  rmSync(dir, { recursive: true, force: true });
});
const baseEnv = () => ({ HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg') });

describe('--github-output', () => {
  it.each([
    ['as given', KEY],
    ['upper-cased', KEY.toUpperCase()],
  ])('a statusId that echoes the key (%s) reaches neither the outputs nor the step summary', async (_n, echoed) => {
    const api = await startServer({ 'POST /v1/project/update/p1': json(202, { statusId: echoed }) });
    cleanups.push(api.close);
    const output = join(dir, 'output');
    const summary = join(dir, 'summary');
    writeFileSync(output, '');
    writeFileSync(summary, '');
    const r = await runInProcess(['deploy', 'start', '--github-output'], {
      env: {
        ...baseEnv(),
        MINTLIFY_API_URL: api.url,
        MINTLIFY_ADMIN_API_KEY: KEY,
        MINTLIFY_PROJECT_ID: 'p1',
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
      },
    });
    expect(r.code, r.stderr).toBe(0);
    const written = readFileSync(output, 'utf8') + readFileSync(summary, 'utf8') + r.stdout + r.stderr;
    expect(readFileSync(summary, 'utf8')).toContain('Status id');
    expect(written.toLowerCase().replace(/\\/g, '')).not.toContain(KEY.toLowerCase());
    expect(readFileSync(summary, 'utf8')).toMatch(/mint\\?_\*\*\*\*6789/);
  });
});

describe('config get base-url', () => {
  it.each([
    ['a password', 'https://ci-bot:S3cretProxyPass@api.example.com', 'https://ci-bot:REDACTED@api.example.com/'],
    ['a token', 'https://api.example.com/?token=S3cretProxyPass', 'https://api.example.com/?token=REDACTED'],
  ])('with %s prints it redacted, as every other command shows it', async (_n, url, shown) => {
    for (const json of [false, true]) {
      const r = await runInProcess(['config', 'get', 'base-url', ...(json ? ['--json'] : [])], {
        env: { ...baseEnv(), MINTLIFY_API_URL: url },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toContain('S3cretProxyPass');
      expect(r.stdout).toContain(shown);
    }
  });
});
