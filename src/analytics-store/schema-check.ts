// A database file is used only when its tables are the ones this version makes (schema.ts). The
// schema's CREATE TABLE IF NOT EXISTS leaves a table that already exists alone, so without this a
// sync wrote into a table of another shape (a newer mint-admin's, another program's) and a report
// failed on DuckDB's own "Catalog Error". The expected columns are read from the DDL itself, made in
// an in-memory database, so there is no second list of them to drift.
import type { DuckDBConnection } from '@duckdb/node-api';
import { IncompatibleDatabaseError } from './errors.js';
import { ADDED_TABLES, schemaStatements, TABLES } from './schema.js';

type Shape = Map<string, string>;

/** What the check reads of an open database (db.ts's AnalyticsDb is one, before and after its tables exist). */
export interface DatabaseToCheck {
  readonly path: string;
  readonly connection: DuckDBConnection;
  readonly duckdb: typeof import('@duckdb/node-api');
}

const COLUMNS = `SELECT table_name, string_agg(column_name || ' ' || data_type, ', ' ORDER BY ordinal_position) AS columns
  FROM information_schema.columns WHERE table_catalog = current_database() AND table_schema = 'main' GROUP BY table_name`;

let expected: Promise<Shape> | undefined;

/**
 * IncompatibleDatabaseError unless the file holds every table of schema.ts with this version's
 * columns. `'unless-empty'` (the sync's check) also takes a file with no table at all, as a new one
 * it fills; a file holding only other tables is another program's, and left as it was.
 */
export async function checkSchema(db: DatabaseToCheck, opts: { complete: true | 'unless-empty' }): Promise<void> {
  const wanted = await (expected ??= expectedShape(db));
  const actual = await shapeOf(db.connection);
  if (opts.complete === 'unless-empty' && actual.size === 0) return;
  // A table of another shape says more (a newer mint-admin's) than one that is missing.
  for (const table of TABLES) {
    const columns = actual.get(table);
    if (columns !== undefined && columns !== wanted.get(table))
      throw new IncompatibleDatabaseError(
        db.path,
        `its ${table} table has the columns (${columns}), not (${wanted.get(table)})`,
      );
  }
  const missing = TABLES.find((table) => !actual.has(table) && !ADDED_TABLES.includes(table));
  if (missing) throw new IncompatibleDatabaseError(db.path, `it has no ${missing} table`);
}

async function expectedShape(db: DatabaseToCheck): Promise<Shape> {
  const instance = await db.duckdb.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    for (const statement of schemaStatements()) await connection.run(statement);
    return await shapeOf(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function shapeOf(connection: DuckDBConnection): Promise<Shape> {
  const rows = (await connection.runAndReadAll(COLUMNS)).getRowObjectsJson();
  return new Map(rows.map((r) => [String(r.table_name), String(r.columns)]));
}
