// Opening the analytics database to read it (query, report): read-only, and locked down so no
// statement can reach a file, an extension or a setting (the first two layers of query.ts). The
// lock-down is DuckDB's own settings, set on the connection before any caller's SQL runs and then
// locked, so nothing that follows can undo them.
import { existsSync } from 'node:fs';
import { openAnalyticsDb, type AnalyticsDb, type DuckDbLoader } from './db.js';
import { NoDatabaseError } from './read-errors.js';
import type { QueryLimits } from './query-limits.js';

const LOCK_DOWN = [
  'SET enable_external_access = false',
  'SET autoinstall_known_extensions = false',
  'SET autoload_known_extensions = false',
  // Last: from here on no setting above can be changed back.
  'SET lock_configuration = true',
];

/**
 * The database at `path`, read-only and locked down; NoDatabaseError when there is none. With
 * `limits`, DuckDB's memory, temporary disk and threads are bounded (set before the lock, so no
 * query can raise them).
 */
export async function openForReading(path: string, loader?: DuckDbLoader, limits?: QueryLimits): Promise<AnalyticsDb> {
  // Checked first: DuckDB's read-only open of a missing file is an "IO Error" that names no remedy.
  if (!existsSync(path)) throw new NoDatabaseError(path);
  const db = await openAnalyticsDb(path, { readOnly: true, loader, limits });
  try {
    for (const statement of LOCK_DOWN) await db.connection.run(statement);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
