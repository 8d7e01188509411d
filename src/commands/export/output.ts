// Human output shared by the export commands: one line per job on stdout, sizes and counts as people read them.
import type { ExportJob } from '../../api/types.js';
import type { Reporter } from '../../io.js';
import { shellCommand } from '../../shell.js';
import { waitCommand } from './api.js';

// One way to write sizes across the CLI: the download engine's (decimal units, `45.6 MB`).
export { formatBytes } from '../../download/progress.js';

/** `se_3f9a2c1b8e7d4a06  running  58%  120 pages` (just `se_...  queued` before it starts). */
export function jobLine(job: ExportJob): string {
  if (job.status === 'queued') return `${job.jobId}  queued`;
  return `${job.jobId}  ${job.status}  ${Math.round(job.progress)}%  ${countOf(job.pageCount, 'page')}`;
}

/** What to do next with a job in this state, on stderr. */
export function hintNext(job: ExportJob, reporter: Reporter): void {
  if (job.status === 'completed') reporter.info(`Download it with: ${shellCommand(['mint-admin', 'export', 'download', job.jobId, '-o', './site'])}`);
  else if (job.status === 'failed') reporter.info(`The export failed: ${job.error ?? 'the API gave no reason'}`);
  else if (job.status === 'queued' || job.status === 'running') reporter.info(`Follow it with: ${waitCommand(job.jobId)}`);
}

/** `1,234 files` */
export function countOf(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}
