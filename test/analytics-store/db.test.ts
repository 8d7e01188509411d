// The database layer: the tables and keys every analytics command reads, the file's place and modes,
// the optional package's absence worded, and a file held by another process turned into our error.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDatabasePath, openAnalyticsDb, type AnalyticsDb } from '../../src/analytics-store/db.js';
import { DatabaseBusyError, DuckDbMissingError } from '../../src/analytics-store/errors.js';
import { TABLES } from '../../src/analytics-store/schema.js';
import { tempDir } from '../helpers/cli.js';
import { holdDatabase } from '../helpers/duckdb-holder.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});
function scratch(): string {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  return dir.path;
}
async function open(path: string, readOnly = false): Promise<AnalyticsDb> {
  const db = await openAnalyticsDb(path, { readOnly });
  cleanups.unshift(() => db.close());
  return db;
}
async function rows(db: AnalyticsDb, sql: string): Promise<Record<string, unknown>[]> {
  return (await db.connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}

describe('defaultDatabasePath', () => {
  it.each([
    ['under $XDG_DATA_HOME', { XDG_DATA_HOME: '/data', HOME: '/home/a' }, '/data/mint-admin/p1.duckdb'],
    ['under ~/.local/share without it', { HOME: '/home/a' }, '/home/a/.local/share/mint-admin/p1.duckdb'],
    [
      'under ~/.local/share when it is relative (the XDG spec)',
      { XDG_DATA_HOME: 'rel', HOME: '/home/a' },
      '/home/a/.local/share/mint-admin/p1.duckdb',
    ],
  ])('%s', (_name, env, expected) => {
    expect(defaultDatabasePath(env, 'p1')).toBe(expected);
  });
});

describe('openAnalyticsDb', () => {
  it('creates every table, its directory 0700 and the file 0600', async () => {
    const dir = join(scratch(), 'new', 'mint-admin');
    const path = join(dir, 'p1.duckdb');
    const db = await open(path);
    const tables = await rows(
      db,
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY table_name`,
    );
    expect(tables.map((r) => r.table_name)).toEqual([...TABLES].sort());
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('keys make a row impossible to store twice: items by id, aggregates by day and key', async () => {
    const db = await open(join(scratch(), 'a.duckdb'));
    await db.connection.run(`INSERT INTO conversations (id, query) VALUES ('c1', 'q')`);
    await expect(db.connection.run(`INSERT INTO conversations (id, query) VALUES ('c1', 'q')`)).rejects.toThrow(
      /PRIMARY KEY|primary key|Duplicate/,
    );
    await db.connection.run(`INSERT INTO views VALUES ('2026-11-01', '/a', 1, 2, 3), ('2026-11-02', '/a', 1, 2, 3)`);
    await expect(db.connection.run(`INSERT INTO views VALUES ('2026-11-01', '/a', 1, 2, 3)`)).rejects.toThrow(
      /PRIMARY KEY|primary key|Duplicate/,
    );
  });

  it('opens again with the same tables and rows (the schema statements are safe to repeat)', async () => {
    const path = join(scratch(), 'a.duckdb');
    const first = await open(path);
    await first.connection.run(`INSERT INTO caller_stats VALUES ('2026-11-01', 1, 2, 3, 6)`);
    first.close();
    cleanups.shift();
    const again = await open(path, true);
    expect(await rows(again, 'SELECT total FROM caller_stats')).toEqual([{ total: 6 }]);
    await expect(again.connection.run(`DELETE FROM caller_stats`)).rejects.toThrow(/read-only/i);
  });

  it('says how to install DuckDB when the package cannot be loaded', async () => {
    const missing = Object.assign(new Error("Cannot find package '@duckdb/node-api'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = await openAnalyticsDb(join(scratch(), 'a.duckdb'), { loader: () => Promise.reject(missing) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DuckDbMissingError);
    // Run from this clone (no node_modules/mint-admin on the path): the global install's command.
    expect((error as Error).message).toMatch(/Add it with: npm install --global @duckdb\/node-api@\d[\w.-]*$/);
    expect((error as Error).cause).toBe(missing);
  });

  it("turns DuckDB's lock conflict with another process into DatabaseBusyError naming the holder", async () => {
    const path = join(scratch(), 'held.duckdb');
    (await open(path)).close();
    cleanups.shift();
    const holder = await holdDatabase(path);
    cleanups.unshift(() => holder.release());
    const error = await openAnalyticsDb(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseBusyError);
    expect((error as DatabaseBusyError).holderPid).toBe(holder.pid);
    expect((error as Error).message).toMatch(/in use by another process \(pid \d+\)/);
  });
});
