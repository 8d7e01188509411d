// Shared set-up for the export end-to-end tests: one in-process sandbox per file, a private config
// directory per test, and the built CLI pointed at both.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions, type RecordedRequest } from '../../src/sandbox/index.js';
import { runCli, tempDir, type CliOptions, type CliResult } from '../helpers/cli.js';
import { call } from '../sandbox/helpers.js';

export const JOB_ID = /^se_[0-9a-f]{16}$/;
export const PROJECT_JOB_ID = /^[0-9a-f]{24}$/;

/** The one stderr line that says which static export flow answered, and why. */
export const FLOW_LINES = {
  jobsByDomain: 'Static export: the jobs flow (a domain was given)',
  jobsById: 'Static export: the jobs flow (the job id looks like a jobs-flow id)',
  projectNoDomain: 'Static export: the project flow (no domain given)',
  projectById: 'Static export: the project flow (the job id looks like a project-flow id)',
  remembered: (flow: string, id: string) => `Static export: the ${flow} flow (job ${id} is remembered there)`,
};

export function useExportSandbox(opts: SandboxOptions = {}) {
  const state = {} as { sandbox: Sandbox; home: ReturnType<typeof tempDir> };
  beforeAll(async () => {
    state.sandbox = await startSandbox(opts);
  });
  afterAll(async () => state.sandbox.close());
  beforeEach(() => {
    state.home = tempDir();
  });
  afterEach(() => {
    state.sandbox.faults.reset();
    state.sandbox.setBundleArchive(null);
    state.home.cleanup();
  });

  const env = () => ({
    MINTLIFY_API_URL: state.sandbox.baseUrl,
    MINTLIFY_ADMIN_API_KEY: state.sandbox.apiKey,
    HOME: state.home.path,
    XDG_CONFIG_HOME: join(state.home.path, 'xdg'),
    // Any cache the CLI writes beside the config, so the tests that check nothing
    // else appears in HOME still see only the directories they expect.
    XDG_CACHE_HOME: join(state.home.path, 'xdg', 'cache'),
  });
  return {
    get sandbox() {
      return state.sandbox;
    },
    /** An empty scratch directory for this test (removed after it), apart from HOME and the config. */
    get dir() {
      const work = join(state.home.path, 'work');
      mkdirSync(work, { recursive: true });
      return work;
    },
    cli: (args: string[], extra: CliOptions = {}): Promise<CliResult> =>
      runCli(args, { ...extra, env: { ...env(), ...extra.env } }),
    /** Requests recorded from now on: call, then read `.list` after the CLI ran. */
    watchRequests() {
      const from = state.sandbox.requests.length;
      return {
        get list(): RecordedRequest[] {
          return state.sandbox.requests.slice(from);
        },
      };
    },
    /** Starts an export straight against the sandbox (no CLI) and, unless told not to, polls it to completion. */
    async exportJob(domain = 'docs.example.com', complete = true): Promise<string> {
      const start = await call(state.sandbox, 'POST', '/v1/static-export/jobs', { domain });
      const jobId = start.body.jobId as string;
      for (let i = 0; complete && i < 50; i++) {
        const status = (await call(state.sandbox, 'GET', `/v1/static-export/jobs/${jobId}`)).body.status as string;
        if (status === 'completed' || status === 'failed') break;
      }
      return jobId;
    },
  };
}

/** Every presigned bundle link the sandbox handed out, as it appears in output. */
export function signedLinks(sandbox: Sandbox): string[] {
  return sandbox.requests
    .filter((r) => r.origin === 'storage')
    .map((r) => r.path.split('?')[1] ?? '')
    .filter(Boolean);
}
