import type { Command } from 'commander';
import type { StartExportRequest } from '../../api/types.js';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { parseWaitFlags, DEFAULT_INTERVAL, DEFAULT_TIMEOUT, type WaitFlags, type WaitSettings } from '../../wait-flags.js';
import { exportApi } from './api.js';
import { addTargetOptions, checkTargets, fetchAndExtract, downloadCommand, type DownloadSummary, type TargetFlags } from './download.js';
import { countOf, formatBytes } from './output.js';
import { buildStartRequest, type StartFlags } from './start.js';

export interface ExportRunOptions extends TargetFlags {
  request: StartExportRequest;
  wait: WaitSettings;
}

export interface RunSummary extends DownloadSummary {
  pages: number;
}

/** start -> wait -> bundle -> download, each stage with its own exit code; nothing partial at the target. */
export async function exportRun(opts: ExportRunOptions, ctx: Context): Promise<RunSummary> {
  const target = await checkTargets(opts);
  const api = exportApi(await ctx.api());
  const { jobId } = await api.start(opts.request);
  // The wait loop pulls in the HTTP layer (undici): loaded only when a command really waits.
  const { followExport } = await import('./follow.js');
  ctx.reporter.info(`Started export ${jobId} of ${opts.request.domain}`);
  const job = await followExport(
    { jobId, fetch: api.get, intervalMs: opts.wait.intervalMs, timeoutMs: opts.wait.timeoutMs, resume: downloadCommand(jobId, opts, ctx.globals, { wait: true }) },
    ctx,
  );
  const summary = await fetchAndExtract({ api, jobId, target, flags: opts }, ctx);
  return { ...summary, pages: job.pageCount };
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('run')
    .description('start an export, wait for it, download and extract it: one command for CI')
    .argument('<domain>', 'the deployment hostname, e.g. docs.example.com')
    .option('--export-version <label>', 'version label to export (default: the latest published version)')
    .option('--path <path...>', 'only these page paths, e.g. index guides/getting-started')
    .option('--timeout <duration>', 'give up waiting for the export after this long (90s, 5m, 1h30m)', DEFAULT_TIMEOUT)
    .option('--interval <duration>', 'first poll interval; it grows gently from there', DEFAULT_INTERVAL);
  addTargetOptions(command).action(
    action<StartFlags & TargetFlags & WaitFlags>(deps, async ([domain], flags, ctx) => {
      const wait = parseWaitFlags({ ...flags, wait: true });
      const request = buildStartRequest(domain!, flags, ctx.reporter);
      const summary = await exportRun({ ...flags, request, wait }, ctx);
      if (ctx.mode.json) return printJson(ctx, summary);
      ctx.reporter.info(
        `Done: ${countOf(summary.pages, 'page')} of ${request.domain} exported; ${countOf(summary.files, 'file')} (${formatBytes(summary.bytes)}) in ${summary.directory}`,
      );
      ctx.print(summary.directory);
    }),
  );
  examples(command, [
    'mint-admin export run docs.example.com -o ./site',
    'mint-admin export run docs.example.com -o ./site --force --timeout 1h --archive site.tar.gz',
    'mint-admin export run docs.example.com -o /srv/docs --link --force',
  ]);
}
