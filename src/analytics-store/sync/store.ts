// The sync's writes: each page's rows and its checkpoint in ONE transaction, so a run cut off at any
// point (a signal, kill -9, a full disk, a network error) leaves the database at the end of a whole
// page with sync_state saying where the next one starts. Rows go in as one JSON string parsed by DuckDB
// itself into a page table; the rows it replaces (by the tables' keys) are deleted first: nothing twice.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Row, Stream } from './stream.js';
import { wellFormedRows } from './well-formed.js';

export interface Checkpoint {
  stream: string;
  /** The window's bounds as stored (TIMESTAMP, UTC). */
  windowFrom: number;
  windowTo: number;
  /** Where the next page starts; null before the first page and after the last. */
  cursor: string | null;
  pages: number;
  rows: number;
  complete: boolean;
  /** When the last page was stored (epoch ms). */
  updatedAt: number;
}

const ts = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
const ms = (value: unknown) => Date.parse(`${String(value).replace(' ', 'T')}Z`);

export async function readCheckpoints(connection: DuckDBConnection): Promise<Checkpoint[]> {
  const result = await connection.runAndReadAll(
    `SELECT stream, strftime(window_from, '%Y-%m-%d %H:%M:%S.%g') AS window_from, strftime(window_to, '%Y-%m-%d %H:%M:%S.%g') AS window_to, cursor, pages, rows::DOUBLE AS rows, complete, strftime(updated_at, '%Y-%m-%d %H:%M:%S.%g') AS updated_at FROM sync_state`,
  );
  return result.getRowObjectsJson().map((r) => ({
    stream: String(r.stream),
    windowFrom: ms(r.window_from),
    windowTo: ms(r.window_to),
    cursor: r.cursor === null ? null : String(r.cursor),
    pages: Number(r.pages),
    rows: Number(r.rows),
    complete: Boolean(r.complete),
    updatedAt: ms(r.updated_at),
  }));
}

export interface PageWrite {
  stream: Stream;
  checkpoint: Checkpoint;
  rows: Row[];
  /** The window's first page: rows stored for it before (a day read again) are replaced, not added to. */
  first: boolean;
}

export interface PageWritten {
  /** Fields whose strings held lone surrogates, stored with U+FFFD in their place (well-formed.ts), and how many. */
  repaired: Map<string, number>;
}

export async function writePage(connection: DuckDBConnection, write: PageWrite): Promise<PageWritten> {
  // Repaired before the keys are compared: two terms that differ only in a broken half are one row.
  const { rows, fields: repaired } = wellFormedRows(write.rows);
  const page = { ...write, rows: lastOfEachKey(write.stream, rows) };
  // Most pages hold only rows not stored yet (new items, a day read for the first time or after its
  // rows were deleted): inserted straight, the primary key's index refuses any that is stored
  // already, at once. Replacing means finding the stored rows by a scan of the whole table (a cost
  // that grows with the table), so it is paid only when that insert was refused: the
  // transaction is rolled back and the page written again, deleting what it replaces.
  try {
    await inTransaction(connection, page, false);
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    await inTransaction(connection, page, true);
  }
  return { repaired };
}

