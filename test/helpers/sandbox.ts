// One sandbox per test file, the way most end-to-end files want it: started before the file's tests,
// its faults and request log cleared before each test, closed after; a temp HOME for the CLI; the
// environment that points the built CLI at it; and a way to call its API directly to set a test up.
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { runCli, tempDir, type CliOptions, type CliResult } from './cli.js';

export interface SandboxFixture {
  readonly sandbox: Sandbox;
  /** The temp HOME (its xdg/ is the CLI's config directory). */
  readonly home: string;
  /** The built CLI's environment: the sandbox's URL, key and project, and the temp HOME. */
  env(): Record<string, string | undefined>;
  /** The built CLI against the sandbox; `opts.env` adds to (or unsets from) env(). */
  cli(args: string[], opts?: CliOptions): Promise<CliResult>;
  /** A JSON request to the sandbox's API with its key, for setting a test up; the parsed answer. */
  api<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
}

export function useSandbox(opts: SandboxOptions = {}): SandboxFixture {
  let sandbox: Sandbox | undefined;
  let home: ReturnType<typeof tempDir> | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox(opts);
    home = tempDir();
  });
  afterAll(async () => {
    await sandbox?.close();
    home?.cleanup();
  });
  beforeEach(() => {
    sandbox?.faults.reset();
    if (sandbox) sandbox.requests.length = 0;
  });
  const started = () => {
    if (!sandbox || !home) throw new Error('useSandbox(): the sandbox is used before beforeAll ran');
    return { sandbox, home: home.path };
  };
  const env = () => {
    const { sandbox: sb, home: dir } = started();
    return { MINTLIFY_API_URL: sb.baseUrl, MINTLIFY_ADMIN_API_KEY: sb.apiKey, MINTLIFY_PROJECT_ID: sb.projectId, HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg') };
  };
  return {
    get sandbox() {
      return started().sandbox;
    },
    get home() {
      return started().home;
    },
    env,
    cli: (args, cliOpts = {}) => runCli(args, { ...cliOpts, env: { ...env(), ...cliOpts.env } }),
    async api(method, path, body) {
      const sb = started().sandbox;
      const res = await fetch(`${sb.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`sandbox ${method} ${path} answered ${res.status}`);
      return (await res.json()) as never;
    },
  };
}
