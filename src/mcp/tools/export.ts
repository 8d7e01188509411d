// The static export: look at an export job, or run one end to end (start, wait, download, extract)
// into a directory under --root, through the engine `export run` and the library's exportStaticSite
// are faces over too (export-flows/run.ts): the same auto flow choice, guard and atomic install. Here
// only the root check and the progress notifications. The presigned bundle link is used, never shown.
import { basename, dirname } from 'node:path';
import type { AnyExportJob } from '../../api/types.js';
import { BASE_PATHS } from '../../api/types.js';
import { onJobFlow, type FlowSetup } from '../../export-flows/choose.js';
import { normaliseDomain } from '../../export-flows/domain.js';
import { flowApiFor, type StartInput } from '../../export-flows/flow-api.js';
import { memoryFlowStore } from '../../export-flows/flow-store.js';
import { MintAdminError, TargetRefusedError, UsageError } from '../../errors.js';
import { checkExactId } from '../../ids.js';
import type { Activity, Reporter } from '../../reporter.js';
import { sameTargetUnderRoot, targetUnderRoot } from '../root.js';
import type { ToolFailure } from '../errors.js';
import { z } from '../sdk.js';
import { defineTool, READ_ONLY, type ToolEnv } from '../tool.js';
import { holdWorkParent, type HeldDirectory } from '../work-parent.js';
import { DIRECTORY_CHARS, DOMAIN_CHARS, ID_CHARS } from './limits.js';
import { MAX_WAIT_SECONDS } from './wait.js';

/** The target's way changed after the export was started: refused, but not "nothing was sent". */
class InstallRefusedError extends MintAdminError {
  constructor(
    readonly jobId: string,
    message: string,
  ) {
    super(message);
  }
}

/** Which flow answered for a job, for the life of the server (the CLI keeps it in a file). */
const store = memoryFlowStore();
const EXPORT_POLL_MS = 2000;
/** How often the download re-checks the target's way: a few syscalls, against a window for writes outside. */
const RECHECK_MS = 100;

async function flowSetup(env: ToolEnv): Promise<FlowSetup> {
  const api = await env.api();
  // The project flow needs the project id; the jobs flow does not, so its absence is not an error yet.
  const projectId = await env.projectId().catch(() => undefined);
  const call = { signal: env.signal };
  return {
    setting: await env.exportApi(),
    baseUrl: await env.baseUrl(),
    projectId,
    store,
    api: async (flow) => flowApiFor(api, flow, projectId, call),
  };
}

