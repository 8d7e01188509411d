// `analytics query -o` on a disk that fills: as a list's, the file is cut back to its last whole row
// and the command says so (exit 1, ListOutputError). On a real 1 MB tmpfs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { CAN_MOUNT_TMPFS, TMPFS_SKIP_NOTE } from '../helpers/tmpfs.js';

describe.skipIf(!CAN_MOUNT_TMPFS)(`analytics query -o on a disk that fills${TMPFS_SKIP_NOTE}`, () => {
  const home = tempDir();
  const vol = join(home.path, 'vol');
  const db = join(home.path, 'a.duckdb');
  beforeAll(async () => {
    (await openAnalyticsDb(db)).close();
    mkdirSync(vol);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', vol]).status).toBe(0);
  });
  afterAll(() => {
    spawnSync('umount', [vol]);
    home.cleanup();
  });

  it('ends with a whole row and says how many rows it holds', async () => {
    const out = join(vol, 'rows.csv');
    const r = await runCli([
      'analytics',
      'query',
      "SELECT range AS n, repeat('x', 50) AS s FROM range(100000)",
      '--db',
      db,
      '--format',
      'csv',
      '-o',
      out,
    ]);
    expect(r.code).toBe(1);
    const held = Number(/it holds the (\d+) rows written before, ending with a whole row/.exec(r.stderr)?.[1]);
    expect(r.stderr).toMatch(/^error: disk full while writing /);
    expect(held).toBeGreaterThan(0);
    const text = readFileSync(out, 'utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    const lines = text.split('\r\n').slice(1, -1);
    expect(lines).toHaveLength(held);
    expect(lines.at(-1)).toBe(`${held - 1},${'x'.repeat(50)}`);
  });
});
