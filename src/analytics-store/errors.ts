// How the analytics store fails on its own side, as data: the DuckDB package (an optional peer) is not
// installed, or another sync holds the database. The CLI's table gives each its exit code.
import { fileURLToPath } from 'node:url';
import { MintAdminError, UsageError } from '../errors.js';
import { DUCKDB_PACKAGE, warehouseInstallCommand } from './warehouse-install.js';

export { DUCKDB_PACKAGE };

/** `@duckdb/node-api` cannot be loaded: not installed (the package leaves it out), or its native binding does not fit this machine. */
export class DuckDbMissingError extends MintAdminError {
  readonly packageName = DUCKDB_PACKAGE;
  /** The command that adds it to this install (warehouse-install.ts). */
  readonly installCommand: string;
  constructor(cause: unknown, modulePath: string = fileURLToPath(import.meta.url)) {
    const { command, project } = warehouseInstallCommand(modulePath);
    super(
      `the analytics warehouse needs DuckDB (${DUCKDB_PACKAGE}), which mint-admin does not install by itself (or whose native binding does not load here). ` +
        `Add it with: ${command}${project ? ` (in ${project})` : ''}`,
      { cause },
    );
    this.installCommand = command;
  }
}

/** Another process (a sync, a query) holds the database file; nothing was read or written. */
export class DatabaseBusyError extends MintAdminError {
  constructor(
    readonly path: string,
    /** The process that holds it, when DuckDB or the lock file says. */
    readonly holderPid: number | undefined,
    cause?: unknown,
    /** The whole sentence, in the words of a face that knows what was being done (a reader, a sync). */
    inWords?: string,
  ) {
    super(
      inWords ??
        `the analytics database ${path} is in use by another process${holderPid ? ` (pid ${holderPid})` : ''}: a second sync waits for the first to finish rather than share the file; try again when it has`,
      { cause, nextStepSaid: inWords !== undefined },
    );
  }
}

/**
 * Why a page was not stored, as the user can act on it: `disk-full` (make room), `io` (the file or
 * its disk failed otherwise), `refused` (DuckDB refused what the page holds: not the disk at all, so
 * the words must not send the user off to free space that was never short).
 */
export type WriteFailureKind = 'disk-full' | 'io' | 'refused';

/** A page and its checkpoint could not be stored; every page before it is. */
export class DatabaseWriteError extends MintAdminError {
  readonly kind: WriteFailureKind;
  constructor(
    readonly path: string,
    /** What went wrong, in a few words ("No space left on device"). */
    readonly problem: string,
    cause: unknown,
    /** What to do about it, in the words of whoever shows the message. */
    nextStep?: string,
  ) {
    const kind = writeFailureKind(cause);
    const what =
      kind === 'refused'
        ? `the analytics database ${path} refused a page (${problem}): every page stored before it is kept`
        : `the analytics database ${path} could not be written (${problem}): every page stored before it is kept`;
    super(what, { cause, nextStep, nextStepSaid: nextStep !== undefined });
    this.kind = kind;
  }
}

/**
 * The kind of a failed write, from DuckDB's words (a dependency's message, the only data there is:
 * test/errors-structure.test.ts allows this file to read it): its errors carry no code, only a type prefix
 * ("IO Error: ...", "Invalid Input Error: ...") and, for the file system, the system's own message.
 * Only the system's words for a full disk or quota make it `disk-full`.
 */
export function writeFailureKind(error: unknown): WriteFailureKind {
  const message = error instanceof Error ? error.message : String(error);
  if (/no space left on device|disk quota exceeded|\bENOSPC\b|\bEDQUOT\b|disk is full/i.test(message))
    return 'disk-full';
  if (
    /^(IO|TransactionContext|FATAL|Fatal) Error\b|could not (write|read|open|fsync|truncate|sync)|failed to commit|input\/output error|\bEIO\b/i.test(
      message,
    )
  )
    return 'io';
  return 'refused';
}

/**
 * "No space left on device" out of DuckDB's "TransactionContext Error: Failed to commit: Could not
 * write file ...: No space left on device". A refusal is named by its first clause instead: its last
 * one may be DuckDB's echo of the input ("Input: ..."), which is reader text, not a cause.
 */
export function writeProblemOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (writeFailureKind(error) === 'refused') {
    const cause = message.split(/\s+Input:/)[0]!.trim();
    return cause.length > 0 && cause.length < 160 ? cause : `${cause.slice(0, 157)}...`;
  }
  const last = message.split(': ').pop()?.trim();
  return last && last.length < 120 ? last : 'an I/O error';
}

/**
 * The file at the database's path is not an analytics database this version can use: not a DuckDB
 * file, a DuckDB file of another program, or tables whose columns differ from this version's (a newer
 * mint-admin made them). Nothing was read or written.
 */
export class IncompatibleDatabaseError extends MintAdminError {
  constructor(
    readonly path: string,
    /** What does not fit, in a few words ("table searches has columns date, search_query, hits, extra"). */
    readonly problem: string,
    cause?: unknown,
  ) {
    super(
      `${path} is not an analytics database this version of mint-admin can use: ${problem}; give --db a new file to sync into (or use the mint-admin version that made it)`,
      cause === undefined ? undefined : { cause },
    );
  }
}

/**
 * What sits beside the database where DuckDB keeps its write-ahead log is a symbolic link, a directory
 * or a FIFO: not a log DuckDB made. Opened, it would be read as the database's log or written through;
 * nothing was read or written.
 */
export class DatabaseSideFileError extends UsageError {
  constructor(
    readonly path: string,
    /** What it is ("a symbolic link"). */
    readonly what: string,
  ) {
    super(
      `${path} is ${what}, not a write-ahead log DuckDB made: the analytics database is neither opened nor written while it is there; remove it if nothing of yours put it there, then try again`,
    );
  }
}
