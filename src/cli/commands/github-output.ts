// --github-output: step outputs in $GITHUB_OUTPUT and a short step summary in $GITHUB_STEP_SUMMARY,
// the files GitHub Actions hands every step (https://docs.github.com/actions/reference/workflow-commands-for-github-actions).
// Both files are read by the rest of the workflow, so server text reaching them is made harmless: an
// output value with a line break uses the heredoc form with a random delimiter it cannot contain (so
// it cannot set another output), summary text is escaped for Markdown and HTML, and the admin key is
// masked everywhere.
import { randomUUID } from 'node:crypto';
import { appendFile, stat } from 'node:fs/promises';
import type { Command } from 'commander';
import type { UpdateStatus } from '../../api/types.js';
import type { Context } from '../context.js';
import { formatDuration } from '../../duration.js';
import { UsageError } from '../../errors.js';

export interface GithubTarget {
  outputPath: string;
  /** Absent outside Actions' steps (or when a runner does not offer one): then no summary is written. */
  summaryPath: string | undefined;
}

export function addGithubOutputOption(command: Command): Command {
  return command.option(
    '--github-output',
    'write step outputs to $GITHUB_OUTPUT and a summary to $GITHUB_STEP_SUMMARY (GitHub Actions)',
  );
}

/**
 * The files to write, checked before anything is sent (exit 2): the flag without $GITHUB_OUTPUT, or
 * either file a directory, in a missing directory or not writable. Written only after the request,
 * they would otherwise fail with a deployment already queued.
 */
export async function githubTarget(ctx: Context, enabled: boolean | undefined): Promise<GithubTarget | undefined> {
  if (!enabled) return undefined;
  const outputPath = ctx.env.GITHUB_OUTPUT;
  if (!outputPath)
    throw new UsageError(
      '--github-output needs $GITHUB_OUTPUT, which GitHub Actions sets for every step; nothing was sent',
    );
  const summaryPath = ctx.env.GITHUB_STEP_SUMMARY || undefined;
  const { checkWritableFile } = await import('../../output/check-writable.js');
  const remedy = 'give it a file (GitHub Actions sets it for every step); nothing was sent';
  await checkWritableFile(outputPath, `$GITHUB_OUTPUT ${outputPath}`, remedy);
  if (summaryPath) await checkWritableFile(summaryPath, `$GITHUB_STEP_SUMMARY ${summaryPath}`, remedy);
  return { outputPath, summaryPath };
}

/** `name=value`, or the heredoc form when the value spans lines. */
export function outputEntry(name: string, value: string): string {
  if (!/[\r\n]/.test(value)) return `${name}=${value}\n`;
  let delimiter: string;
  do delimiter = `ghadelimiter_${randomUUID()}`;
  while (value.includes(delimiter));
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

export interface BuildReport {
  kind: 'deploy' | 'preview';
  statusId: string;
  /** The build as last seen; undefined when the command did not wait. */
  build: UpdateStatus | undefined;
  /** The build's status for the `status` output: `queued` right after a start without --wait. */
  status: string;
  /** Written as `preview-url` (and linked in the summary) only when the caller decided it may be. */
  previewUrl?: string | undefined;
  /** How long the command followed the build, for when the API gives no start and end. */
  followedMs?: number;
}

/** Appends the outputs and the summary. Called on every ending of a build command, failures included. */
export async function writeGithubReport(target: GithubTarget, report: BuildReport, ctx: Context): Promise<void> {
  const outputs: Array<[string, string]> = [
    ['status-id', report.statusId],
    ['status', report.status],
  ];
  if (report.previewUrl !== undefined) outputs.push(['preview-url', report.previewUrl]);
  await append(target.outputPath, ctx.scrub(outputs.map(([name, value]) => outputEntry(name, value)).join('')), ctx);
  // Each field is masked before its Markdown escaping, and the whole summary once more as written:
  // a field that reaches it some other way (the statusId, a row added later) is still masked.
  if (target.summaryPath) await append(target.summaryPath, ctx.scrub(stepSummary(report, ctx.scrub)), ctx);
}

/**
 * Appends plain outputs (no summary) for the commands that are not builds: agent run (job-id, status,
 * pr-link) and export run (job-id, directory). Undefined values are left out.
 */
export async function writeGithubOutputs(
  target: GithubTarget,
  outputs: Array<[string, string | null | undefined]>,
  ctx: Context,
): Promise<void> {
  const given = outputs.filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '');
  await append(target.outputPath, ctx.scrub(given.map(([name, value]) => outputEntry(name, value)).join('')), ctx);
}

