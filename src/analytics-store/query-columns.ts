// A query's result as the list writers' columns (src/output/writer.ts), so `analytics query` writes
// table, json, ndjson and csv through the same writers as every list: the CSV formula guard, the
// terminal escaping and the whole-row writes come with them.
import type { Columns, CsvCell } from '../output/writer.js';
import type { Cell, QueryColumn } from './query.js';

export type QueryRow = Record<string, Cell>;

/**
 * Names as JSON keys: a name met twice (`SELECT 1 AS n, 2 AS n`) gets `_2`, `_3`, ... so no value
 * overwrites another in a row object.
 */
export function uniqueNames(columns: readonly QueryColumn[]): string[] {
  const seen = new Set<string>();
  return columns.map(({ name }) => {
    let unique = name;
    for (let n = 2; seen.has(unique); n++) unique = `${name}_${n}`;
    seen.add(unique);
    return unique;
  });
}

/** A row of cells as an object keyed by the unique names. */
export function rowObject(names: readonly string[], cells: readonly Cell[]): QueryRow {
  const row: QueryRow = {};
  names.forEach((name, i) => (row[name] = cells[i] ?? null));
  return row;
}

export function queryColumns(columns: readonly QueryColumn[], names: readonly string[]): Columns<QueryRow> {
  const text = (cell: Cell): string =>
    cell === null ? '' : typeof cell === 'object' ? JSON.stringify(cell) : String(cell);
  const csv = (cell: Cell): CsvCell => (cell !== null && typeof cell === 'object' ? JSON.stringify(cell) : cell);
  return {
    csvHeader: names,
    csvRecord: (row) => names.map((name) => csv(row[name] ?? null)),
    tableHeader: names,
    tableCells: (row) => names.map((name) => text(row[name] ?? null)),
    align: columns.map((c) => (c.numeric ? 'right' : 'left')),
    flexible: columns.flatMap((c, i) => (c.numeric ? [] : [i])),
  };
}
