import type { Command } from 'commander';
import type { Bundle } from '../../../api/types.js';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import type { DownloadResult } from '../../../download/index.js';
import type { InstallDeps, InstallSettings } from '../../../export-flows/run.js';
import { CommandSaidError, forPeople } from '../../cli-errors.js';
import {
  ApiError,
  ArchiveRefusedError,
  CliError,
  InterruptedError,
  PROTECTED_NAMES,
  SiteProblemsError,
  TargetRefusedError,
  UsageError,
} from '../../../errors.js';
import { join } from 'node:path';
import { addWaitOptions, parseWaitFlags, type WaitFlags, type WaitSettings } from '../../wait-flags.js';
import { hintFlagArgs, isNotFinished, waitCommand, type NotFinishedError } from './api.js';
import { onJobFlow, type FlowApi } from './flow.js';
import { addFlowOption } from './output.js';
import type { GlobalOptions } from '../../../config.js';
import { shellCommand } from '../../../shell.js';
import { checkJobId } from './status.js';
import { verifyBeforeInstall } from './verify.js';

export interface TargetFlags {
  out: string;
  force?: boolean;
  archive?: string;
  link?: boolean;
  keepReleases?: string;
  maxSize?: string;
  verify?: boolean;
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

/** --out, --archive and the numbers, checked before any request: a refused target must not cost an export or a link. */
export async function checkTargets(flags: TargetFlags, ctx: Context): Promise<string> {
  const install = installSettings(flags, ctx);
  const { checkInstallTarget } = await import('../../../export-flows/run.js');
  try {
    return await checkInstallTarget(install);
  } catch (error) {
    throw withFlags(error);
  }
}

/**
 * The target flags as the engine takes them (--keep-releases and --max-size checked here), with the
 * environment's HOME as the home --force must never replace (as for the config directory), and --verify.
 */
export function installSettings(flags: TargetFlags, ctx: Context): InstallSettings {
  const { keep, maxBytes } = targetNumbers(flags);
  return {
    target: flags.out,
    force: Boolean(flags.force),
    link: Boolean(flags.link),
    keep,
    maxBytes,
    archivePath: flags.archive,
    home: ctx.env.HOME,
    beforeInstall: flags.verify
      ? (tree, job) => verifyBeforeInstall(tree, { ...job, shown: flags.out }, ctx)
      : undefined,
  };
}

/**
 * The engine's refusal of a target (or, given the flags, of a bundle past the size cap) in the CLI's words, naming the flags a person passes (the
 * engine's name none: a library user passes `force: true`, not --force); class and data are kept.
 */
export function withFlags(error: unknown, flags?: Pick<TargetFlags, 'maxSize'>): unknown {
  // The size cap: the engine says "allow a larger size"; a person does it with --max-size.
  if (error instanceof ArchiveRefusedError && error.brokenRule !== undefined && flags) {
    const raise =
      flags.maxSize !== undefined
        ? 'raise --max-size if it is expected'
        : 'if that is expected, allow it with --max-size (e.g. --max-size 5GB)';
    return new ArchiveRefusedError(`${error.brokenRule}; ${raise}`, error);
  }
  if (!(error instanceof TargetRefusedError)) return error;
  const { target, archivePath = '' } = error;
  const site = join(target, 'site');
  // The CLI's sentence, written from the refusal's data; class and data are kept.
  const refusal = (words: string) => new TargetRefusedError(words, error.reason, target, error);
  switch (error.reason) {
    case 'not-empty':
      return refusal(`${target} is not empty; pass --force to replace its contents, or choose another directory`);
    case 'protected':
      return refusal(
        `refusing to replace ${target} (${PROTECTED_NAMES[error.protectedAs!]}) with --force; name a directory below it, e.g. -o ${site}`,
      );
    case 'dangling-link':
      return refusal(
        `${target} is a symbolic link to nothing; remove it or choose another directory (or pass --link to point it at the new release)`,
      );
    case 'link-over-directory':
      return refusal(
        `${target} is a directory, and --link keeps ${target} as a symbolic link to a release: move it away first (mv ${target} ${target}.old), or drop --link`,
      );
    case 'mount-point':
      return refusal(
        `${target} is a mount point, which cannot be replaced by a rename; extract into a directory inside it (-o ${site}), or keep releases inside it with a link (-o ${site} --link)`,
      );
    case 'archive-inside':
      return refusal(
        `--archive ${archivePath} is inside the directory being replaced; keep the archive somewhere else`,
      );
    case 'archive-is-directory':
      return refusal(
        `--archive ${archivePath} is a directory; give a file name such as ${join(archivePath, 'site.tar.gz')}`,
      );
  }
}

/** --keep-releases and --max-size as numbers; UsageError for anything else. */
export function targetNumbers(flags: TargetFlags): { keep: number | undefined; maxBytes: number | undefined } {
  let keep: number | undefined;
  if (flags.keepReleases !== undefined) {
    if (!flags.link)
      throw new UsageError('--keep-releases goes with --link (it says how many releases to keep beside the link)');
    if (!/^[1-9]\d{0,3}$/.test(flags.keepReleases))
      throw new UsageError(`--keep-releases: "${flags.keepReleases}" is not a whole number from 1 to 9999`);
    keep = Number(flags.keepReleases);
  }
  return { keep, maxBytes: flags.maxSize === undefined ? undefined : parseSize(flags.maxSize) };
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  k: 1e3,
  m: 1e6,
  g: 1e9,
  t: 1e12,
};

/** `5GB`, `500MB`, `2g`, `1000000` (bytes): decimal units, as every size this CLI prints. */
export function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined || Number(match[1]) <= 0)
    throw new UsageError(`--max-size: "${text}" is not a size; use e.g. 5GB or 500MB`);
  return Math.floor(Number(match[1]) * unit);
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

/** The target flags as given, to repeat them in a command we print. */
function targetFlagArgs(flags: TargetFlags): string[] {
  return [
    ...(flags.force ? ['--force'] : []),
    ...(flags.link ? ['--link'] : []),
    ...(flags.keepReleases !== undefined ? ['--keep-releases', flags.keepReleases] : []),
    ...(flags.maxSize !== undefined ? ['--max-size', flags.maxSize] : []),
    ...(flags.archive !== undefined ? ['--archive', flags.archive] : []),
    ...(flags.verify ? ['--verify'] : []),
  ];
}

export function addTargetOptions(command: Command): Command {
  return command
    .requiredOption('-o, --out <dir>', 'directory to extract the site into (created; must be empty unless --force)')
    .option('--force', 'replace an existing non-empty directory (only once the new one is complete)')
    .option(
      '--link',
      'make <dir> a symlink to a release kept in .<dir>-releases/, swapped in one rename: readers never see a missing file',
    )
    .option('--keep-releases <n>', 'with --link: how many releases to keep, the new one included (default 3)')
    .option(
      '--max-size <size>',
      'refuse a bundle that would extract to more than this (default: 50x the download, at least 1GB)',
    )
    .option('--archive <file>', 'also keep the downloaded .tar.gz at this path')
    .option(
      '--verify',
      'check the extracted site (as `export verify` does) before installing it; problems: exit 4, the directory stays as it was',
    );
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