async function inTransaction(connection: DuckDBConnection, write: PageWrite, replace: boolean): Promise<void> {
  const { stream, checkpoint: c, rows } = write;
  await connection.run('BEGIN TRANSACTION');
  try {
    if (write.first && stream.kind === 'day')
      await connection.run(`DELETE FROM ${stream.table} WHERE date = $1::DATE`, [ts(c.windowFrom).slice(0, 10)]);
    // A range read again replaces that range's rows, as a day does.
    if (write.first && stream.kind === 'range')
      await connection.run(`DELETE FROM ${stream.table} WHERE date_from = $1::DATE AND date_to = $2::DATE`, [
        ts(c.windowFrom).slice(0, 10),
        ts(c.windowTo).slice(0, 10),
      ]);
    if (rows.length > 0) {
      // The page goes to DuckDB as one string, split into its elements and each parsed to the row's
      // shape in SQL: much faster than from_json of the whole array as a list of structs
      // (docs/performance.md).
      const shape = JSON.stringify(stream.columns).replace(/'/g, "''");
      const parsed = `SELECT unnest(from_json(item, '${shape}'), recursive := true) FROM (SELECT unnest(from_json($1::VARCHAR, '["JSON"]')) AS item)`;
      if (replace) {
        const same = stream.key.map((k) => `${stream.table}.${k} = page.${k}`).join(' AND ');
        await connection.run(`CREATE OR REPLACE TEMP TABLE page AS ${parsed}`, [JSON.stringify(rows)]);
        await connection.run(`DELETE FROM ${stream.table} USING page WHERE ${same}`);
        await connection.run(`INSERT INTO ${stream.table} BY NAME SELECT * FROM page`);
      } else {
        await connection.run(`INSERT INTO ${stream.table} BY NAME ${parsed}`, [JSON.stringify(rows)]);
      }
    }
    await saveCheckpoint(connection, c);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** DuckDB's refusal of a key stored already (`Duplicate key "id: …" violates primary key constraint`). */
function isDuplicateKey(error: unknown): boolean {
  return /Duplicate key .* violates primary key constraint/i.test(
    error instanceof Error ? error.message : String(error),
  );
}

/** The window's row updated, or inserted when new: INSERT OR REPLACE costs several ms more a page. */
async function saveCheckpoint(connection: DuckDBConnection, c: Checkpoint): Promise<void> {
  const values = [c.stream, ts(c.windowFrom), ts(c.windowTo), c.cursor, c.pages, c.rows, c.complete, ts(c.updatedAt)];
  const updated = await connection.run(
    `UPDATE sync_state SET window_to = $3::TIMESTAMP, cursor = $4, pages = $5, rows = $6, complete = $7, updated_at = $8::TIMESTAMP WHERE stream = $1 AND window_from = $2::TIMESTAMP`,
    values,
  );
  if (updated.rowsChanged > 0) return;
  await connection.run(
    `INSERT INTO sync_state (stream, window_from, window_to, cursor, pages, rows, complete, updated_at) VALUES ($1, $2::TIMESTAMP, $3::TIMESTAMP, $4, $5, $6, $7, $8::TIMESTAMP)`,
    values,
  );
}

/**
 * One row per key, the later where the API sent a key twice in one page (it is the newer read): the
 * key is the table's primary key, so a page with a key twice could not be inserted. Rows are returned
 * as they came when no key repeats, the usual case.
 */
export function lastOfEachKey(stream: Pick<Stream, 'key'>, rows: Row[]): Row[] {
  const byKey = new Map<string, Row>();
  for (const row of rows)
    byKey.set(
      stream.key.length === 1 ? String(row[stream.key[0]!]) : JSON.stringify(stream.key.map((k) => row[k])),
      row,
    );
  return byKey.size === rows.length ? rows : [...byKey.values()];
}

/**
 * Runs `work` with DuckDB on one thread, then puts the setting back. A page's statements are small, and
 * on one thread DuckDB stores pages faster (docs/performance.md): no tasks
 * to schedule across threads. The setting is the whole instance's, so it is restored for whatever the
 * process runs next (the Parquet export, queries).
 */
export async function withOneThread<T>(connection: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  const before = Number(
    (await connection.runAndReadAll(`SELECT current_setting('threads')::INTEGER AS n`)).getRowObjectsJson()[0]?.n,
  );
  await connection.run('SET threads = 1');
  try {
    return await work();
  } finally {
    if (Number.isInteger(before) && before > 0) await connection.run(`SET threads = ${before}`).catch(() => undefined);
  }
}

/** The pass marker: one row, its window_to the pass's start, `complete` once a run read everything. */
export async function markPass(
  connection: DuckDBConnection,
  passStart: number,
  complete: boolean,
  now: number,
): Promise<void> {
  await connection.run(
    `INSERT OR REPLACE INTO sync_state (stream, window_from, window_to, cursor, pages, rows, complete, updated_at) VALUES ('_pass', TIMESTAMP '1970-01-01', $1::TIMESTAMP, NULL, 0, 0, $2, $3::TIMESTAMP)`,
    [ts(passStart), complete, ts(now)],
  );
}

/** Keeps the --from a sync was given (its window_to), for the runs after it without one. */
export async function markReach(connection: DuckDBConnection, from: number, now: number): Promise<void> {
  await connection.run(
    `INSERT OR REPLACE INTO sync_state (stream, window_from, window_to, cursor, pages, rows, complete, updated_at) VALUES ('_reach', TIMESTAMP '1970-01-01', $1::TIMESTAMP, NULL, 0, 0, true, $2::TIMESTAMP)`,
    [ts(from), ts(now)],
  );
}
