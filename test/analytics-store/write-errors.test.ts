// A page that is not stored is worded by why: only a full disk (the system's own words) sends the
// user to make room. DuckDB refusing what a page holds (its JSON reader on malformed text, here the
// very error a lone surrogate used to cause) is not a disk problem, and its echo of the input (reader
// text) is not repeated as the cause.
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { DatabaseWriteError, writeFailureKind, writeProblemOf } from '../../src/analytics-store/errors.js';

async function duckDbRefusal(): Promise<unknown> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`SELECT unnest(from_json($1::VARCHAR, '["JSON"]'))`, ['[{"q":"\\ud83d \u001b]8;;evil"}]']);
  } catch (error) {
    return error;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  throw new Error('DuckDB accepted a lone surrogate: this test needs another refusal');
}

describe('a failed page write', () => {
  it('DuckDB refusing the page is "refused", not a full disk, and its message names no reader text', async () => {
    const refusal = await duckDbRefusal();
    expect(writeFailureKind(refusal)).toBe('refused');
    const error = new DatabaseWriteError('/d/a.duckdb', writeProblemOf(refusal), refusal);
    expect(error.kind).toBe('refused');
    expect(error.message).toMatch(
      /^the analytics database \/d\/a\.duckdb refused a page \(Invalid Input Error: Malformed JSON[^)]*\): every page stored before it is kept$/,
    );
    expect(error.message).not.toMatch(/could not be written|evil|Input:/);
  });

  it.each([
    [
      'TransactionContext Error: Failed to commit: Could not write file "/d/a.duckdb.wal": No space left on device',
      'disk-full',
      'No space left on device',
    ],
    ['IO Error: Could not write file "/d/a.duckdb": Disk quota exceeded', 'disk-full', 'Disk quota exceeded'],
    ['IO Error: Could not write file "/d/a.duckdb": Input/output error', 'io', 'Input/output error'],
    [
      'Constraint Error: NOT NULL constraint failed: searches.date',
      'refused',
      'Constraint Error: NOT NULL constraint failed: searches.date',
    ],
  ] as const)('%s is %s', (message, kind, problem) => {
    const error = new DatabaseWriteError('/d/a.duckdb', writeProblemOf(new Error(message)), new Error(message));
    expect(error.kind).toBe(kind);
    expect(error.problem).toBe(problem);
    expect(error.message.includes('could not be written')).toBe(kind !== 'refused');
  });
});
