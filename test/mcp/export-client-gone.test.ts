// export_run when the client goes away mid-download, not by `notifications/cancelled` but by ending
// the session (its stdin closed) or stopping the server (SIGTERM, SIGINT): the server, the built CLI
// run by the SDK's client as an agent's client runs it, stops the download and removes its work
// directory before it exits, as a cancelled call does.
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { connect } from './helpers.js';

const fx = useSandbox();
const roots: Array<ReturnType<typeof tempDir>> = [];
afterEach(() => {
  for (const root of roots.splice(0)) root.cleanup();
});

/** Resolves once `check` holds, looking again on each turn of the event loop's timers. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('export_run when the client goes away mid-download', () => {
  it.each(['stdin closed', 'SIGTERM', 'SIGINT'] as const)(
    '%s: the server removes its work directory before it exits',
    async (how) => {
      const root = tempDir('mint-admin-mcp-gone-');
      roots.push(root);
      fx.sandbox.faults.exportPollsToFinish = 1;
      // An archive that does not come while the test runs: the download is in flight when the client goes.
      fx.sandbox.faults.inject({ route: 'storage.get', delayMs: 60_000 });
      const server = await connect(['--allow', 'export', '--root', root.path], fx.env());
      const exited = new Promise<void>((resolve) => (server.client.onclose = resolve));
      const call = server.client
        .callTool({ name: 'export_run', arguments: { directory: 'site', domain: 'docs.example.com' } }, undefined, {
          timeout: 120_000,
        })
        .catch((error: unknown) => error);
      const workDirs = () => readdirSync(root.path).filter((name) => name.startsWith('.site.mint-admin-'));
      await until(() => workDirs().length > 0 && fx.sandbox.requests.some((r) => r.origin === 'storage'));
      if (how === 'stdin closed') await server.close();
      else process.kill(server.pid()!, how);
      await exited;
      await call;
      expect(readdirSync(root.path)).toEqual([]);
      expect(server.stderr()).not.toContain(fx.sandbox.apiKey);
    },
  );
});