/** appendFile, but a FIFO (a runner or a test reading the outputs) waits for its reader only until Ctrl-C. */
async function append(path: string, text: string, ctx: Context): Promise<void> {
  if (!(await stat(path).catch(() => undefined))?.isFIFO()) return appendFile(path, text);
  const { appendToFifo } = await import('../../output/fifo.js');
  await appendToFifo(path, text, ctx.signal, () =>
    ctx.reporter.info(`${path}: waiting for a reader to open this FIFO (Ctrl-C stops)`),
  );
}

/** A few lines of Markdown: status, commit, duration, link. */
export function stepSummary(report: BuildReport, scrub: (text: string) => string = (t) => t): string {
  const { build } = report;
  const markdownText = (text: string) => markdownLiteral(scrub(text));
  const title = report.kind === 'deploy' ? 'Mintlify deployment' : 'Mintlify preview';
  const rows: Array<[string, string]> = [
    ['Status', `**${markdownText(report.status)}**${build?.summary ? ` ${markdownText(build.summary)}` : ''}`],
  ];
  const commit = commitText(build, markdownText);
  if (commit) rows.push(['Commit', commit]);
  const duration = durationOf(report);
  if (duration) rows.push(['Duration', duration]);
  const link =
    report.kind === 'preview'
      ? report.previewUrl
      : build?.subdomain
        ? `https://${build.subdomain}.mintlify.app`
        : undefined;
  if (link && isPlainHttpsUrl(link) && scrub(link) === link)
    rows.push([report.kind === 'preview' ? 'Preview' : 'Site', link]);
  rows.push(['Status id', `\`${scrub(report.statusId)}\``]);
  return `### ${title}: ${markdownText(report.status)}\n\n| | |\n|---|---|\n${rows.map(([k, v]) => `| ${k} | ${v} |`).join('\n')}\n\n`;
}

function commitText(build: UpdateStatus | undefined, markdownText: (text: string) => string): string | undefined {
  const sha = build?.commit?.sha;
  const parts: string[] = [];
  if (sha && /^[0-9a-f]{7,64}$/i.test(sha)) parts.push(`\`${sha.slice(0, 7)}\``);
  if (build?.commit?.ref) parts.push(`on ${markdownText(build.commit.ref)}`);
  const message = build?.commit?.message?.split('\n')[0];
  if (message) parts.push(markdownText(message));
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function durationOf(report: BuildReport): string | undefined {
  const started = Date.parse(report.build?.createdAt ?? '');
  const ended = Date.parse(report.build?.endedAt ?? '');
  if (Number.isFinite(started) && Number.isFinite(ended) && ended >= started) return formatDuration(ended - started);
  return report.followedMs === undefined ? undefined : `${formatDuration(report.followedMs)} (followed)`;
}

/** Server text as literal Markdown on one table cell: no markup, no HTML, no line breaks, short. */
export function markdownLiteral(text: string): string {
  const flat = text
    .replace(/[\x00-\x1f\x7f-\x9f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const short = flat.length > 200 ? `${flat.slice(0, 200)}...` : flat;
  // Markdown first, then HTML: the entities' own `#` must stay as it is.
  return short
    .replace(/[\\`*_{}[\]()#+!~-]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '&#124;');
}

/** Only a plain https URL becomes a link in the summary. */
function isPlainHttpsUrl(url: string): boolean {
  return /^https:\/\/[A-Za-z0-9.-]+(?::\d+)?(\/[^\s<>"'`|\\]*)?$/.test(url);
}
