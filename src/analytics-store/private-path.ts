// Where DuckDB opens the database: a hard link to it inside a directory this process makes (0700).
// DuckDB lets a connection whose external access is off still open any path that starts with the
// database's path (its temporary directory `<db>.tmp/`, its logs `<db>.wal*`, but also `<db>x`), and
// it follows symbolic links there; it resolves a symbolic link to the database first. So a link
// planted beside the database (a repository, a shared workspace) let a query read any file, and let a
// sync write its log through it. Through a hard link in a private directory, every path DuckDB
// allows or writes besides the database itself is inside that directory, where nobody else can put
// anything: nothing beside the user's file is ever opened by DuckDB.
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  linkSync,
  mkdtempSync,
  openSync,
  readSync,
  realpathSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { DatabaseSideFileError } from './errors.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

export interface PrivatePath {
  /** The path DuckDB is given: a hard link to the database in a directory only this process writes. */
  readonly path: string;
  /** The database's write-ahead log beside the real file, copied in; a writer removes it once it is checkpointed. */
  readonly importedLog: string | undefined;
  /** Removes the directory (the link, DuckDB's temporary files and checkpointed log with it). */
  remove(): void;
}

const NAME = 'analytics.duckdb';

/**
 * A private hard link to the database at `database` (which must exist). The directory is made in the
 * system's temporary directory (sticky, so nobody can rename it away and put another in its place),
 * or, when that is another filesystem (a hard link cannot cross one), beside the database.
 */
export function privatePath(database: string): PrivatePath {
  const real = realpathSync(database);
  const directory = privateDirectory(dirname(real), basename(real));
  const path = join(directory, NAME);
  try {
    linkSync(real, path);
    const importedLog = importLog(`${real}.wal`, `${path}.wal`) ? `${real}.wal` : undefined;
    return { path, importedLog, remove: () => rmSync(directory, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A new database is made by DuckDB in the private directory, then `publish` links it into place at
 * `database`: link() never follows a link and fails on anything already there. DuckDB cannot start
 * from an empty file, so the file cannot be made first and linked the other way.
 */
export function privateNewPath(database: string): PrivatePath & { publish(): void } {
  const parent = realpathSync(dirname(database));
  const directory = privateDirectory(parent, basename(database));
  const path = join(directory, NAME);
  return {
    path,
    importedLog: undefined,
    remove: () => rmSync(directory, { recursive: true, force: true }),
    publish() {
      // It holds what readers typed, like the config; made with the umask's mode in a 0700 directory.
      chmodSync(path, 0o600);
      linkSync(path, join(parent, basename(database)));
    },
  };
}

function privateDirectory(parent: string, name: string): string {
  const temporary = tmpdir();
  const sameFilesystem = statSync(temporary).dev === statSync(parent).dev;
  return mkdtempSync(sameFilesystem ? join(temporary, 'mint-admin-db-') : join(parent, `.${name}.mint-admin-`));
}

/**
 * The log a process left beside the database (one killed before its checkpoint, or an older
 * mint-admin) holds committed rows: copied into the private directory, so DuckDB replays it from
 * there. Read without following a link; a link or anything but a file there is refused.
 */
function importLog(log: string, copy: string): boolean {
  let fd: number;
  try {
    fd = openSync(log, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code === 'ELOOP') throw new DatabaseSideFileError(log, 'a symbolic link');
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      throw new DatabaseSideFileError(
        log,
        stats.isDirectory() ? 'a directory' : stats.isFIFO() ? 'a FIFO (named pipe)' : 'not a file',
      );
    const out = openSync(copy, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
    try {
      const buffer = Buffer.alloc(1 << 20);
      for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) writeSync(out, buffer, 0, n);
    } finally {
      closeSync(out);
    }
    return true;
  } finally {
    closeSync(fd);
  }
}

/** The log beside the database, once its rows are in the file: unlink never follows a link. */
export function removeImportedLog(log: string): void {
  try {
    unlinkSync(log);
  } catch {
    // gone already
  }
}
