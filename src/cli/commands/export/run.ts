import type { Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import {
  parseWaitFlags,
  DEFAULT_INTERVAL,
  DEFAULT_TIMEOUT,
  type WaitFlags,
  type WaitSettings,
} from '../../wait-flags.js';
import {
  downloadCommand,
  downloadSummary,
  installDeps,
  wordDownloadFailure,
  type DownloadSummary,
} from './completed-export.js';
import { addTargetOptions, installSettings, withFlags, type TargetFlags } from './target-flags.js';
import { flowSetup, wordChoiceError, type StartInput } from './flow.js';
import { addFlowOption, countOf, formatBytes, pagesOf } from './output.js';
import { addStartOptions, buildStartInput, type StartFlags } from './start.js';
import { addGithubOutputOption, githubTarget } from '../github-output.js';

export interface ExportRunOptions extends TargetFlags {
  input: StartInput;
  wait: WaitSettings;
}

export interface RunSummary extends DownloadSummary {
  /** Pages exported, where the flow reports them (the jobs flow); null on the project flow. */
  pages: number | null;
}

/**
 * start -> wait -> link -> download through the engine (export-flows/run.ts), each stage with its own
 * exit code and its own way back in: a wait cut short resumes with `export download --wait`, a
 * download that failed with `export download`; nothing partial at the target.
 */
export async function exportRun(opts: ExportRunOptions, ctx: Context): Promise<RunSummary> {
  const install = installSettings(opts, ctx);
  const { runStaticExport } = await import('../../../export-flows/run.js');
  let flows: Awaited<ReturnType<typeof flowSetup>> | undefined;
  let completed: string | undefined;
  try {
    const run = await runStaticExport({
      flows: async () => (flows = await flowSetup(ctx)),
      input: opts.input,
      install,
      wait: {
        intervalMs: opts.wait.intervalMs,
        timeoutMs: opts.wait.timeoutMs,
        follow: async (api, jobId) => {
          // The wait loop pulls in the HTTP layer (undici): loaded only when a command really waits.
          const { followExport } = await import('./follow.js');
          ctx.reporter.info(
            `Started export ${jobId}${opts.input.domain === undefined ? '' : ` of ${opts.input.domain}`}`,
          );
          const resume = downloadCommand(jobId, opts, ctx.globals, { wait: true });
          const job = await followExport(
            { jobId, fetch: api.get, intervalMs: opts.wait.intervalMs, timeoutMs: opts.wait.timeoutMs, resume },
            ctx,
          );
          completed = jobId;
          return job;
        },
      },
      ...installDeps(ctx),
    });
    return { ...downloadSummary(run.job.jobId, run), pages: pagesOf(run.job) ?? null };
  } catch (caught) {
    // The wait words its own ends (follow.ts); the start's refusals name the flags to give or drop.
    if (completed !== undefined) throw wordDownloadFailure(caught, completed, opts, ctx);
    throw withFlags(flows ? wordChoiceError(caught, flows) : caught);
  }
}

export function register(group: Command, deps: Deps): void {
  const command = addStartOptions(
    group.command('run').description('start an export, wait for it, download and extract it: one command for CI'),
  )
    .option('--timeout <duration>', 'give up waiting for the export after this long (90s, 5m, 1h30m)', DEFAULT_TIMEOUT)
    .option('--interval <duration>', 'first poll interval; it grows gently from there', DEFAULT_INTERVAL);
  addGithubOutputOption(addFlowOption(addTargetOptions(command))).action(
    action<StartFlags & TargetFlags & WaitFlags & { githubOutput?: boolean }>(deps, async ([domain], flags, ctx) => {
      const wait = parseWaitFlags({ ...flags, wait: true });
      const input = buildStartInput(domain, flags, ctx.reporter);
      const github = await githubTarget(ctx, flags.githubOutput);
      const summary = await exportRun({ ...flags, input, wait }, ctx);
      if (github) {
        const { writeGithubOutputs } = await import('../github-output.js');
        await writeGithubOutputs(
          github,
          [
            ['job-id', summary.jobId],
            ['directory', summary.directory],
          ],
          ctx,
        );
      }
      if (ctx.mode.json) return printJson(ctx, summary);
      // The project flow reports no page count: then only what was exported, if a domain named it.
      const what = [summary.pages === null ? undefined : countOf(summary.pages, 'page'), input.domain]
        .filter(Boolean)
        .join(' of ');
      ctx.reporter.info(
        `Done: ${what ? `${what} ` : ''}exported; ${countOf(summary.files, 'file')} (${formatBytes(summary.bytes)}) in ${summary.directory}`,
      );
      ctx.print(summary.directory);
    }),
  );
  examples(command, [
    'mint-admin export run -o ./site --base-path /docs   # project flow',
    'mint-admin export run docs.example.com -o ./site',
    'mint-admin export run docs.example.com -o ./site --force --timeout 1h --archive site.tar.gz',
    'mint-admin export run docs.example.com -o /srv/docs --link --force',
  ]);
}
