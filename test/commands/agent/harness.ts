// A Context for driving the agent commands in-process: captured IO, a FakeClock (the client's retries
// and the poll loop never really sleep), a real API client pointed at a loopback server.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, type Context } from '../../../src/cli/context.js';
import type { GlobalOptions } from '../../../src/config/settings.js';
import type { AgentJob } from '../../../src/api/types.js';
import { FakeClock } from '../../helpers/clock.js';
import { captureIO } from '../../helpers/io.js';
import { tempDir } from '../../helpers/cli.js';

export const KEY = 'mint_unitTestKey0123456789';
export const PROJECT = 'proj_unit';

export function harness(
  baseUrl: string,
  opts: { globals?: GlobalOptions; env?: Record<string, string>; stdin?: string; tty?: boolean } = {},
) {
  const home = tempDir();
  const captured = captureIO({ stdin: opts.stdin, tty: opts.tty });
  const clock = new FakeClock();
  const controller = new AbortController();
  const env = {
    HOME: home.path,
    XDG_CONFIG_HOME: join(home.path, 'xdg'),
    MINTLIFY_API_URL: baseUrl,
    MINTLIFY_ADMIN_API_KEY: KEY,
    MINTLIFY_PROJECT_ID: PROJECT,
    ...opts.env,
  };
  // A --profile names a profile the config file holds (an unknown one is a usage error).
  const profile = opts.globals?.profile;
  if (profile) {
    mkdirSync(join(env.XDG_CONFIG_HOME, 'mint-admin'), { recursive: true, mode: 0o700 });
    writeFileSync(
      join(env.XDG_CONFIG_HOME, 'mint-admin', 'config.json'),
      JSON.stringify({ profiles: { [profile]: {} } }),
      { mode: 0o600 },
    );
  }
  const ctx: Context = createContext(
    { io: captured.io, env, clock, signal: controller.signal, random: () => 0.5 },
    opts.globals ?? {},
  );
  return {
    ctx,
    clock,
    controller,
    stdout: captured.stdout,
    stderr: captured.stderr,
    async cleanup() {
      await ctx.close();
      home.cleanup();
    },
  };
}

export function agentJob(overrides: Partial<AgentJob> = {}): AgentJob {
  return {
    id: 'job_1',
    status: 'active',
    source: { repository: 'https://github.com/acme/docs', ref: 'mint-agent/fix-typos' },
    model: 'sonnet',
    prLink: null,
    createdAt: '2026-11-22T12:00:00.000Z',
    archivedAt: null,
    ...overrides,
  };
}

/** Lets captured streams deliver what was written before the test reads them. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
