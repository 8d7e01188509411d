// One sandbox per test file, the way most end-to-end files want it: started before the file's tests,
// its faults and request log cleared before each test, closed after; a temp HOME for the CLI; the
// environment that points the built CLI at it; and a way to call its API directly to set a test up.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
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

/**
 * `homePerTest`: a fresh temp HOME (and config directory) for every test, for files whose cases must
 * not see each other's config, code cache or leftovers.
 */
export function useSandbox(opts: SandboxOptions = {}, fixture: { homePerTest?: boolean } = {}): SandboxFixture {
  let sandbox: Sandbox | undefined;
  let home: ReturnType<typeof tempDir> | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox(opts);
    if (!fixture.homePerTest) home = tempDir();
  });
  afterAll(async () => {
    await sandbox?.close();
    home?.cleanup();
  });
  beforeEach(() => {
    sandbox?.faults.reset();
    if (sandbox) sandbox.requests.length = 0;
    if (fixture.homePerTest) home = tempDir();
  });
  if (fixture.homePerTest) {
    afterEach(() => {
      home?.cleanup();
      home = undefined;
    });
  }
  const started = () => {
    if (!sandbox || !home) throw new Error('useSandbox(): the sandbox is used before beforeAll ran');
    return { sandbox, home: home.path };
  };
  const env = () => {
    const { sandbox: sb, home: dir } = started();
    return {
      MINTLIFY_API_URL: sb.baseUrl,
      MINTLIFY_ADMIN_API_KEY: sb.apiKey,
      MINTLIFY_PROJECT_ID: sb.projectId,
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'xdg'),
    };
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
    api: (method, path, body) => sandboxApi(started().sandbox, method, path, body),
  };
}

/** A call to the sandbox's API with its key, for a test to set up what a command then meets. */
export async function sandboxApi<T>(sb: Sandbox, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sb.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`sandbox ${method} ${path} answered ${res.status}`);
  return (await res.json()) as T;
}

/**
 * A sandbox and a config home of each test's own, for files whose cases run side by side
 * (describe.concurrent) or each need a sandbox started with options of their own: `const t = await
 * setup(opts)` in a test. All are closed when the file ends (onTestFinished cannot tell concurrent
 * tests apart).
 */
export function useSandboxPerTest(): (opts?: SandboxOptions) => Promise<SandboxFixture> {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
  });
  return async (opts = {}) => {
    const sandbox = await startSandbox(opts);
    const home = tempDir();
    cleanups.push(async () => {
      await sandbox.close();
      home.cleanup();
    });
    const env = () => ({
      MINTLIFY_API_URL: sandbox.baseUrl,
      MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
      MINTLIFY_PROJECT_ID: sandbox.projectId,
      HOME: home.path,
      XDG_CONFIG_HOME: join(home.path, 'xdg'),
    });
    return {
      sandbox,
      home: home.path,
      env,
      cli: (args, cliOpts = {}) => runCli(args, { ...cliOpts, env: { ...env(), ...cliOpts.env } }),
      api: (method, path, body) => sandboxApi(sandbox, method, path, body),
    };
  };
}
