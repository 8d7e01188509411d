import type { Command } from 'commander';
import type { Bundle } from '../../api/types.js';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import type { DownloadResult } from '../../download/index.js';
import { ApiError, InterruptedError } from '../../errors.js';
import { addWaitOptions, parseWaitFlags, type WaitFlags, type WaitSettings } from '../../wait-flags.js';
import { isNotFinished, waitCommand, type NotFinishedError } from './api.js';
import { onJobFlow, type FlowApi } from './flow.js';
import { addFlowOption } from './output.js';
import { shellCommand } from '../../shell.js';
import { checkJobId } from './status.js';

export interface TargetFlags {
  out: string;
  force?: boolean;
  archive?: string;
}

export interface ExportDownloadOptions extends TargetFlags {
  jobId: string;
  wait: WaitSettings;
}

/** The --json shape of `export download` (cli.md); `export run` adds `pages`. */
export interface DownloadSummary {
  jobId: string;
  directory: string;
  files: number;
  bytes: number;
  bundle: { sizeBytes: number; expiresAt: string };
}

/** Checks the target, gets a link (waiting for the job with --wait), streams and extracts the archive. */
export async function exportDownload(opts: ExportDownloadOptions, ctx: Context): Promise<DownloadSummary> {
  const target = await checkTargets(opts);
  // The first ask for a link also settles the flow; a job not finished yet is waited for below.
  let notYet: NotFinishedError | undefined;
  const { api, value } = await onJobFlow(opts.jobId, ctx, (flow) =>
    flow.link(opts.jobId).catch((error: unknown) => {
      if (!isNotFinished(error)) throw error;
      notYet = error;
      return undefined;
    }),
  );
  const first = value ?? (await waitForLink(api, opts, notYet!, ctx));
  return fetchAndExtract({ api, jobId: opts.jobId, target, flags: opts, first }, ctx);
}

/** --out and --archive, checked before any request: a refused target must not cost an export or a link. */
export async function checkTargets(flags: TargetFlags): Promise<string> {
  const { checkTarget, checkArchivePath } = await import('../../download/index.js');
  const target = await checkTarget(flags.out, Boolean(flags.force));
  if (flags.archive !== undefined) await checkArchivePath(flags.archive, target);
  return target;
}

/** A job not finished yet: waited for with --wait (then its link), explained without. */
async function waitForLink(api: FlowApi, opts: ExportDownloadOptions, error: NotFinishedError, ctx: Context): Promise<Bundle> {
  if (!opts.wait.wait) {
    throw new ApiError(
      `job ${opts.jobId} not finished yet (${error.reason}); add --wait to wait for it and then download, or wait with \`${waitCommand(opts.jobId)}\``,
      409,
      { serverMessage: error.serverMessage },
    );
  }
  // The wait loop pulls in the HTTP layer (undici): loaded only when a command really waits.
  const { followExport } = await import('./follow.js');
  const job = await followExport(
    { jobId: opts.jobId, fetch: api.get, intervalMs: opts.wait.intervalMs, timeoutMs: opts.wait.timeoutMs, resume: resumeCommand(opts.jobId, opts) },
    ctx,
  );
  return api.linkIn(job) ?? api.link(opts.jobId);
}

export interface FetchAndExtract {
  /** The job's flow: its `link` is how an expired link is replaced (POST bundle, or GET the job). */
  api: FlowApi;
  jobId: string;
  /** What checkTarget returned. */
  target: string;
  flags: TargetFlags;
  /** A link already in hand, used for the first try; later tries (expired link) ask for a fresh one. */
  first?: Bundle;
}

/** downloadBundle with the CLI's dependencies, and a Ctrl-C message that says nothing was left behind. */
export async function fetchAndExtract(opts: FetchAndExtract, ctx: Context): Promise<DownloadSummary> {
  const { downloadBundle } = await import('../../download/index.js');
  let first = opts.first;
  const getBundle = async (): Promise<Bundle> => {
    const inHand = first;
    first = undefined;
    return inHand ?? opts.api.link(opts.jobId);
  };
  let result: DownloadResult;
  try {
    result = await downloadBundle({
      getBundle,
      target: opts.target,
      force: Boolean(opts.flags.force),
      archivePath: opts.flags.archive,
      dispatcher: await ctx.dispatcher(),
      clock: ctx.clock,
      random: ctx.random,
      signal: ctx.signal,
      reporter: ctx.reporter,
      debug: ctx.debug,
    });
  } catch (error) {
    if (!ctx.signal.aborted) throw error;
    throw new InterruptedError(
      `interrupted: the partial download was removed and ${opts.flags.out} is as it was; export ${opts.jobId} stays on the server: download it with \`${downloadCommand(opts.jobId, opts.flags, [])}\``,
    );
  }
  const { directory, files, bytes, bundle } = result;
  return { jobId: opts.jobId, directory, files, bytes, bundle: { sizeBytes: bundle.sizeBytes, expiresAt: bundle.expiresAt } };
}

export function resumeCommand(jobId: string, flags: TargetFlags): string {
  return downloadCommand(jobId, flags, ['--wait']);
}

function downloadCommand(jobId: string, flags: TargetFlags, extra: string[]): string {
  return shellCommand(['mint-admin', 'export', 'download', jobId, '-o', flags.out, ...(flags.force ? ['--force'] : []), ...extra]);
}

export function addTargetOptions(command: Command): Command {
  return command
    .requiredOption('-o, --out <dir>', 'directory to extract the site into (created; must be empty unless --force)')
    .option('--force', 'replace an existing non-empty directory (only once the new one is complete)')
    .option('--archive <file>', 'also keep the downloaded .tar.gz at this path');
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('download')
    .description('download a completed export and extract it into a directory (the link never appears in output)')
    .argument('<jobId>', 'the export job (se_...)');
  addWaitOptions(addTargetOptions(command), 'the export completes, then download').action(
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
  ]);
}
