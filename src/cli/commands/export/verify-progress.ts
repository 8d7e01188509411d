// The progress of `export verify` (and of --verify), shown as the download's is: on a terminal a
// spinner counting the pages and stylesheets checked, redrawn at most every LIVE_REDRAW_MS; in CI or
// a pipe a plain line at most every PLAIN_PROGRESS_INTERVAL_MS, and none for a check shorter than
// that (most are: the summary line says the rest); nothing with --quiet (the Reporter decides).
import type { Clock } from '../../../clock.js';
import { LIVE_REDRAW_MS } from '../../../output/progress.js';
import { PLAIN_PROGRESS_INTERVAL_MS } from '../../io.js';
import type { Activity, Reporter } from '../../../reporter.js';

export interface VerifyProgress {
  /** verifySite's onProgress. */
  onProgress(checked: number, total: number): void;
  /** Clears the spinner (the caller prints the outcome). */
  stop(): void;
}

export async function verifyProgress(reporter: Reporter, clock: Clock, directory: string): Promise<VerifyProgress> {
  const counted = (verb: string, checked: number, total: number) =>
    `${verb} ${checked} of ${total} pages and stylesheets`;
  if (reporter.live) {
    const activity: Activity = await reporter.activity(`Checking ${directory}`);
    let lastAt = Number.NEGATIVE_INFINITY;
    return {
      onProgress(checked, total) {
        const now = clock.now();
        if (checked < total && now - lastAt < LIVE_REDRAW_MS) return;
        lastAt = now;
        activity.update(counted('Checking', checked, total));
      },
      stop: () => activity.stop(),
    };
  }
  let lastAt = clock.now();
  return {
    onProgress(checked, total) {
      const now = clock.now();
      if (now - lastAt < PLAIN_PROGRESS_INTERVAL_MS) return;
      lastAt = now;
      reporter.info(counted('Checked', checked, total));
    },
    stop: () => undefined,
  };
}
