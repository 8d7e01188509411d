// `export verify` shows its progress as the download does: on a terminal a spinner whose text counts
// the pages and stylesheets checked, redrawn at most 10 times a second; in CI or a pipe a plain line
// at most every 5 seconds (none for a check that takes less); nothing with --quiet. Through the CLI
// seam (a captured terminal), and the pacing with a clock the test moves.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyProgress } from '../../src/cli/commands/export/verify-progress.js';
import { createReporter } from '../../src/cli/io.js';
import type { Activity, Reporter } from '../../src/reporter.js';
import { verifySite } from '../../src/site/verify.js';
import { tempDir } from '../helpers/cli.js';
import { FakeClock } from '../helpers/clock.js';
import { runInProcess } from '../helpers/in-process.js';
import { captureIO } from '../helpers/io.js';
import { writeSite } from './fixture.js';

const dirs: Array<{ cleanup: () => void }> = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
function site(extraPages = 0): string {
  const dir = tempDir('mint-admin-site-');
  dirs.push(dir);
  writeSite(join(dir.path, 'site'), { extraPages });
  return join(dir.path, 'site');
}

async function verify(args: string[], tty: boolean) {
  const home = tempDir();
  dirs.push(home);
  return runInProcess(['export', 'verify', ...args], {
    env: { HOME: home.path, XDG_CONFIG_HOME: join(home.path, 'xdg') },
    tty,
  });
}

describe('export verify on a terminal', () => {
  it('draws a spinner for the check, then the summary', async () => {
    const root = site(40);
    const r = await verify([root], true);
    expect(r.code).toBe(0);
    // ora draws its frames on a timer: a check this quick shows its first frame only (the counts it
    // is handed are the pacing tests' below).
    expect(r.stderr.startsWith(`⠋ Checking ${root}`)).toBe(true);
    expect(r.stderr).toMatch(/Checked 45 pages, .*: no problems;/);
  });

  it('draws nothing with --quiet, and a piped run that takes no time prints no progress line', async () => {
    const root = site(40);
    const quiet = await verify([root, '--quiet'], true);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    const piped = await verify([root], false);
    expect(piped.stderr).not.toMatch(/Checking|of 47/);
  });
});

/** A Reporter that records what its activity is told (what the spinner would draw). */
function recordingReporter(live: boolean) {
  const updates: string[] = [];
  let stopped = false;
  const activity: Activity = {
    update: (t) => updates.push(t),
    succeed: (t) => updates.push(t),
    fail: (t) => updates.push(t),
    stop: () => (stopped = true),
  };
  const reporter: Reporter = {
    live,
    info: () => undefined,
    warn: () => undefined,
    activity: async (t) => (updates.push(t), activity),
  };
  return { reporter, updates, stopped: () => stopped };
}

describe('verifyProgress pacing', () => {
  it('live: at most one redraw every 100 ms, and the last count is drawn', async () => {
    const clock = new FakeClock();
    const { reporter, updates, stopped } = recordingReporter(true);
    const progress = await verifyProgress(reporter, clock, '/srv/site');
    for (let i = 1; i <= 100; i++) {
      clock.advance(10);
      progress.onProgress(i, 100);
    }
    progress.stop();
    expect(updates[0]).toBe('Checking /srv/site');
    // 100 calls over 1 s: a redraw at 10 ms, then one every 100 ms, and the final count.
    expect(updates.length - 1).toBeLessThanOrEqual(12);
    expect(updates.at(-1)).toBe('Checking 100 of 100 pages and stylesheets');
    expect(stopped()).toBe(true);
  });

  it('plain: a line at most every 5 s, none before the first 5 s', async () => {
    const clock = new FakeClock();
    const io = captureIO({ tty: false });
    const progress = await verifyProgress(
      createReporter(io.io, { json: false, quiet: false, color: false }, clock),
      clock,
      '/srv/site',
    );
    for (let i = 1; i <= 12; i++) {
      clock.advance(1000);
      progress.onProgress(i, 12);
    }
    progress.stop();
    await new Promise((resolve) => setImmediate(resolve));
    expect(io.stderr()).toBe('Checked 5 of 12 pages and stylesheets\nChecked 10 of 12 pages and stylesheets\n');
  });

  it('reads the real check: verifySite reports each page and stylesheet to it', async () => {
    const clock = new FakeClock();
    const { reporter, updates } = recordingReporter(true);
    const progress = await verifyProgress(reporter, clock, 'x');
    await verifySite({
      directory: site(3),
      basePath: '',
      onProgress: (checked, total) => (clock.advance(200), progress.onProgress(checked, total)),
    });
    progress.stop();
    // 8 pages and the stylesheet, each drawn (200 ms apart).
    expect(updates.slice(1)).toEqual(
      Array.from({ length: 9 }, (_, i) => `Checking ${i + 1} of 9 pages and stylesheets`),
    );
  });
});
