// A disk that fills during `analytics sync`: on a real small tmpfs the database cannot take the next
// page; the run stops with one line saying so and that every page before it is kept (exit 1), and
// once there is room the next run ends with exactly the rows of one uninterrupted sync.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DAY_MS, startOfUtcDay } from '../../src/analytics-store/sync/plan.js';
import { expectedSync, storedCounts } from '../analytics-store/expected.js';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { CAN_MOUNT_TMPFS, TMPFS_SKIP_NOTE } from '../helpers/tmpfs.js';

const t = useSandbox({ searchTermCount: 3000, analytics: { pages: 400, feedback: 600, conversations: 6000 } });
const fromDay = () => new Date(startOfUtcDay(Date.now()) - 8 * DAY_MS).toISOString().slice(0, 10);

describe.skipIf(!CAN_MOUNT_TMPFS)(`analytics sync on a disk that fills${TMPFS_SKIP_NOTE}`, () => {
  it('stops saying the disk is full and nothing stored is lost; with room again the rerun completes it exactly', async () => {
    const vol = join(t.home, 'vol');
    mkdirSync(vol);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=700k', 'tmpfs', vol]).status).toBe(0);
    try {
      const db = join(vol, 'a.duckdb');
      const expected = await expectedSync(t.sandbox, Date.parse(fromDay()), Date.now());
      const args = ['analytics', 'sync', '--db', db, '--from', fromDay(), '--max-requests', '100'];
      const full = await runCli(args, { env: t.env() });
      expect(full.code).toBe(1);
      expect(full.stderr).toMatch(
        /^error: the analytics database .*a\.duckdb could not be written \(.*\): every page stored before it is kept; make room and run `mint-admin analytics sync` again to continue$/m,
      );
      expect(spawnSync('mount', ['-o', 'remount,size=64m', vol]).status).toBe(0);
      const rerun = await runCli(args, { env: t.env() });
      expect(rerun.code).toBe(0);
      const stored = await storedCounts(db);
      expect(stored.rows).toEqual(expected.rows);
      expect(stored.distinct).toEqual(expected.rows);
    } finally {
      spawnSync('umount', ['-l', vol]);
    }
  });
});