/** A job without its bundle link: the link is a bearer credential for the archive. */
function jobSummary(job: AnyExportJob, flow: string): Record<string, unknown> {
  return {
    jobId: job.jobId,
    flow,
    status: job.status,
    progress: 'progress' in job && typeof job.progress === 'number' ? job.progress : null,
    pageCount: 'pageCount' in job && typeof job.pageCount === 'number' ? job.pageCount : null,
    error: job.error ?? null,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}

export const exportStatus = defineTool({
  name: 'export_status',
  title: 'Static export status',
  description:
    'Look at a static export job: queued, running, completed or failed, its progress and page count. The download link is never shown; export_run downloads a site.',
  input: { jobId: z.string().max(ID_CHARS).describe('the export job id') },
  annotations: READ_ONLY,
  async run(args, env) {
    const jobId = checkExactId('export job id', args.jobId, 'give the jobId of an export');
    const { api, value } = await onJobFlow(jobId, await flowSetup(env), (flow) => flow.get(jobId, env.signal));
    return jobSummary(value, api.flow);
  },
});

/** The download engine's reporter, silent: progress reaches the client as notifications instead. */
const silent: Reporter = {
  info: () => undefined,
  warn: () => undefined,
  live: false,
  activity: async (): Promise<Activity> => ({
    update: () => undefined,
    succeed: () => undefined,
    fail: () => undefined,
    stop: () => undefined,
  }),
};

export const exportRun = defineTool({
  name: 'export_run',
  group: 'export',
  title: 'Export the docs as a static site',
  description:
    'Export the docs as a static site and install it into a directory below the server\'s root: start the export, wait for it, download and extract it (an existing non-empty directory is replaced only with force). With a domain the jobs flow exports that deployment; without one the project flow exports the project (basePath: "", "/docs" or "/documentation"). Sends progress notifications; cancelling stops it and leaves the directory as it was.',
  input: {
    directory: z
      .string()
      .max(DIRECTORY_CHARS)
      .describe('where to install the site, relative to the server\'s root (e.g. "site")'),
    domain: z.string().max(DOMAIN_CHARS).optional().describe('the deployment\'s domain, e.g. "docs.example.com"'),
    basePath: z.enum(BASE_PATHS).optional().describe('project flow only: the path the site is served under'),
    force: z.boolean().default(false).describe('replace the directory when it is not empty'),
    timeoutSeconds: z
      .number()
      .int()
      .min(10)
      .max(MAX_WAIT_SECONDS)
      .default(MAX_WAIT_SECONDS)
      .describe('give up waiting for the export after this long'),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run(args, env) {
    // Everything is checked before the export is started (the engine checks the target itself).
    const target = await targetUnderRoot(env.root, args.directory);
    const input: StartInput = {};
    if (args.domain !== undefined) input.domain = normaliseDomain(args.domain, 'paths').hostname;
    if (args.basePath !== undefined) input.basePath = args.basePath;
    // The engine (the download, and undici under it) is loaded by the call that needs it, not at the server's start.
    const { runStaticExport } = await import('../../export-flows/run.js');
    let started: string | undefined;
    // A promise, so two re-checks that overlap share one handle instead of opening two.
    let held: Promise<HeldDirectory | undefined> | undefined;
    const recheckTarget = async () => {
      // Held from the first re-check, before the download makes its work directory there.
      await (held ??= holdWorkParent(dirname(target), basename(target)));
      try {
        await sameTargetUnderRoot(env.root, args.directory, target);
      } catch (error) {
        // After the start: saying "nothing was sent" would have the agent start another export.
        if (started !== undefined && error instanceof UsageError) throw new InstallRefusedError(started, error.message);
        throw error;
      }
    };
    // Checked again during the download too (at most every RECHECK_MS): a swap then stops the writes at once.
    const refused = new AbortController();
    let lastCheck = 0;
    const recheckWhileDownloading = () => {
      const now = env.clock.now();
      if (refused.signal.aborted || now - lastCheck < RECHECK_MS) return;
      lastCheck = now;
      recheckTarget().catch((error: unknown) => refused.abort(error));
    };
    const result = await runStaticExport({
      flows: () => flowSetup(env),
      input,
      onStarted: (job, flow) => {
        started = job.jobId;
        env.progress(0, 100, `export ${job.jobId} started (${flow} flow)`);
      },
      wait: {
        intervalMs: EXPORT_POLL_MS,
        timeoutMs: args.timeoutSeconds * 1000,
        onJob: (look) =>
          env.progress(
            Math.min(90, 'progress' in look && typeof look.progress === 'number' ? look.progress * 0.9 : 0),
            100,
            `export ${look.jobId}: ${look.status}`,
          ),
      },
      // The wait may take minutes: a link swapped in on the way since is caught as the download begins and before the install.
      install: { target, force: args.force, cwd: env.root, recheckTarget },
      dispatcher: () => env.dispatcher(),
      clock: env.clock,
      random: env.random,
      signal: AbortSignal.any([env.signal, refused.signal]),
      reporter: silent,
      onProgress: (event) => {
        if (event.phase !== 'download' && event.phase !== 'extract') return;
        env.progress(95, 100, `${event.phase}: ${event.bytes} bytes`);
        recheckWhileDownloading();
      },
      debug: () => undefined,
    })
      .catch(async (error: unknown) => {
        // Writes into a way swapped since the last re-check fail before the next one looks: once the download has
        // begun (the first re-check took the hold), look once more, so the answer is the refusal and not a failure
        // the agent would retry with a second export.
        if (held !== undefined && !refused.signal.aborted && !env.signal.aborted)
          await recheckTarget().catch((swapped: unknown) => refused.abort(swapped));
        await (await held)?.sweep();
        throw refused.signal.aborted ? refused.signal.reason : error;
      })
      .finally(async () => (await held)?.close());
    const { job } = result;
    env.progress(100, 100, `installed ${result.files} files`);
    return {
      jobId: job.jobId,
      flow: result.flow,
      directory: args.directory,
      files: result.files,
      bytes: result.bytes,
      pages: 'pageCount' in job && typeof job.pageCount === 'number' ? job.pageCount : null,
    };
  },
  explain(error): ToolFailure | undefined {
    // The engine's words name no flag or argument ("allow replacing"): an agent acts on an argument's name.
    if (error instanceof TargetRefusedError && error.reason === 'not-empty') {
      return {
        message: `${error.target} is not empty; call export_run again with force: true to replace its contents, or choose another directory`,
        next: 'nothing was sent; force: true deletes what the directory holds now, so ask the user before using it',
      };
    }
    if (!(error instanceof InstallRefusedError)) return undefined;
    return {
      message: `export ${error.jobId} was started and completed, but nothing was installed: ${error.message}`,
      next: `tell the user, and do not call export_run again until the directory's way under --root is as it should be: each call starts a new export (10 an hour). This export stays on the server: export_status shows it, and \`mint-admin export download ${error.jobId} -o <dir>\` installs it`,
    };
  },
});
