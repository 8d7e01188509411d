// `analytics query`: read-only SQL over the local analytics database. Read-only is structural, in
// three layers, none of them a pattern over the SQL text:
// 1. the database is opened READ_ONLY (read.ts), so no table can be written;
// 2. with external access off, the extension autoloader off and the configuration locked (read.ts),
//    so no statement can read or write a file (COPY TO, EXPORT, ATTACH, read_csv('/etc/...'): the
//    admin key's config file included), install an extension, or change a setting;
// 3. DuckDB's own parser classifies the statement (extractStatements, then prepare), and only a
//    SELECT runs: SHOW, DESCRIBE, SUMMARIZE, FROM-first queries and PRAGMA show_tables are SELECTs to
//    DuckDB; SET, PRAGMA with effects, CALL, CREATE TEMP, CHECKPOINT, BEGIN, EXPLAIN (EXPLAIN ANALYZE
//    runs its statement) are not. A refusal happens before anything runs.
// What it may use is bounded too (query-limits.ts): memory, temporary disk, time and the size of what
// a chunk of rows becomes in JavaScript.
import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBType } from '@duckdb/node-api';
import { UsageError } from '../errors.js';
import { InvalidQueryError, QueryRefusedError } from './read-errors.js';
import { chunkElements } from './chunk-size.js';
import { boundOf, QueryLimitError, resultSizeBound, timeBound, type QueryLimits } from './query-limits.js';

/** A JSON value as a query's rows hold it. */
export type Cell = string | number | boolean | null | Cell[] | { [key: string]: Cell };

export interface QueryColumn {
  name: string;
  /** DuckDB's type, as SQL writes it: "VARCHAR", "BIGINT", "DATE", "DECIMAL(5,2)". */
  type: string;
  /** Numbers: right-aligned in a table, numbers in JSON. */
  numeric: boolean;
}

export interface QueryResult {
  columns: QueryColumn[];
  /** The rows a chunk at a time (DuckDB's vectors, ~2048 rows), so a large result never sits in memory whole. */
  chunks(): AsyncIterable<Cell[][]>;
}

/** DuckDB's statement types by number (@duckdb/node-bindings' StatementType), for messages. */
const STATEMENT_KINDS = [
  'INVALID',
  'SELECT',
  'INSERT',
  'UPDATE',
  'EXPLAIN',
  'DELETE',
  'PREPARE',
  'CREATE',
  'EXECUTE',
  'ALTER',
  'TRANSACTION',
  'COPY',
  'ANALYZE',
  'SET',
  'CREATE FUNCTION',
  'DROP',
  'EXPORT',
  'PRAGMA',
  'VACUUM',
  'CALL',
  'SET',
  'INSTALL or LOAD',
  'RELATION',
  'EXTENSION',
  'LOGICAL PLAN',
  'ATTACH',
  'DETACH',
  'MULTI',
  'COPY DATABASE',
  'UPDATE EXTENSIONS',
  'MERGE INTO',
] as const;
const SELECT = 1;

/**
 * Checks `sql` (one read-only statement) and runs it; QueryRefusedError or InvalidQueryError otherwise.
 * With `limits`, a query past its time or result-size bound (or DuckDB's memory and temporary-disk
 * ones, set when the database was opened) is stopped with a QueryLimitError.
 */
export async function runReadOnlyQuery(
  connection: DuckDBConnection,
  sql: string,
  signal?: AbortSignal,
  limits?: QueryLimits,
): Promise<QueryResult> {
  const duckdb = await import('@duckdb/node-api');
  const statement = await readOnlyStatement(connection, sql);
  // DuckDB runs a query in its own threads, deaf to the event loop: a scan of billions of rows went on
  // past Ctrl-C (and an MCP cancel) for as long as it took. An abort interrupts it, and so does the
  // time bound.
  signal?.throwIfAborted();
  const interrupt = () => connection.interrupt();
  signal?.addEventListener('abort', interrupt, { once: true });
  let timedOut = false;
  const timer = limits
    ? setTimeout(() => {
        timedOut = true;
        connection.interrupt();
      }, limits.timeMs)
    : undefined;
  timer?.unref();
  const stop = () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', interrupt);
  };
  const interrupted = (error: unknown): Error => {
    if (signal?.aborted) return signal.reason as Error;
    if (timedOut && limits) return timeBound(limits);
    return (limits && boundOf(error, limits)) || asQueryError(error);
  };
  const result = await statement.stream().catch((error: unknown) => {
    stop();
    throw interrupted(error);
  });
  const columns = result.columnNames().map((name, i) => column(name, result.columnType(i)));
  return {
    columns,
    async *chunks() {
      try {
        for await (const chunk of result) {
          if (chunk.rowCount === 0) continue;
          if (limits && chunkElements(chunk, duckdb, limits.chunkElements) > limits.chunkElements)
            throw resultSizeBound(limits);
          const rows = chunk.convertRows(duckdb.JsonDuckDBValueConverter);
          yield rows.map((row) => row.map((cell, i) => asCell(cell as Cell, columns[i]!)));
        }
        // An interrupt between two chunks ends DuckDB's stream quietly, as if the rows were all there.
        signal?.throwIfAborted();
        if (timedOut && limits) throw timeBound(limits);
      } catch (error) {
        if (error instanceof QueryLimitError) throw error;
        throw interrupted(error);
      } finally {
        stop();
      }
    },
  };
}

