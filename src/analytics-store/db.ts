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
import { privateNewPath, privatePath, removeImportedLog } from './private-path.js';
import type { QueryLimits } from './query-limits.js';

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
  /** Memory, temporary disk and threads DuckDB may use (a reader's, for callers' queries). */
  limits?: QueryLimits | undefined;
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
  const fresh = !opts.readOnly && !existsSync(path);
  if (fresh) makeDirectory(dirname(path), 0o700);
  // DuckDB never sees the user's path: see private-path.ts.
  const side = fresh ? privateNewPath(path) : privatePath(path);
  const publish = fresh ? (side as ReturnType<typeof privateNewPath>).publish : undefined;
  let instance: DuckDBInstance;
  try {
    instance = await duckdb.DuckDBInstance.create(side.path, instanceOptions(opts));
  } catch (error) {
    side.remove();
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
      // A new file is linked into place once it holds every table: a reader never finds half of one.
      if (publish) {
        await connection.run('CHECKPOINT');
        publish();
      }
      // The log left beside the file is in it now; kept, it would be replayed a second time.
      if (side.importedLog) {
        await connection.run('CHECKPOINT');
        removeImportedLog(side.importedLog);
      }
    }
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    side.remove();
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
      side.remove();
    },
  };
}

/**
 * A writer checkpoints at every commit: its log sits in the private directory, which a process killed
 * before it closes leaves behind where the next run does not look. A reader's queries are bounded.
 */
function instanceOptions(opts: OpenOptions): Record<string, string> {
  if (!opts.readOnly) return { checkpoint_threshold: '0b' };
  const options: Record<string, string> = { access_mode: 'READ_ONLY' };
  if (opts.limits) {
    options.memory_limit = opts.limits.memory;
    options.max_temp_directory_size = opts.limits.temporaryDisk;
    options.threads = String(opts.limits.threads);
  }
  return options;
}

/**
 * The database made 0600 (a file made by an older version with the umask's mode). Its write-ahead log
 * is DuckDB's, in the private directory (private-path.ts), never beside the file: nothing here
 * touches a path someone else could have put a link at.
 */
export function restrictDatabaseFiles(path: string): void {
  try {
    chmodSync(path, 0o600);
  } catch {
    // removed under us: the next open says so
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
  const kind = stats.isDirectory()
    ? 'a directory'
    : stats.isFIFO()
      ? 'a FIFO (named pipe)'
      : stats.isSocket()
        ? 'a socket'
        : 'a device';
  throw new IncompatibleDatabaseError(path, `it is ${kind}, not a file`);
}

/** DuckDB's words for a file it cannot open as a database (not one, or a newer storage format) as our error. */
function notDuckDbOrRethrow(error: unknown, path: string): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (/not a valid DuckDB database file/i.test(message))
    return new IncompatibleDatabaseError(path, 'it is not a DuckDB database file', error);
  if (/database file with version number/i.test(message))
    return new IncompatibleDatabaseError(path, 'it was written by a newer DuckDB than this one', error);
  return error;
}

export { DUCKDB_PACKAGE };
