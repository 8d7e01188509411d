import type { Command } from 'commander';
import type { ExportJob, StartExportRequest } from '../../api/types.js';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { Reporter } from '../../io.js';
import { addWaitOptions, parseWaitFlags, type WaitFlags, type WaitSettings } from '../../wait-flags.js';
import { exportApi } from './api.js';
import { normaliseDomain } from './domain.js';
import { hintNext, jobLine } from './output.js';

/** The flags `export start` and `export run` share. */
export interface StartFlags {
  exportVersion?: string;
  path?: string[];
}

export interface ExportStartOptions {
  request: StartExportRequest;
  wait: WaitSettings;
}

/**
 * Checks the domain and the optional version and paths, so a bad one fails before anything is sent.
 * A URL is reduced to its hostname, and the user is told.
 */
export function buildStartRequest(domain: string, flags: StartFlags, reporter: Reporter): StartExportRequest {
  const { hostname, note } = normaliseDomain(domain);
  const request: StartExportRequest = { domain: hostname };
  if (flags.exportVersion !== undefined) {
    if (flags.exportVersion.trim() === '') throw new UsageError('--export-version: give a version label, e.g. --export-version 2024-06-01');
    request.version = flags.exportVersion;
  }
  if (flags.path !== undefined) {
    if (flags.path.some((p) => p.trim() === '')) throw new UsageError('--path: page paths must not be empty, e.g. --path index guides/getting-started');
    request.paths = flags.path;
  }
  if (note) reporter.info(`note: ${note}`);
  return request;
}

/** Starts the job; with --wait, follows it to `completed` (a failure throws, exit 4). */
export async function exportStart(opts: ExportStartOptions, ctx: Context): Promise<ExportJob> {
  const api = exportApi(await ctx.api());
  const job = await api.start(opts.request);
  if (!opts.wait.wait) return job;
  // The wait loop pulls in the HTTP layer (undici): loaded only when a command really waits.
  const { followExport } = await import('./follow.js');
  ctx.reporter.info(`Started export ${job.jobId}`);
  return followExport({ jobId: job.jobId, fetch: api.get, intervalMs: opts.wait.intervalMs, timeoutMs: opts.wait.timeoutMs }, ctx);
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('start')
    .description('start a static export of a deployment (Enterprise plan)')
    .argument('<domain>', 'the deployment hostname, e.g. docs.example.com (a URL of the site is reduced to its hostname)')
    .option('--export-version <label>', 'version label to export (default: the latest published version)')
    .option('--path <path...>', 'only these page paths, e.g. index guides/getting-started');
  addWaitOptions(command, 'the export completes or fails').action(
    action<StartFlags & WaitFlags>(deps, async ([domain], flags, ctx) => {
      const wait = parseWaitFlags(flags);
      const request = buildStartRequest(domain!, flags, ctx.reporter);
      const job = await exportStart({ request, wait }, ctx);
      if (ctx.mode.json) return printJson(ctx, job);
      ctx.print(jobLine(job));
      hintNext(job, ctx.reporter);
    }),
  );
  examples(command, [
    'mint-admin export start docs.example.com',
    'mint-admin export start docs.example.com --export-version 2024-06-01 --path index guides/getting-started',
    'mint-admin export start https://acme.mintlify.app/ --wait',
  ]);
}
