// writeParquet writes each table into `.<table>.tmp-<pid>` and renames it into place, moving the old
// one to `.<table>.old-<pid>` for a moment. A run killed (-9) in between left those behind for good,
// and `gsutil rsync` uploaded them. A later run removes a dead run's, never a live process's. Real
// DuckDB and real directories.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAnalyticsDb, type AnalyticsDb } from '../../src/analytics-store/db.js';
import { writeParquet } from '../../src/analytics-store/parquet.js';
import { tempDir } from '../helpers/cli.js';

let dir: ReturnType<typeof tempDir> | undefined;
let db: AnalyticsDb | undefined;
afterEach(() => {
  db?.close();
  dir?.cleanup();
});

/** A directory as a killed run leaves it, with a file inside. */
function leftover(parquet: string, name: string): void {
  mkdirSync(join(parquet, name, 'date=2026-11-20'), { recursive: true });
  writeFileSync(join(parquet, name, 'date=2026-11-20', 'data_0.parquet'), 'half');
}

describe('writeParquet after a run that was killed mid-write', () => {
  it("removes a dead run's temporary and old directories, keeps a live process's and anything else", async () => {
    dir = tempDir();
    db = await openAnalyticsDb(join(dir.path, 'a.duckdb'));
    await db.connection.run(
      `INSERT INTO searches VALUES ('2026-11-16', 'install', 40, 0.5, '/install', '2026-11-16 09:00:00')`,
    );
    const parquet = join(dir.path, 'pq');
    mkdirSync(join(parquet, 'searches'), { recursive: true });
    const dead = 999_999_999; // past any pid_max
    leftover(parquet, `.searches.tmp-${dead}`);
    leftover(parquet, `.views.old-${dead}`);
    // Our own pid, from an earlier run that had it (a container's PID 1): its .old- made the rename fail.
    leftover(parquet, `.searches.old-${process.pid}`);
    leftover(parquet, `.feedback.tmp-${process.ppid}`); // another sync, alive, into the same directory
    leftover(parquet, '.keep-me');
    writeFileSync(join(parquet, '.searches.tmp-12x'), 'not ours');

    const written = await writeParquet(db.connection, parquet);

    expect(written.map((t) => t.table)).toContain('searches');
    expect(
      readdirSync(parquet)
        .filter((n) => n.startsWith('.'))
        .sort(),
    ).toEqual(['.feedback.tmp-' + process.ppid, '.keep-me', '.searches.tmp-12x'].sort());
    expect(existsSync(join(parquet, 'searches', 'date=2026-11-16'))).toBe(true);
  });
});

// DuckDB's PARTITION_BY keeps a writer and its buffers for every partition of one COPY: the sync's
// memory grew with the number of distinct days (docs/performance.md). Shown under a small memory bound
// on the connection, so the test asserts on DuckDB's own error rather than on the process's size.
describe('writeParquet with many distinct days', () => {
  it('writes every day (and the days without a date) within a memory bound a single COPY of them all exceeds', async () => {
    dir = tempDir();
    db = await openAnalyticsDb(join(dir.path, 'a.duckdb'));
    const days = 2000;
    await db.connection.run(
      `INSERT INTO searches SELECT DATE '1900-01-01' + (n % ${days})::INTEGER, 'q' || n, 1, 0, NULL, NULL FROM range(${days * 2}) t(n)`,
    );
    await db.connection.run(`INSERT INTO conversations (id, date) VALUES ('c1', NULL), ('c2', DATE '2026-01-01')`);
    await db.connection.run(`SET memory_limit = '32MB'`);
    await db.connection.run('SET threads = 1');
    const parquet = join(dir.path, 'pq');

    const written = await writeParquet(db.connection, parquet);

    expect(written.find((t) => t.table === 'searches')?.rows).toBe(days * 2);
    const partitions = readdirSync(join(parquet, 'searches'));
    expect(partitions).toHaveLength(days);
    expect(partitions).toContain('date=1900-01-01');
    expect(readdirSync(join(parquet, 'conversations')).sort()).toEqual([
      'date=2026-01-01',
      'date=__HIVE_DEFAULT_PARTITION__',
    ]);
    const back = await db.connection.runAndReadAll(
      `SELECT count(*)::INTEGER AS n, count(DISTINCT date)::INTEGER AS d FROM read_parquet('${join(parquet, 'searches')}/*/*.parquet', hive_partitioning = true)`,
    );
    expect(back.getRowObjectsJson()).toEqual([{ n: days * 2, d: days }]);
  });
});
