// `export download <jobId>`: a completed export's bundle into a directory, waiting for the job first
// with --wait. The target flags it shares with `export run` are in target-flags.ts, what else the two
// share once the job is complete in completed-export.ts.
import type { Command } from 'commander';
import type { Bundle } from '../../../api/types.js';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import type { DownloadResult } from '../../../download/index.js';
import { ApiError } from '../../../errors.js';
import { addWaitOptions, parseWaitFlags, type WaitFlags, type WaitSettings } from '../../wait-flags.js';
import { isNotFinished, waitCommand, type NotFinishedError } from './api.js';
import {
  downloadCommand,
  downloadSummary,
  installDeps,
  wordDownloadFailure,
  type DownloadSummary,
} from './completed-export.js';
import { onJobFlow, type FlowApi } from './flow.js';
import { addFlowOption } from './output.js';
import { checkJobId } from './status.js';
import { addTargetOptions, checkTargets, installSettings, type TargetFlags } from './target-flags.js';

export interface ExportDownloadOptions extends TargetFlags {
  jobId: string;
  wait: WaitSettings;
}

/** Checks the target, gets a link (waiting for the job with --wait), streams and extracts the archive. */
export async function exportDownload(opts: ExportDownloadOptions, ctx: Context): Promise<DownloadSummary> {
  const target = await checkTargets(opts, ctx);
  // The first ask for a link also settles the flow; a job not finished yet is waited for below.
  let notYet: NotFinishedError | undefined;
  const { api, value } = await onJobFlow(opts.jobId, ctx, (flow) =>
    flow.link(opts.jobId).catch((error: unknown) => {
      if (!isNotFinished(error)) throw error;
      notYet = error;
      return undefined;
    }),
  );
  const download = { api, jobId: opts.jobId, target, flags: opts };
  if (value) return fetchAndExtract({ ...download, first: value }, ctx);
  return fetchAndExtract({ ...download, first: await waitForLink(api, opts, notYet!, ctx) }, ctx);
}

/** A job not finished yet: waited for with --wait (then its link), explained without. */
async function waitForLink(
  api: FlowApi,
  opts: ExportDownloadOptions,
  error: NotFinishedError,
  ctx: Context,
): Promise<Bundle> {
  if (!opts.wait.wait) {
    throw new ApiError(
      `job ${opts.jobId} not finished yet (${error.reason}); add --wait to wait for it and then download, or wait with \`${waitCommand(opts.jobId, ctx.globals)}\``,
      409,
      { serverMessage: error.serverMessage },
    );
  }
  // The wait loop pulls in the HTTP layer (undici): loaded only when a command really waits.
  const { followExport } = await import('./follow.js');
  const job = await followExport(
    {
      jobId: opts.jobId,
      fetch: api.get,
      intervalMs: opts.wait.intervalMs,
      timeoutMs: opts.wait.timeoutMs,
      resume: downloadCommand(opts.jobId, opts, ctx.globals, { wait: true }),
    },
    ctx,
  );
  return api.linkIn(job) ?? api.link(opts.jobId);
}

export interface FetchAndExtract {
  /** The job's flow: its `link` is how an expired link is replaced (POST bundle, or GET the job). */
  api: FlowApi;
  jobId: string;
  /** What checkTargets returned. */
  target: string;
  flags: TargetFlags;
  /** A link already in hand, used for the first try; later tries (expired link) ask for a fresh one. */
  first?: Bundle;
}

/** The engine's download of a completed job (export-flows/run.ts) with the CLI's dependencies and words. */
export async function fetchAndExtract(opts: FetchAndExtract, ctx: Context): Promise<DownloadSummary> {
  const { installExport } = await import('../../../export-flows/run.js');
  let result: DownloadResult;
  try {
    result = await installExport({ ...opts, install: installSettings(opts.flags, ctx), ...installDeps(ctx) });
  } catch (caught) {
    throw wordDownloadFailure(caught, opts.jobId, opts.flags, ctx);
  }
  return downloadSummary(opts.jobId, result);
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('download')
    .description('download a completed export and extract it into a directory (the link never appears in output)')
    .argument('<jobId>', 'the export job (se_...)');
  addWaitOptions(addFlowOption(addTargetOptions(command)), 'the export completes, then download').action(
    action<TargetFlags & WaitFlags>(deps, async ([jobId], flags, ctx) => {
      const summary = await exportDownload({ ...flags, jobId: checkJobId(jobId!), wait: parseWaitFlags(flags) }, ctx);
      if (ctx.mode.json) return printJson(ctx, summary);
      // The engine has already said `Extracted 1,234 files (45.6 MB) into /path/site` on stderr.
      ctx.print(summary.directory);
    }),
  );
  examples(command, [
    'mint-admin export download se_3f9a2c1b8e7d4a06 -o ./site',
    'mint-admin export download se_3f9a2c1b8e7d4a06 -o ./site --wait --force --archive site.tar.gz',
    'mint-admin export download se_3f9a2c1b8e7d4a06 -o /srv/docs --link --force --keep-releases 5',
  ]);
}
