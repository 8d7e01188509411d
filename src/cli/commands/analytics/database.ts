// The --db flag of the commands that read the local analytics database (query, report): the file
// given, else the default path under $XDG_DATA_HOME for the project in effect.
import type { QueryLimits } from '../../../analytics-store/query-limits.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../../errors.js';

export const DB_FLAG_HELP =
  'the analytics database (default: $XDG_DATA_HOME/mint-admin/<projectId>.duckdb, as `analytics sync` writes it)';

export async function databasePath(db: string | undefined, ctx: Context): Promise<string> {
  if (db !== undefined) {
    if (db.trim() === '') throw new UsageError('--db: give a file name');
    return db;
  }
  const { defaultDatabasePath } = await import('../../../analytics-store/db.js');
  return defaultDatabasePath(ctx.env, await ctx.projectId());
}

/**
 * Opens the database to read it; a sync writing it at the time is said in a reader's words. `limits`
 * bound what DuckDB may use for the queries run on it (a caller's SQL).
 */
export async function openDatabase(path: string, limits?: QueryLimits) {
  const { openForReading } = await import('../../../analytics-store/read.js');
  const { DatabaseBusyError } = await import('../../../analytics-store/errors.js');
  try {
    return await openForReading(path, undefined, limits);
  } catch (error) {
    if (!(error instanceof DatabaseBusyError)) throw error;
    const holder = error.holderPid ? ` (pid ${error.holderPid})` : '';
    throw new DatabaseBusyError(
      error.path,
      error.holderPid,
      error,
      `the analytics database ${path} is being written by another process${holder}, most likely \`analytics sync\`: read it once the sync has finished`,
    );
  }
}

/** `-o` must not name the database being read, nor its write-ahead log: the rows would replace it. */
export async function refuseOutputOverDatabase(output: string, db: string): Promise<void> {
  const { sameFile } = await import('../../../file-identity.js');
  for (const file of [db, `${db}.wal`]) {
    if (await sameFile(output, file))
      throw new UsageError(
        `-o ${output} is the analytics database ${db} reads (or its write-ahead log): the rows would overwrite it; give another file`,
      );
  }
}
