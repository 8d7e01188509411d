// What `export download` and `export run` share once a job is complete: the engine's install with the
// CLI's dependencies, the --json summary, a failed download in the CLI's words, and the command that
// downloads the export again.
import type { Context } from '../../context.js';
import type { DownloadResult } from '../../../download/index.js';
import type { InstallDeps } from '../../../export-flows/run.js';
import { CommandSaidError, forPeople } from '../../cli-errors.js';
import { CliError, InterruptedError, SiteProblemsError } from '../../../errors.js';
import type { GlobalOptions } from '../../../config/settings.js';
import { shellCommand } from '../../shell.js';
import { hintFlagArgs } from './api.js';
import { targetFlagArgs, withFlags, type TargetFlags } from './target-flags.js';

/** The --json shape of `export download` (cli.md); `export run` adds `pages`. */
export interface DownloadSummary {
  jobId: string;
  directory: string;
  files: number;
  bytes: number;
  bundle: { sizeBytes: number; expiresAt: string };
}

/** What the engine's download needs of the CLI's world. */
export function installDeps(ctx: Context): InstallDeps {
  return {
    dispatcher: () => ctx.dispatcher(),
    clock: ctx.clock,
    random: ctx.random,
    signal: ctx.signal,
    reporter: ctx.reporter,
    debug: ctx.debug,
  };
}

export function downloadSummary(jobId: string, { directory, files, bytes, bundle }: DownloadResult): DownloadSummary {
  return { jobId, directory, files, bytes, bundle: { sizeBytes: bundle.sizeBytes, expiresAt: bundle.expiresAt } };
}

/**
 * A download of a completed export that failed, in the CLI's words: a Ctrl-C says nothing was left
 * behind, and since the export itself is complete, every way out points at downloading it, never at a
 * new export.
 */
export function wordDownloadFailure(caught: unknown, jobId: string, flags: TargetFlags, ctx: Context): unknown {
  const error = withFlags(caught, flags);
  const again = downloadCommand(jobId, flags, ctx.globals, { wait: false });
  if (ctx.signal.aborted) {
    return new InterruptedError(
      `interrupted: the partial download was removed and ${flags.out} is as it was; export ${jobId} stays on the server: download it with \`${again}\``,
    );
  }
  // A site that failed --verify was downloaded fine: its message already says where it was kept.
  if (!(error instanceof CliError) || error instanceof SiteProblemsError) return error;
  // What went wrong without the engine's "run the command again": here the way out is this download.
  const reason = error.withoutNextStep ?? forPeople(error);
  return new CommandSaidError(
    error,
    `${reason}; export ${jobId} is complete and stays on the server: download it with \`${again}\``,
  );
}

/**
 * `mint-admin export download <id> ...` repeating every flag that shaped this command (-o and the
 * target flags, the global --project, --profile, --base-url, and --export-api), so it works pasted into the same shell.
 */
export function downloadCommand(
  jobId: string,
  flags: TargetFlags,
  globals: GlobalOptions,
  opts: { wait: boolean },
): string {
  return shellCommand([
    'mint-admin',
    'export',
    'download',
    jobId,
    '-o',
    flags.out,
    ...targetFlagArgs(flags),
    ...(opts.wait ? ['--wait'] : []),
    ...hintFlagArgs(globals),
  ]);
}
