// One sync of one database, for every face: take the lock, open the database, read within the budget,
// write Parquet when asked, and always close and unlock. The words a person reads are the face's.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ApiClient } from '../../api/client.js';
import type { Clock } from '../../clock.js';
import { MintAdminError, UsageError } from '../../errors.js';
import { DatabaseWriteError, writeFailureKind, writeProblemOf } from '../errors.js';
import { makeDirectory } from '../../make-directory.js';
import { openAnalyticsDb, type DuckDbLoader } from '../db.js';
import { DATA_TABLES } from '../schema.js';
import { lockDatabase } from '../lock.js';
import { writeParquet, type ParquetTable } from '../parquet.js';
import { RequestBudget, type LedgerReader } from './budget.js';
import { runSync, type SyncEvent, type SyncSummary } from './engine.js';

export { DAY_MS, DEFAULT_REACH_DAYS, startOfUtcDay, utcDay } from './plan.js';
export type { SyncEvent, SyncSummary } from './engine.js';
export type { BudgetStop } from './budget.js';

export interface SyncDatabaseOptions {
  path: string;
  api: ApiClient;
  projectId: string;
  /** --from: see SyncOptions.from (kept for later runs; default DEFAULT_REACH_DAYS ago). */
  from?: number | undefined;
  maxRequests: number;
  /** The requests every command sent in the last hour (the CLI's ledger file); none: this run's own count only. */
  ledger?: LedgerReader | undefined;
  clock: Clock;
  signal?: AbortSignal | undefined;
  parquet?: string | undefined;
  onPage?: (event: SyncEvent) => void;
  loader?: DuckDbLoader;
  /** How long a second sync waits for the first before refusing (default 5 s). */
  lockWaitMs?: number;
}

export interface SyncResult extends SyncSummary {
  path: string;
  /** Rows each table holds after the run. */
  tables: Record<string, number>;
  parquet?: ParquetTable[] | undefined;
}

export async function syncDatabase(opts: SyncDatabaseOptions): Promise<SyncResult> {
  // Made before any request: a directory that cannot be made (a file there, a read-only or virtual
  // file system) is found before the budget is spent, not after.
  if (opts.parquet !== undefined) parquetDirectory(opts.parquet);
  const unlock = await lockDatabase(opts.path, { clock: opts.clock, waitMs: opts.lockWaitMs, signal: opts.signal });
  try {
    return await syncOpenDatabase(opts);
  } catch (error) {
    // A write that fails outside a page's own (the checkpoint after a commit, the tables' first
    // making, the close) is the same failure for the user: the file could not be written.
    if (error instanceof MintAdminError || writeFailureKind(error) === 'refused') throw error;
    throw new DatabaseWriteError(opts.path, writeProblemOf(error), error);
  } finally {
    unlock();
  }
}

async function syncOpenDatabase(opts: SyncDatabaseOptions): Promise<SyncResult> {
  const db = await openAnalyticsDb(opts.path, { loader: opts.loader });
  try {
    const budget = new RequestBudget(opts.maxRequests, opts.ledger);
    const summary = await runSync({
      connection: db.connection,
      path: opts.path,
      api: opts.api,
      projectId: opts.projectId,
      from: opts.from,
      clock: opts.clock,
      budget,
      signal: opts.signal,
      onPage: opts.onPage,
    });
    const tables = await rowCounts(db.connection);
    const parquet = opts.parquet === undefined ? undefined : await writeParquet(db.connection, opts.parquet);
    return { ...summary, path: opts.path, tables, parquet };
  } finally {
    db.close();
  }
}

function parquetDirectory(directory: string): void {
  try {
    makeDirectory(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOTDIR' || code === 'EEXIST'
        ? 'a file is in the way'
        : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
          ? 'not writable'
          : (error as Error).message;
    throw new UsageError(
      `the Parquet directory ${directory} cannot be made (${why}): give a directory, or a path where one can be made`,
    );
  }
}

async function rowCounts(connection: DuckDBConnection): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of DATA_TABLES) {
    const r = await connection.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM ${table}`);
    counts[table] = Number(r.getRowObjectsJson()[0]?.n ?? 0);
  }
  return counts;
}
