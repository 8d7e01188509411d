// A connection that fails names where it was going (origin and path), so a mistyped base URL or a
// proxy in the way shows in the error itself; never the key, nor a query or credentials.
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/server.js';

const KEY = 'mint_connectionKey000000wxyz';
const JOB = '0123456789abcdef01234567';

describe('a refused connection', () => {
  it('agent get: the error names the URL it tried, after the retries that say only what happened', async () => {
    const server = await startServer({});
    const url = server.url;
    await server.close();
    const home = tempDir();
    try {
      const r = await runCli(['agent', 'get', JOB], {
        env: {
          MINTLIFY_API_URL: url,
          MINTLIFY_ADMIN_API_KEY: KEY,
          MINTLIFY_PROJECT_ID: 'proj_1',
          HOME: home.path,
          XDG_CONFIG_HOME: `${home.path}/xdg`,
        },
      });
      expect(r.code).toBe(1);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines.at(-1)).toBe(
        `error: connection refused by the API; tried GET ${url}/v2/agent/proj_1/job/${JOB}; check your connection or proxy settings (HTTPS_PROXY, NO_PROXY)`,
      );
      expect(lines.slice(0, -1).every((line) => /^connection refused by the API; retrying/.test(line))).toBe(true);
      expect(r.stderr).not.toContain(KEY);
    } finally {
      home.cleanup();
    }
  });

  it('a list: the path without its query', async () => {
    const server = await startServer({});
    const url = server.url;
    await server.close();
    const home = tempDir();
    try {
      const r = await runCli(['searches', 'list', '--from', '2026-11-01'], {
        env: {
          MINTLIFY_API_URL: url,
          MINTLIFY_ADMIN_API_KEY: KEY,
          MINTLIFY_PROJECT_ID: 'proj_1',
          HOME: home.path,
          XDG_CONFIG_HOME: `${home.path}/xdg`,
        },
      });
      expect(r.code).toBe(1);
      const last = r.stderr.trimEnd().split('\n').at(-1)!;
      expect(
        last.startsWith(`error: connection refused by the API; tried GET ${url}/v1/analytics/proj_1/searches; `),
      ).toBe(true);
      expect(last).not.toContain('?');
    } finally {
      home.cleanup();
    }
  });
});
