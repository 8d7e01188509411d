// How reading the analytics database fails on the caller's side, as data: no database yet, SQL that
// would change something, SQL the database cannot run. All three are the caller's input, so the CLI
// gives them the usage exit code (2): nothing was read, nothing was sent.
import { UsageError } from '../errors.js';

/** No database at the path: nothing has been synced there yet. */
export class NoDatabaseError extends UsageError {
  constructor(readonly path: string) {
    super(
      `no analytics database at ${path}: run \`mint-admin analytics sync\` first (or pass --db <file> to read another one)`,
    );
  }
}

/** The SQL would write, change a setting, or reach outside the database: refused before it runs. */
export class QueryRefusedError extends UsageError {
  constructor(
    message: string,
    /** DuckDB's kind of statement ("INSERT", "COPY", "ATTACH"...), or "FILE" for file access. */
    readonly statementKind: string,
  ) {
    super(message);
  }
}

/** DuckDB could not read the SQL (a syntax error, an unknown table or column). */
export class InvalidQueryError extends UsageError {}
