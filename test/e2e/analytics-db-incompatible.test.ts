// The --db given is not an analytics database this version can use: not a DuckDB file, another
// program's DuckDB file, or one whose tables a newer mint-admin shaped. Each command says so with
// exit 2 before anything is sent, and a sync leaves such a file as it was.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox(
  { searchTermCount: 20, analytics: { pages: 5, feedback: 5, conversations: 5 } },
  { homePerTest: true },
);

/** A DuckDB file made with DuckDB itself (not through the store), holding `sql`. */
async function duckDbFile(name: string, sql: string[]): Promise<string> {
  const path = join(t.home, name);
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  for (const statement of sql) await connection.run(statement);
  connection.closeSync();
  instance.closeSync();
  return path;
}

async function tables(path: string): Promise<string[]> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll('SELECT table_name FROM information_schema.tables ORDER BY 1'))
      .getRowObjectsJson()
      .map((r) => String(r.table_name));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const cli = (...args: string[]) => runCli(args, { env: t.env() });

describe('a --db that is not an analytics database', () => {
  it('a file that is not a DuckDB database: sync, query and report say so, exit 2, nothing sent', async () => {
    const path = join(t.home, 'notes.duckdb');
    writeFileSync(path, 'not a database\n');
    for (const args of [
      ['analytics', 'sync', '--db', path],
      ['analytics', 'query', '--db', path, 'SELECT 1'],
      ['analytics', 'report', '--db', path],
    ]) {
      const r = await cli(...args);
      expect([args[1], r.code, r.stderr]).toEqual([
        args[1],
        2,
        expect.stringContaining(
          `${path} is not an analytics database this version of mint-admin can use: it is not a DuckDB database file`,
        ),
      ]);
    }
    expect(t.sandbox.requests).toHaveLength(0);
  });

  it("a newer mint-admin's database (a table of other columns): sync refuses and adds no table, report refuses, query still reads it", async () => {
    const path = await duckDbFile('newer.duckdb', [
      'CREATE TABLE searches (date DATE, search_query VARCHAR, hits VARCHAR, locale VARCHAR)',
      "INSERT INTO searches VALUES ('2026-11-20', 'q', '3', 'fr')",
    ]);
    const sync = await cli('analytics', 'sync', '--db', path, '--max-requests', '5');
    expect(sync.code).toBe(2);
    expect(sync.stderr).toContain(
      'its searches table has the columns (date DATE, search_query VARCHAR, hits VARCHAR, locale VARCHAR), not (date DATE, search_query VARCHAR, hits DOUBLE,',
    );
    expect(t.sandbox.requests).toHaveLength(0);
    expect(await tables(path)).toEqual(['searches']);
    const report = await cli('analytics', 'report', '--db', path);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('its searches table has the columns');
    const query = await cli('analytics', 'query', '--db', path, 'SELECT locale FROM searches');
    expect([query.code, query.stdout]).toEqual([0, 'locale\nfr\n']);
  });

  it("another program's DuckDB file: report names the missing table, exit 2 (not DuckDB's Catalog Error)", async () => {
    const path = await duckDbFile('other.duckdb', ['CREATE TABLE x (a INT)']);
    const r = await cli('analytics', 'report', '--db', path);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /is not an analytics database this version of mint-admin can use: it has no searches table/,
    );
    expect(r.stderr).not.toMatch(/Catalog Error/);
  });

  it("another program's DuckDB file: sync refuses it before anything is sent, and leaves it byte for byte as it was", async () => {
    const path = await duckDbFile('orders.duckdb', [
      'CREATE TABLE orders (id INTEGER, amount DECIMAL(10,2))',
      'INSERT INTO orders VALUES (1, 9.99)',
    ]);
    const before = readFileSync(path);
    const r = await cli('analytics', 'sync', '--db', path, '--max-requests', '2');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /is not an analytics database this version of mint-admin can use: it has no searches table/,
    );
    expect(t.sandbox.requests).toHaveLength(0);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(await tables(path)).toEqual(['orders']);
  });

  it('a DuckDB file with no table at all is a new database: the sync fills it', async () => {
    const path = await duckDbFile('empty.duckdb', []);
    const r = await cli('analytics', 'sync', '--db', path, '--max-requests', '2');
    expect(r.code).toBe(0);
    expect(await tables(path)).toContain('sync_state');
  });

  it('a database the store made is used as before', async () => {
    const path = join(t.home, 'own.duckdb');
    (await openAnalyticsDb(path)).close();
    const r = await cli('analytics', 'report', '--db', path, '--json');
    expect(r.code).toBe(0);
  });
});

describe('a --db or --parquet path that is not a plain file or directory', () => {
  it("--db a FIFO is refused at once (DuckDB's open of it blocked in a thread, past SIGTERM), as is a directory; exit 2, nothing sent", async () => {
    const fifo = join(t.home, 'pipe.duckdb');
    execFileSync('mkfifo', [fifo]);
    const dir = join(t.home, 'dir.duckdb');
    mkdirSync(dir);
    for (const [path, kind] of [
      [fifo, 'a FIFO (named pipe)'],
      [dir, 'a directory'],
    ] as const) {
      for (const command of ['sync', 'report']) {
        const r = await cli('analytics', command, '--db', path);
        expect([command, r.code, r.stderr]).toEqual([
          command,
          2,
          expect.stringContaining(
            `${path} is not an analytics database this version of mint-admin can use: it is ${kind}, not a file`,
          ),
        ]);
      }
    }
    expect(t.sandbox.requests).toHaveLength(0);
  });

  it.each([
    ['a file', (home: string) => writeFileSync(join(home, 'out'), 'mine\n'), 'out', 'a file is in the way'],
    // Node's own mkdirSync(recursive) spun forever on /proc, synchronously, past SIGTERM.
    ['under /proc', () => undefined, '/proc/mint-admin-parquet', 'ENOENT'],
  ])(
    '--parquet %s is refused before any request, exit 2, and the database is not touched',
    async (_name, plant, dir, why) => {
      plant(t.home);
      const out = dir.startsWith('/') ? dir : join(t.home, dir);
      const db = join(t.home, 'p.duckdb');
      const r = await cli('analytics', 'sync', '--db', db, '--parquet', out);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`the Parquet directory ${out} cannot be made (${why}`);
      expect(t.sandbox.requests).toHaveLength(0);
      expect(existsSync(db)).toBe(false);
    },
  );
});
