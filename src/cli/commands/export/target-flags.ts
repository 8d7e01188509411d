// The target flags `export download` and `export run` share (-o, --force, --link, --keep-releases,
// --max-size, --archive, --verify): their options, their checks, the engine's install settings made
// from them, and the engine's refusals worded from their data to name them.
import type { Command } from 'commander';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import type { InstallSettings } from '../../../export-flows/run.js';
import { ArchiveRefusedError, PROTECTED_NAMES, TargetRefusedError, UsageError } from '../../../errors.js';
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
    return new ArchiveRefusedError(error.brokenRule, { sizeLimit: error.sizeLimit, nextStep: raise });
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

/** The target flags as given, to repeat them in a command we print. */
export function targetFlagArgs(flags: TargetFlags): string[] {
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
