import type { Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import type { Problem, VerifyReport } from '../../../site/verify.js';
import { forTerminal } from '../../../terminal-text.js';
import { countOf } from './output.js';
import { verifyProgress, type VerifyProgress } from './verify-progress.js';

export interface VerifyFlags {
  basePath?: string;
}

/** Runs the check, showing its progress, and returns the report; throws nothing for problems (the caller decides the exit). */
export async function exportVerify(directory: string, flags: VerifyFlags, ctx: Context): Promise<VerifyReport> {
  // The parser is only needed here: loaded with the command, never for --help.
  const [{ verifySite }, { normalizeBasePath }] = await Promise.all([
    import('../../../site/verify.js'),
    import('../../../site/resolve.js'),
  ]);
  const basePath = normalizeBasePath(flags.basePath);
  return withProgress(directory, ctx, (onProgress) => verifySite({ directory, basePath, onProgress }));
}

/** The check with its progress shown (verify-progress.ts), the spinner cleared however it ends. */
async function withProgress<T>(
  shown: string,
  ctx: Context,
  check: (onProgress: VerifyProgress['onProgress']) => Promise<T>,
): Promise<T> {
  const progress = await verifyProgress(ctx.reporter, ctx.clock, shown);
  try {
    return await check(progress.onProgress);
  } finally {
    progress.stop();
  }
}

/** `guides/intro.html: broken-link /guides/nope`: the page, the kind, the target as written. */
/**
 * Page names and link targets come from the downloaded site: shown as terminal text (control
 * characters visible, no line a CI runner would run as a workflow command).
 */
export function problemLine(problem: Problem): string {
  return forTerminal(`${problem.page}: ${problem.kind} ${problem.target}`);
}

export function summaryLine(report: VerifyReport): string {
  const checked = `Checked ${countOf(report.pages, 'page')}, ${countOf(report.files, 'file')} in all, ${countOf(report.references, 'internal reference')}`;
  const sitemap =
    report.sitemapEntries === null
      ? 'no sitemap.xml'
      : countOf(report.sitemapEntries, 'sitemap entry').replace(/entrys$/, 'entries');
  const found = report.problemCount === 0 ? 'no problems' : countOf(report.problemCount, 'problem');
  return `${checked}, ${sitemap}: ${found}; ${countOf(report.externalLinks, 'external link')} not checked (offline)`;
}

/** Exit 4 when problems were found, after listing them: the contract CI relies on. */
export async function failOnProblems(report: VerifyReport, shown: string): Promise<void> {
  if (report.problemCount === 0) return;
  const { SiteProblemsError } = await import('../../../site/verify.js');
  throw new SiteProblemsError(
    `${countOf(report.problemCount, 'problem')} in ${shown}; fix the export or its links and verify again`,
  );
}

/** The problems, one line each, and how many more were found than listed. */
function writeProblems(report: VerifyReport, lines: NodeJS.WritableStream, more: NodeJS.WritableStream): void {
  for (const problem of report.problems) lines.write(`${problemLine(problem)}\n`);
  const unlisted = report.problemCount - report.problems.length;
  if (unlisted > 0) more.write(`and ${countOf(unlisted, 'more problem')} (not listed)\n`);
}

export function printReport(report: VerifyReport, ctx: Context): void {
  if (ctx.mode.json) {
    printJson(ctx, report);
    return;
  }
  // What is not listed is said on stderr: stdout stays one problem per line for a script to read.
  writeProblems(report, ctx.io.stdout, ctx.io.stderr);
  ctx.reporter.info(summaryLine(report));
  ctx.reporter.info(`Note: ${report.notes.join('; ')}`);
}

/**
 * `--verify` on export download/run: the check, between extraction and install. With problems the
 * extracted tree moves beside the target (nothing downloaded is lost) and the install is stopped.
 */
export async function verifyBeforeInstall(
  tree: string,
  where: { jobId: string; target: string; shown: string; basePath?: string },
  ctx: Context,
): Promise<void> {
  const { verifySite, SiteProblemsError } = await import('../../../site/verify.js');
  // An export built for a base path (project flow, --base-path /docs) links under it.
  const report = await withProgress(where.shown, ctx, (onProgress) =>
    verifySite({ directory: tree, basePath: where.basePath ?? '', onProgress }),
  );
  if (report.problemCount === 0) {
    ctx.reporter.info(`Verified: ${summaryLine(report)}`);
    return;
  }
  // stdout carries the directory (or the JSON) of a successful download: the problems are diagnostics here.
  writeProblems(report, ctx.io.stderr, ctx.io.stderr);
  const kept = await keepAside(tree, `${where.target}.unverified-${where.jobId}`);
  throw new SiteProblemsError(
    `export ${where.jobId} failed verification: ${countOf(report.problemCount, 'problem')} (${report.truncated ? `the first ${countOf(report.problems.length, 'problem')} listed above` : 'listed above'}); ${where.shown} was left as it was, and the new export is kept in ${kept}`,
  );
}

/** Moves the tree to `wanted`, or `wanted-2`, `-3`... when that exists already. */
async function keepAside(tree: string, wanted: string): Promise<string> {
  const { mkdir, rename } = await import('node:fs/promises');
  for (let n = 1; ; n++) {
    const path = n === 1 ? wanted : `${wanted}-${n}`;
    // mkdir claims the name atomically; rename then replaces the empty directory.
    const claimed = await mkdir(path).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return false;
        throw error;
      },
    );
    if (!claimed) continue;
    await rename(tree, path);
    return path;
  }
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('verify')
    .description(
      'check an extracted export offline: every internal link and asset resolves as a host would serve it, every #fragment names an anchor of its page, sitemap.xml entries exist',
    )
    .argument('<dir>', 'the directory an export was extracted into')
    .option('--base-path <path>', 'the URL path the site is served under, e.g. /docs (links must start with it)')
    .action(
      action<VerifyFlags>(deps, async ([dir], flags, ctx) => {
        const report = await exportVerify(dir!, flags, ctx);
        printReport(report, ctx);
        await failOnProblems(report, dir!);
      }),
    );
  examples(command, [
    'mint-admin export verify ./site',
    'mint-admin export verify ./site --base-path /docs --json > report.json',
  ]);
}
