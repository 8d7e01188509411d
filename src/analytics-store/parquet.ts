// The database's tables as Hive-partitioned Parquet (<dir>/<table>/date=YYYY-MM-DD/*.parquet), which
// BigQuery, Snowflake, Athena, Spark and DuckDB read as is. Each table is written by DuckDB's own
// COPY ... PARTITION_BY into a temporary directory beside its final place, then renamed over it, so a
// reader sees the old table or the new one, never half of one.
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
    const rows = Number((await connection.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM ${table}`)).getRowObjectsJson()[0]?.n ?? 0);
    // An item without a timestamp has no day: its partition is date=__HIVE_DEFAULT_PARTITION__, as Hive names it.
    const quoted = temp.replace(/'/g, "''");
    if (rows > 0) await connection.run(`COPY ${table} TO '${quoted}' (FORMAT parquet, PARTITION_BY (date), OVERWRITE_OR_IGNORE)`);
    else mkdirSync(temp, { recursive: true });
    const old = join(directory, `.${table}.old-${process.pid}`);
    if (existsSync(final)) renameSync(final, old);
    renameSync(temp, final);
    rmSync(old, { recursive: true, force: true });
    written.push({ table, directory: final, rows });
  }
  return written;
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
