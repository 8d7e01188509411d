// Human output shared by the export commands: one line per job on stdout, sizes and counts as people read them.
import { Option, type Command } from 'commander';
import type { AnyExportJob } from '../../../api/types.js';
import { EXPORT_API_VALUES } from '../../../config/settings.js';
import { formatDuration } from '../../../duration.js';
import type { Reporter } from '../../../reporter.js';
import { shellCommand } from '../../shell.js';
import { hintFlagArgs, waitCommand, type HintFlags } from './api.js';

// One way to write sizes across the CLI: the download engine's (decimal units, `45.6 MB`).
export { formatBytes } from '../../../output/progress.js';

/** The jobs flow's percentage; the project flow has none. */
export function progressOf(job: AnyExportJob): number | undefined {
  return typeof job.progress === 'number' ? job.progress : undefined;
}

/** The jobs flow's pages so far; the project flow has none. */
export function pagesOf(job: AnyExportJob): number | undefined {
  return typeof job.pageCount === 'number' ? job.pageCount : undefined;
}

/**
 * `se_3f9a2c1b8e7d4a06  running  58%  120 pages` (just `se_...  queued` before it starts). The project
 * flow reports no progress: there it is the status and the time since the job was created
 * (`6520f3a1c9b1a20012ab34cd  running  2m10s`), up to its last change once it has finished.
 */
export function jobLine(job: AnyExportJob, now: number): string {
  return `${job.jobId}  ${jobState(job, now)}`;
}

/** The job's status, with its progress and pages or how long it has run when the API says. */
export function jobState(job: AnyExportJob, now: number): string {
  if (job.status === 'queued') return 'queued';
  const progress = progressOf(job);
  const pages = pagesOf(job);
  if (progress !== undefined && pages !== undefined)
    return `${job.status}  ${Math.round(progress)}%  ${countOf(pages, 'page')}`;
  const finished = job.status === 'completed' || job.status === 'failed';
  const elapsed = (finished ? Date.parse(job.updatedAt) : now) - Date.parse(job.createdAt);
  return Number.isFinite(elapsed) && elapsed >= 0 ? `${job.status}  ${formatDuration(elapsed)}` : job.status;
}

/** What to do next with a job in this state, on stderr. */
export function hintNext(job: AnyExportJob, reporter: Reporter, hints: HintFlags = {}): void {
  if (job.status === 'completed') {
    reporter.info(
      `Download it with: ${shellCommand(['mint-admin', 'export', 'download', job.jobId, '-o', './site', ...hintFlagArgs(hints)])}`,
    );
  } else if (job.status === 'failed') reporter.info(`The export failed: ${job.error ?? 'the API gave no reason'}`);
  else if (job.status === 'queued' || job.status === 'running')
    reporter.info(`Follow it with: ${waitCommand(job.jobId, hints)}`);
}

/** `1,234 files` */
export function countOf(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

/** `--export-api`: which static export flow (cli.md, "Static export flows"); env and config key too. */
export function addFlowOption(command: Command): Command {
  return command.addOption(
    new Option(
      '--export-api <flow>',
      'which static export flow to use (env MINT_ADMIN_EXPORT_API; default auto)',
    ).choices(EXPORT_API_VALUES),
  );
}
