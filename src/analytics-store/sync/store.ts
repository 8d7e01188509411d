// The sync's writes: each page's rows and its checkpoint in ONE transaction, so a run cut off at any
// point (a signal, kill -9, a full disk, a network error) leaves the database at the end of a whole
// page with sync_state saying where the next one starts. Rows go in as one JSON batch read by DuckDB
// itself (from_json + unnest) into a page table; the rows it replaces (by the tables' keys) are deleted first: nothing twice.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Row, Stream } from './streams.js';

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

export async function writePage(connection: DuckDBConnection, write: PageWrite): Promise<void> {
  const { stream, checkpoint: c } = write;
  await connection.run('BEGIN TRANSACTION');
  try {
    if (write.first && stream.kind === 'day') await connection.run(`DELETE FROM ${stream.table} WHERE date = $1::DATE`, [ts(c.windowFrom).slice(0, 10)]);
    if (write.rows.length > 0) {
      // Parsed once into a page table, then the rows it replaces deleted and it inserted: a third
      // faster than INSERT OR REPLACE, which checks each row against the key. DISTINCT ON keeps one row
      // of a key the API sent twice in one page.
      const shape = JSON.stringify([stream.columns]).replace(/'/g, "''");
      const key = stream.key.join(', ');
      const same = stream.key.map((k) => `${stream.table}.${k} = page.${k}`).join(' AND ');
      await connection.run(`CREATE OR REPLACE TEMP TABLE page AS SELECT DISTINCT ON (${key}) * FROM (SELECT unnest(from_json($1::JSON, '${shape}'), recursive := true))`, [JSON.stringify(write.rows)]);
      await connection.run(`DELETE FROM ${stream.table} USING page WHERE ${same}`);
      await connection.run(`INSERT INTO ${stream.table} BY NAME SELECT * FROM page`);
    }
    await connection.run(
      `INSERT OR REPLACE INTO sync_state (stream, window_from, window_to, cursor, pages, rows, complete, updated_at) VALUES ($1, $2::TIMESTAMP, $3::TIMESTAMP, $4, $5, $6, $7, $8::TIMESTAMP)`,
      [c.stream, ts(c.windowFrom), ts(c.windowTo), c.cursor, c.pages, c.rows, c.complete, ts(c.updatedAt)],
    );
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** The pass marker: one row, its window_to the pass's start, `complete` once a run read everything. */
export async function markPass(connection: DuckDBConnection, passStart: number, complete: boolean, now: number): Promise<void> {
  await connection.run(
    `INSERT OR REPLACE INTO sync_state (stream, window_from, window_to, cursor, pages, rows, complete, updated_at) VALUES ('_pass', TIMESTAMP '1970-01-01', $1::TIMESTAMP, NULL, 0, 0, $2, $3::TIMESTAMP)`,
    [ts(passStart), complete, ts(now)],
  );
}
