import type { Command } from 'commander';
import { BASE_PATHS, type AnyExportJob, type BasePath } from '../../../api/types.js';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { UsageError } from '../../../errors.js';
import type { Reporter } from '../../../reporter.js';
import { addWaitOptions, parseWaitFlags, type WaitFlags, type WaitSettings } from '../../wait-flags.js';
import { normaliseDomain } from '../../../export-flows/domain.js';
import { waitCommand } from './api.js';
import { startOnFlow, type StartInput } from './flow.js';
import { addFlowOption, hintNext, jobState } from './output.js';
import { printStarted } from '../../started.js';

/** The flags `export start` and `export run` share. */
export interface StartFlags {
  exportVersion?: string;
  path?: string[];
  basePath?: string;
  exportApi?: string;
}

export interface ExportStartOptions {
  input: StartInput;
  wait: WaitSettings;
}

/**
 * Checks the optional domain, version, paths and base path, so a bad one fails before anything is sent.
 * A URL is reduced to its hostname, and the user is told. Which of them is sent depends on the flow.
 */
export function buildStartInput(domain: string | undefined, flags: StartFlags, reporter: Reporter): StartInput {
  const input: StartInput = {};
  let note: string | undefined;
  if (domain !== undefined) {
    const normalised = normaliseDomain(domain);
    input.domain = normalised.hostname;
    note = normalised.note;
  }
  if (flags.exportVersion !== undefined) {
    if (flags.exportVersion.trim() === '')
      throw new UsageError('--export-version: give a version label, e.g. --export-version 2024-06-01');
    input.version = flags.exportVersion;
  }
  if (flags.path !== undefined) {
    if (flags.path.some((p) => p.trim() === ''))
      throw new UsageError('--path: page paths must not be empty, e.g. --path index guides/getting-started');
    input.paths = flags.path;
  }
  if (flags.basePath !== undefined) input.basePath = checkBasePath(flags.basePath);
  if (note) reporter.info(`note: ${note}`);
  return input;
}

function checkBasePath(given: string): BasePath {
  // "/docs/" and "docs" mean /docs; the API takes exactly one of three values.
  const trimmed = given.trim().replace(/\/+$/, '');
  const value = trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  if ((BASE_PATHS as readonly string[]).includes(value)) return value as BasePath;
  throw new UsageError(
    `--base-path: "${given}" is not one the API accepts; use '' (the site's root), /docs or /documentation`,
  );
}

/** Starts the job; with --wait, follows it to `completed` (a failure throws, exit 4). */
export async function exportStart(opts: ExportStartOptions, ctx: Context): Promise<AnyExportJob> {
  const { api, job } = await startOnFlow(opts.input, ctx);
  if (!opts.wait.wait) return job;
  // The wait loop pulls in the HTTP layer (undici): loaded only when a command really waits.
  const { followExport } = await import('./follow.js');
  ctx.reporter.info(`Started export ${job.jobId}`);
  const resume = waitCommand(job.jobId, ctx.globals);
  return followExport(
    { jobId: job.jobId, fetch: api.get, intervalMs: opts.wait.intervalMs, timeoutMs: opts.wait.timeoutMs, resume },
    ctx,
  );
}

/** The flags of the start, shared by `export start` and `export run`. */
export function addStartOptions(command: Command): Command {
  return command
    .argument(
      '[domain]',
      'the deployment hostname, e.g. docs.example.com (a URL of the site is reduced to its hostname); omit it for the project-scoped flow',
    )
    .option(
      '--base-path <path>',
      "base path the export is built for: '', /docs or /documentation (project-scoped flow only)",
    )
    .option(
      '--export-version <label>',
      'version label to export (default: the latest published version; jobs flow only)',
    )
    .option('--path <path...>', 'only these page paths, e.g. index guides/getting-started (jobs flow only)');
}

export function register(group: Command, deps: Deps): void {
  const command = addStartOptions(
    group.command('start').description('start a static export of a deployment (Enterprise plan)'),
  );
  addWaitOptions(addFlowOption(command), 'the export completes or fails').action(
    action<StartFlags & WaitFlags>(deps, async ([domain], flags, ctx) => {
      const wait = parseWaitFlags(flags);
      const input = buildStartInput(domain, flags, ctx.reporter);
      const job = await exportStart({ input, wait }, ctx);
      if (ctx.mode.json) return printJson(ctx, job);
      const state = jobState(job, ctx.clock.now());
      printStarted(ctx, { id: job.jobId, readable: `${job.jobId}  ${state}`, status: `export ${job.jobId}: ${state}` });
      hintNext(job, ctx.reporter, ctx.globals);
    }),
  );
  examples(command, [
    'mint-admin export start --project 64f0c2a1b2c3 --base-path /docs',
    'mint-admin export start docs.example.com',
    'mint-admin export start docs.example.com --export-version 2024-06-01 --path index guides/getting-started',
    'mint-admin export start https://acme.mintlify.app/ --wait',
    'job=$(mint-admin export start docs.example.com) && mint-admin export status "$job" --wait',
  ]);
}
