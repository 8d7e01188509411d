// Opening the analytics database. DuckDB's native binding is large and an optional peer dependency (no
// install brings it), so it is loaded here alone, with a dynamic import when a command first opens a
// database: --help, --version and every other command never load it (test/startup-imports.test.ts),
// and an install without it works until this is reached, which then prints the command that adds it
// (DuckDbMissingError).
import { chmodSync, existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { DatabaseBusyError, DUCKDB_PACKAGE, DuckDbMissingError, IncompatibleDatabaseError } from './errors.js';
import { makeDirectory } from '../make-directory.js';
import { schemaStatements } from './schema.js';
import { checkSchema } from './schema-check.js';

export type DuckDbModule = typeof import('@duckdb/node-api');
/** How the package is loaded; tests hand in one that fails to show the missing-package error. */
export type DuckDbLoader = () => Promise<DuckDbModule>;

const importDuckDb: DuckDbLoader = () => import('@duckdb/node-api');

/** The DuckDB module, or DuckDbMissingError when it cannot be loaded. */
export async function loadDuckDb(loader: DuckDbLoader = importDuckDb): Promise<DuckDbModule> {
  try {
    return await loader();
  } catch (error) {
    throw new DuckDbMissingError(error);
  }
}

export interface AnalyticsDb {
  readonly path: string;
  readonly instance: DuckDBInstance;
  readonly connection: DuckDBConnection;
  readonly duckdb: DuckDbModule;
  close(): void;
}

export interface OpenOptions {
  /** Opens the file read-only: no schema is created, and any write is refused by DuckDB. */
  readOnly?: boolean;
  loader?: DuckDbLoader;
}

/**
 * $XDG_DATA_HOME/mint-admin/<projectId>.duckdb, else ~/.local/share/mint-admin/<projectId>.duckdb
 * (a relative XDG path is ignored, as the spec says).
 */
export function defaultDatabasePath(env: Record<string, string | undefined>, projectId: string): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'share');
  return join(base, 'mint-admin', `${projectId}.duckdb`);
}

/**
 * Opens (creating when missing, unless read-only) the database at `path` with every table of
 * schema.ts. A new file's directory is made 0700 and the file 0600, like the config: it holds what
 * readers typed. A file another process holds is a DatabaseBusyError.
 */
export async function openAnalyticsDb(path: string, opts: OpenOptions = {}): Promise<AnalyticsDb> {
  const duckdb = await loadDuckDb(opts.loader);
  checkRegularFile(path);
  const fresh = !existsSync(path);
  if (!opts.readOnly) makeDirectory(dirname(path), 0o700);
  let instance: DuckDBInstance;
  try {
    instance = await duckdb.DuckDBInstance.create(path, opts.readOnly ? { access_mode: 'READ_ONLY' } : {});
  } catch (error) {
    throw notDuckDbOrRethrow(busyOrRethrow(error, path), path);
  }
  const connection = await instance.connect();
  try {
    if (!opts.readOnly) {
      // Before any table is made: a file of another shape, or another program's, is left as it was.
      await checkSchema({ path, connection, duckdb }, { complete: 'unless-empty' });
      // All tables or none: a file with some of them would be refused by the check above ever after.
      await connection.run('BEGIN TRANSACTION');
      try {
        for (const statement of schemaStatements()) await connection.run(statement);
        await connection.run('COMMIT');
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
      // DuckDB writes a write-ahead log beside the file too; both are created with the umask's mode.
      if (fresh) restrictDatabaseFiles(path);
    }
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
  return {
    path,
    instance,
    connection,
    duckdb,
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/**
 * The database and its write-ahead log made 0600. DuckDB creates the log with the umask's mode on the
 * first write after each checkpoint, so a writer calls this after a commit too (the default directory
 * is 0700 besides).
 */
export function restrictDatabaseFiles(path: string): void {
  for (const file of [path, `${path}.wal`]) {
    try {
      chmodSync(file, 0o600);
    } catch {
      // no log yet
    }
  }
}

/** DuckDB's "Could not set lock on file ... Conflicting lock is held in ... (PID n)" as our error. */
export function busyOrRethrow(error: unknown, path: string): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (!/Could not set lock on file|Conflicting lock/i.test(message)) return error;
  const pid = /PID (\d+)/.exec(message)?.[1];
  return new DatabaseBusyError(path, pid ? Number(pid) : undefined, error);
}

/**
 * A FIFO, a device or a directory at the path is refused before DuckDB opens it: its open of a FIFO
 * blocks in a thread until a writer comes, and the run then ignores Ctrl-C and SIGTERM.
 */
function checkRegularFile(path: string): void {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats || stats.isFile()) return;
  const kind = stats.isDirectory() ? 'a directory' : stats.isFIFO() ? 'a FIFO (named pipe)' : stats.isSocket() ? 'a socket' : 'a device';
  throw new IncompatibleDatabaseError(path, `it is ${kind}, not a file`);
}

/** DuckDB's words for a file it cannot open as a database (not one, or a newer storage format) as our error. */
function notDuckDbOrRethrow(error: unknown, path: string): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (/not a valid DuckDB database file/i.test(message)) return new IncompatibleDatabaseError(path, 'it is not a DuckDB database file', error);
  if (/database file with version number/i.test(message)) return new IncompatibleDatabaseError(path, 'it was written by a newer DuckDB than this one', error);
  return error;
}

export { DUCKDB_PACKAGE };
