// Shared set-up for the export end-to-end tests: one in-process sandbox per file, a private config
// directory per test, and the built CLI pointed at both.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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

/**
 * An onSpawn that sends `signal` to a run downloading into `target` once the download is under way:
 * part of the site is on disk in the run's work directory (.<name>.mint-admin-*, beside the target),
 * which only bytes from the storage put there, as the run extracts while it downloads. Not a time
 * after the request, which a loaded machine stretches. A run that ends first is not signalled (how
 * it ended then fails the test); the ceiling only ends a run that hangs, with SIGTERM, which no test
 * that stops a download expects.
 */
export function signalMidDownload(target: string, signal: NodeJS.Signals): (child: ChildProcess) => void {
  return (child) => {
    const stop = () => {
      clearInterval(watch);
      clearTimeout(ceiling);
    };
    const watch = setInterval(() => {
      if (!partOfSiteOnDisk(target)) return;
      stop();
      child.kill(signal);
    }, 20);
    const ceiling = setTimeout(() => {
      stop();
      child.kill('SIGTERM');
    }, 20_000);
    child.on('close', stop);
  };
}

/**
 * Whether a work directory beside `target` holds anything two levels down: it is made with only
 * its lock and an empty directory to extract into, so a path deeper than that is the site arriving.
 */
function partOfSiteOnDisk(target: string): boolean {
  const parent = dirname(target);
  const prefix = `.${basename(target)}.mint-admin-`;
  try {
    return readdirSync(parent)
      .filter((name) => name.startsWith(prefix))
      .some((work) => readdirSync(join(parent, work), { recursive: true }).some((path) => path.includes('/')));
  } catch {
    return false; // the work directory went between two reads: look again
  }
}
