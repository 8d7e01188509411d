// The database's tables as Hive-partitioned Parquet (<dir>/<table>/date=YYYY-MM-DD/*.parquet), which
// BigQuery, Snowflake, Athena, Spark and DuckDB read as is. Each table is written by DuckDB's own
// COPY ... PARTITION_BY into a temporary directory beside its final place, then renamed over it, so a
// reader sees the old table or the new one, never half of one. One COPY covers a bounded run of days:
// DuckDB keeps a writer and its buffers for every partition a COPY writes, so one COPY of a whole
// table made the sync's memory grow with the number of distinct days.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirectory } from '../make-directory.js';
import { processAlive } from '../lock-file.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DATA_TABLES, type DataTable } from './schema.js';

export interface ParquetTable {
  table: DataTable;
  directory: string;
  rows: number;
}

export async function writeParquet(connection: DuckDBConnection, directory: string): Promise<ParquetTable[]> {
  makeDirectory(directory);
  removeLeftovers(directory);
  const written: ParquetTable[] = [];
  for (const table of DATA_TABLES) {
    const final = join(directory, table);
    const temp = join(directory, `.${table}.tmp-${process.pid}`);
    rmSync(temp, { recursive: true, force: true });
    const rows = Number(
      (await connection.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM ${table}`)).getRowObjectsJson()[0]?.n ?? 0,
    );
    // An item without a timestamp has no day: its partition is date=__HIVE_DEFAULT_PARTITION__, as Hive names it.
    const quoted = temp.replace(/'/g, "''");
    mkdirSync(temp, { recursive: true });
    if (rows > 0) {
      for (const days of await dayRuns(connection, table)) {
        await connection.run(
          `COPY (SELECT * FROM ${table} WHERE ${days}) TO '${quoted}' (FORMAT parquet, PARTITION_BY (date), OVERWRITE_OR_IGNORE)`,
        );
      }
    }
    const old = join(directory, `.${table}.old-${process.pid}`);
    if (existsSync(final)) renameSync(final, old);
    renameSync(temp, final);
    rmSync(old, { recursive: true, force: true });
    written.push({ table, directory: final, rows });
  }
  return written;
}

/** Distinct days one COPY writes at most: enough that a table takes few scans, few enough to stay small. */
const DAYS_PER_COPY = 100;

/**
 * The table's days in runs of DAYS_PER_COPY, each as a WHERE condition (days as numbers from the
 * epoch, so no date is formatted and parsed back), and the rows without a day as one more. Each run
 * is a range, so a COPY writes its days only, and no two write the same partition.
 */
async function dayRuns(connection: DuckDBConnection, table: DataTable): Promise<string[]> {
  const runs = await connection.runAndReadAll(
    `SELECT min(day)::BIGINT AS first, max(day)::BIGINT AS last FROM (
       SELECT day, (row_number() OVER (ORDER BY day) - 1) // ${DAYS_PER_COPY} AS run
       FROM (SELECT DISTINCT date - DATE '1970-01-01' AS day FROM ${table} WHERE date IS NOT NULL)
     ) GROUP BY run ORDER BY first`,
  );
  const conditions = runs
    .getRowObjectsJson()
    .map(({ first, last }) => `date - DATE '1970-01-01' BETWEEN ${Number(first)} AND ${Number(last)}`);
  const undated = await connection.runAndReadAll(`SELECT 1 FROM ${table} WHERE date IS NULL LIMIT 1`);
  if (undated.currentRowCount > 0) conditions.push('date IS NULL');
  return conditions;
}

const LEFTOVER = new RegExp(`^\\.(${DATA_TABLES.join('|')})\\.(?:tmp|old)-(\\d+)$`);

/**
 * The temporary and old table directories of a run killed mid-write (kill -9 gives no chance to clean
 * up): never read, but `gsutil rsync` uploads them, and an old one of our own pid (a container's PID 1
 * on every start) made the rename into it fail. A live process's are its own: another database's sync
 * may write into the same directory (the database lock keeps out a second sync of this one).
 */
function removeLeftovers(directory: string): void {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const pid = Number(LEFTOVER.exec(entry.name)?.[2]);
    if (!entry.isDirectory() || !Number.isSafeInteger(pid)) continue;
    if (pid !== process.pid && processAlive(pid)) continue;
    rmSync(join(directory, entry.name), { recursive: true, force: true });
  }
}