async function readOnlyStatement(connection: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  // DuckDB's extractor fails without a word on text that holds no statement.
  if (sql.replace(/;/g, '').trim() === '')
    throw new UsageError('give a SQL statement, e.g. "SELECT * FROM searches LIMIT 10"');
  const extracted = await connection.extractStatements(sql).catch((error: unknown) => {
    throw asQueryError(error);
  });
  if (extracted.count !== 1)
    throw new UsageError(`give one SQL statement at a time (this text holds ${extracted.count})`);
  const statement = await extracted.prepare(0).catch((error: unknown) => {
    throw asQueryError(error);
  });
  const type = Number(statement.statementType);
  if (type !== SELECT) {
    const kind = misnamedKind(sql) ?? STATEMENT_KINDS[type] ?? `statement type ${type}`;
    statement.destroySync();
    throw new QueryRefusedError(
      `refused: ${kind} is not a read-only query; analytics query runs SELECT statements only (the database is opened read-only)`,
      kind,
    );
  }
  return statement;
}

/**
 * DuckDB types CHECKPOINT as a CALL and USE as a SET; a refusal naming those confuses whoever typed
 * the statement. Words only: what is refused was decided by the type above, not by this.
 */
const MISNAMED: Record<string, string> = { CHECKPOINT: 'CHECKPOINT', FORCE: 'CHECKPOINT', USE: 'USE' };
function misnamedKind(sql: string): string | undefined {
  const word = /^\w+/.exec(sql.replace(/^(?:\s|--[^\n]*|\/\*[\s\S]*?\*\/)+/, ''))?.[0];
  return word === undefined ? undefined : MISNAMED[word.toUpperCase()];
}

/** DuckDB's own words, as the caller's error: a Permission Error is file access, refused as such. */
function asQueryError(error: unknown): Error {
  // A syntax error found while splitting the text into statements carries this prefix.
  const message = (error instanceof Error ? error.message : String(error)).replace(
    /^Failed to extract statements: /,
    '',
  );
  if (/^Permission Error/.test(message)) {
    return new QueryRefusedError(
      'refused: the query reaches outside the analytics database (files, extensions, settings); analytics query reads the database only',
      'FILE',
    );
  }
  if (
    /^(Parser|Binder|Catalog|Conversion|Invalid Input|Out of Range|Not implemented) Error|syntax error/i.test(message)
  ) {
    return new InvalidQueryError(firstLines(message));
  }
  return error instanceof Error ? error : new Error(message);
}

/** DuckDB's message up to the caret line that points into the SQL: enough to find the mistake. */
function firstLines(message: string): string {
  return message.trim();
}

const NUMERIC =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL)/;
const WIDE = /^(BIGINT|HUGEINT|UBIGINT|UHUGEINT|DECIMAL)/;

function column(name: string, type: DuckDBType): QueryColumn {
  const text = type.toString();
  return { name, type: text, numeric: NUMERIC.test(text) };
}

/**
 * DuckDB's JSON form gives BIGINT (every COUNT and SUM) and DECIMAL as strings, for values past
 * 2^53. A number that survives the trip is given as a number, as DuckDB's own CLI prints it; one that
 * would lose a digit (12345678901234567.89 is 12345678901234568 as a double) stays a string.
 */
function asCell(cell: Cell, col: QueryColumn): Cell {
  if (typeof cell !== 'string' || !WIDE.test(col.type)) return cell;
  const n = Number(cell);
  if (!Number.isFinite(n)) return cell;
  if (col.type.startsWith('DECIMAL')) return String(n) === withoutTrailingZeros(cell) ? n : cell;
  return Number.isSafeInteger(n) ? n : cell;
}

/** `0.50` as JavaScript writes the number it is (`0.5`), to see whether a decimal's digits survive. */
function withoutTrailingZeros(decimal: string): string {
  const text = decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;
  return text === '-0' ? '0' : text;
}
