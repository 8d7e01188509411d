// A base URL with a path (`https://api.mintlify.com/v1`) would send every request to a route that
// does not exist and blame the id in a 404: it is refused, exit 2, nothing sent, whichever source
// it comes from (flag, environment, config file), and by the library's AdminClient too.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminClient, UsageError } from '../../src/index.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/server.js';

const KEY = 'mint_e2eSecretKey000111wxyz';
let server: Awaited<ReturnType<typeof startServer>>;
let home: ReturnType<typeof tempDir>;
beforeAll(async () => {
  server = await startServer({});
});
afterAll(() => server.close());
beforeEach(() => {
  home = tempDir();
});
afterEach(() => home.cleanup());

const env = (extra: Record<string, string> = {}) => ({
  HOME: home.path,
  XDG_CONFIG_HOME: join(home.path, 'xdg'),
  MINTLIFY_ADMIN_API_KEY: KEY,
  MINTLIFY_PROJECT_ID: 'proj1',
  ...extra,
});

function configWith(baseUrl: string): void {
  const dir = join(home.path, 'xdg', 'mint-admin');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { 'base-url': baseUrl } } }), {
    mode: 0o600,
  });
}

describe('a base URL with a path', () => {
  it.each([
    ['--base-url', (url: string) => ({ args: ['--base-url', url], env: env() }), '--base-url'],
    ['MINTLIFY_API_URL', (url: string) => ({ args: [], env: env({ MINTLIFY_API_URL: url }) }), 'MINTLIFY_API_URL'],
    [
      'the config file',
      (url: string) => (configWith(url), { args: [], env: env() }),
      'base-url (config, profile "default")',
    ],
  ])('from %s: exit 2 naming the path, nothing sent', async (_n, given, _origin) => {
    const url = `${server.url}/v1`;
    for (const command of [
      ['export', 'status', 'se_1'],
      ['analytics', 'searches'],
      ['deploy', 'start'],
    ]) {
      const { args, env: e } = given(url);
      const before = server.requests.length;
      const r = await runCli([...command, ...args], { env: e });
      expect(r.stderr).toMatch(/^error: .*"http:\/\/127\.0\.0\.1:\d+\/v1" has a path \("\/v1"\)/);
      expect(r.stderr).toContain(`use the API's origin alone, e.g. ${server.url}`);
      expect(r.code, command.join(' ')).toBe(2);
      expect(server.requests.slice(before)).toEqual([]);
    }
  });

  it('config set base-url refuses it, and a trailing slash alone is still fine', async () => {
    const r = await runCli(['config', 'set', 'base-url', 'https://api.mintlify.com/v1'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: base-url: "https://api.mintlify.com/v1" has a path ("/v1"); use the API\'s origin alone, e.g. https://api.mintlify.com\n',
    );
    expect((await runCli(['config', 'set', 'base-url', 'https://api.example.com/'], { env: env() })).code).toBe(0);
  });

  it("the library's AdminClient refuses it with a UsageError", () => {
    expect(() => new AdminClient({ apiKey: KEY, baseUrl: 'https://api.mintlify.com/v1' })).toThrow(UsageError);
    expect(() => new AdminClient({ apiKey: KEY, baseUrl: 'https://api.mintlify.com/v1' })).toThrow(
      'baseUrl: "https://api.mintlify.com/v1" has a path ("/v1")',
    );
  });
});
