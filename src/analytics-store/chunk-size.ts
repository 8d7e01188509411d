// How many nested values (list, array, map and struct elements) a chunk of rows holds, counted on
// DuckDB's vectors before any is turned into JavaScript: a list of numbers costs a few bytes an
// element in DuckDB and many times that as JSON strings, so a result of a few rows could fill the
// process (`SELECT list(range) FROM range(...)`). Counting stops once past `cap`.
import type { DuckDBDataChunk, DuckDBVector } from '@duckdb/node-api';
import type { DuckDbModule } from './db.js';

export function chunkElements(chunk: DuckDBDataChunk, duckdb: DuckDbModule, cap: number): number {
  let total = 0;
  for (let i = 0; i < chunk.columnCount && total <= cap; i++)
    total += vectorElements(chunk.getColumnVector(i), duckdb, cap - total);
  return total;
}

function vectorElements(vector: DuckDBVector, duckdb: DuckDbModule, cap: number): number {
  if (vector instanceof duckdb.DuckDBListVector) {
    const child = vector.childVector;
    return child.itemCount > cap
      ? child.itemCount
      : child.itemCount + vectorElements(child, duckdb, cap - child.itemCount);
  }
  if (vector instanceof duckdb.DuckDBStructVector) {
    const entries = vector.type.entryCount;
    let total = vector.itemCount * entries;
    for (let e = 0; e < entries && total <= cap; e++)
      total += vectorElements(vector.entryVectorAt(e), duckdb, cap - total);
    return total;
  }
  if (vector instanceof duckdb.DuckDBArrayVector) return vector.itemCount * vector.type.length;
  if (vector instanceof duckdb.DuckDBMapVector) {
    // The map's entries are not exposed as a vector: counted row by row, stopping past the cap.
    let total = 0;
    for (let row = 0; row < vector.itemCount && total <= cap; row++) total += vector.getItem(row)?.entries.length ?? 0;
    return total;
  }
  return 0;
}
