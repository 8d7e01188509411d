// Bytes, bars and the download's progress as text: a byte bar on a terminal, plain lines in logs. Shared by the CLI's
// commands and the library's events, so no face draws its own.
import type { Clock } from '../clock.js';
import type { DownloadProgressEvent } from '../download/progress-event.js';
import { formatDuration } from '../duration.js';
import type { Activity } from '../reporter.js';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Decimal units, one decimal place from KB up: `512 B`, `12.3 MB`. */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** `[#####-----]`: `width` cells, filled in proportion to `fraction` (clamped to 0..1). */
export function progressBar(fraction: number, width = 20): string {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}

export interface ProgressFigures {
  bytes: number;
  /** Undefined when neither the API nor the storage said. */
  total: number | undefined;
  elapsedMs: number;
}

/** Speed and ETA once at least a quarter second has passed; before that they are noise. */
function rateAndEta({ bytes, total, elapsedMs }: ProgressFigures): string {
  if (elapsedMs < 250 || bytes === 0) return '';
  const perSecond = (bytes / elapsedMs) * 1000;
  const rate = `  ${formatBytes(perSecond)}/s`;
  if (total === undefined || bytes >= total) return rate;
  return `${rate}  ETA ${formatDuration(((total - bytes) / perSecond) * 1000)}`;
}

/** `Downloading [#####-----] 12.3 MB / 24.6 MB  5.1 MB/s  ETA 2s` */
export function liveProgressText(figures: ProgressFigures): string {
  const { bytes, total } = figures;
  if (total === undefined) return `Downloading ${formatBytes(bytes)}${rateAndEta(figures)}`;
  return `Downloading ${progressBar(bytes / total)} ${formatBytes(bytes)} / ${formatBytes(total)}${rateAndEta(figures)}`;
}

/** `Downloading 12.3 MB / 24.6 MB (50%)  5.1 MB/s  ETA 2s`: no bar, which reads badly in a log. */
export function plainProgressText(figures: ProgressFigures): string {
  const { bytes, total } = figures;
  if (total === undefined || total === 0) return `Downloading ${formatBytes(bytes)}${rateAndEta(figures)}`;
  const percent = Math.floor((Math.min(bytes, total) / total) * 100);
  return `Downloading ${formatBytes(bytes)} / ${formatBytes(total)} (${percent}%)${rateAndEta(figures)}`;
}

/** How often a terminal is redrawn; plain lines are throttled again by the Activity. */
export const LIVE_REDRAW_MS = 100;
const PLAIN_RECOMPUTE_MS = 1000;

/** Feeds byte counts into an Activity without formatting a line for every network chunk. */
export class DownloadProgress {
  private readonly startedAt: number;
  private lastAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly activity: Activity,
    private readonly clock: Clock,
    private readonly live: boolean,
  ) {
    this.startedAt = clock.now();
  }

  /** The CLI's reading of the events: the activity's lines (the link request is its opening line). */
  show = (event: DownloadProgressEvent): void => {
    if (event.phase === 'download') this.update(event.bytes, event.total);
    else if (event.phase === 'extract')
      this.activity.update(`Extracting the ${formatBytes(event.bytes)} archive`, { milestone: true });
    else if (event.phase === 'done') {
      const where = event.release === undefined ? event.directory : `${event.directory} (release ${event.release})`;
      this.activity.succeed(`Extracted ${event.files} files (${formatBytes(event.bytes)}) into ${where}`);
    }
  };

  update = (bytes: number, total: number | undefined): void => {
    const now = this.clock.now();
    const finished = total !== undefined && bytes >= total;
    if (!finished && now - this.lastAt < (this.live ? LIVE_REDRAW_MS : PLAIN_RECOMPUTE_MS)) return;
    this.lastAt = now;
    const figures = { bytes, total, elapsedMs: now - this.startedAt };
    this.activity.update(this.live ? liveProgressText(figures) : plainProgressText(figures));
  };
}
