// `analytics query`: read-only SQL over a real DuckDB database in a temp dir, run through the CLI in
// process. Every list format through the lists' writers, -o, and each kind of write refused with
// exit 2 before it runs (the file untouched, nothing written outside it), a missing database.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { runCli, tempDir } from '../helpers/cli.js';

// Made as the file loads: the refused statements' table names paths inside it.
const dir = tempDir();
const db = join(dir.path, 'analytics.duckdb');

beforeAll(async () => {
  const store = await openAnalyticsDb(db);
  await store.connection.run(`INSERT INTO searches VALUES
    ('2026-11-16', 'install', 40, 0.5, '/install', '2026-11-16 09:00:00'),
    ('2026-11-17', '=HYPERLINK("http://x")', 3, 0, NULL, '2026-11-17 10:00:00'),
    ('2026-11-17', 'tab	and "quote"', 2, 0.25, '/a', '2026-11-17 11:00:00')`);
  store.close();
});
afterAll(() => dir.cleanup());

const query = (sql: string, ...flags: string[]) =>
  runCli(['analytics', 'query', sql, '--db', db, ...flags], { env: { XDG_CONFIG_HOME: dir.path } });
const TOTALS = 'SELECT search_query, sum(hits) AS hits, count(*) AS days FROM searches GROUP BY 1 ORDER BY 2 DESC, 1';

describe('analytics query: formats', () => {
  it('json: { rows, columns, rowCount }, counts as numbers', async () => {
    const r = await query(TOTALS, '--format', 'json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      rows: [
        { search_query: 'install', hits: 40, days: 1 },
        { search_query: '=HYPERLINK("http://x")', hits: 3, days: 1 },
        { search_query: 'tab\tand "quote"', hits: 2, days: 1 },
      ],
      columns: [
        { name: 'search_query', type: 'VARCHAR' },
        { name: 'hits', type: 'DOUBLE' },
        { name: 'days', type: 'BIGINT' },
      ],
      rowCount: 3,
    });
  });

  it('json: a wide number a double holds is a number; one it cannot hold stays a string, every digit kept', async () => {
    const sql =
      'SELECT 0.50::DECIMAL(5,2) AS half, 12345678901234567.89::DECIMAL(38,2) AS d, 9007199254740993::BIGINT AS b, 42::BIGINT AS n';
    const r = await query(sql, '--format', 'json');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"d": "12345678901234567.89"');
    expect(JSON.parse(r.stdout).rows).toEqual([{ half: 0.5, d: '12345678901234567.89', b: '9007199254740993', n: 42 }]);
  });

  it('ndjson: one object a line; the global --json is json', async () => {
    const r = await query(TOTALS, '--format', 'ndjson');
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { search_query: 'install', hits: 40, days: 1 },
      { search_query: '=HYPERLINK("http://x")', hits: 3, days: 1 },
      { search_query: 'tab\tand "quote"', hits: 2, days: 1 },
    ]);
    expect(r.stderr).toBe('3 rows\n');
    expect(
      JSON.parse((await runCli(['--json', 'analytics', 'query', 'SELECT 1 AS n', '--db', db])).stdout).rows,
    ).toEqual([{ n: 1 }]);
  });

  it('csv: RFC 4180, the formula guard on (and off with --csv-raw)', async () => {
    const r = await query(TOTALS, '--format', 'csv');
    expect(r.stdout).toBe(
      'search_query,hits,days\r\ninstall,40,1\r\n"\'=HYPERLINK(""http://x"")",3,1\r\n"tab\tand ""quote""",2,1\r\n',
    );
    const raw = await query(TOTALS, '--format', 'csv', '--csv-raw');
    expect(raw.stdout).toContain('\r\n"=HYPERLINK(""http://x"")",3,1\r\n');
  });

  it('table in a pipe: tab-separated under a header, tabs in values escaped', async () => {
    const r = await query(TOTALS);
    expect(r.stdout).toBe(
      'search_query\thits\tdays\ninstall\t40\t1\n=HYPERLINK("http://x")\t3\t1\ntab\\tand "quote"\t2\t1\n',
    );
  });

  it('lists, structs and dates: JSON values in json, JSON text in csv', async () => {
    const sql = `SELECT DATE '2026-11-16' AS day, [1, 2] AS l, {'a': 'b'} AS s, NULL AS z, 1 AS n, 2 AS n`;
    expect(JSON.parse((await query(sql, '--format', 'json')).stdout).rows).toEqual([
      { day: '2026-11-16', l: [1, 2], s: { a: 'b' }, z: null, n: 1, n_2: 2 },
    ]);
    expect((await query(sql, '--format', 'csv')).stdout).toBe(
      'day,l,s,z,n,n_2\r\n2026-11-16,"[1,2]","{""a"":""b""}",,1,2\r\n',
    );
  });

  it('-o writes the file; the footer says where', async () => {
    const out = join(dir.path, 'out.csv');
    const r = await query(TOTALS, '--format', 'csv', '-o', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`3 rows written to ${out}\n`);
    expect(readFileSync(out, 'utf8').split('\r\n')).toHaveLength(5);
  });

  it('SHOW TABLES, DESCRIBE and FROM-first queries are reads', async () => {
    expect(
      JSON.parse((await query('SHOW TABLES', '--json')).stdout).rows.map((r: { name: string }) => r.name),
    ).toContain('searches');
    expect((await query('DESCRIBE searches', '--format', 'csv')).code).toBe(0);
    expect(JSON.parse((await query('FROM searches SELECT count(*) AS n', '--json')).stdout).rows).toEqual([{ n: 3 }]);
  });
});

describe('analytics query: writes refused (exit 2, before anything runs)', () => {
  const outside = () => join(dir.path, 'outside');
  it.each([
    [
      'INSERT',
      `INSERT INTO searches VALUES ('2026-11-18', 'x', 1, 0, NULL, NULL)`,
      /refused: INSERT is not a read-only query/,
    ],
    ['UPDATE', `UPDATE searches SET hits = 0`, /refused: UPDATE/],
    ['DELETE', `DELETE FROM searches`, /refused: DELETE/],
    ['CREATE TABLE', `CREATE TABLE t (a INT)`, /refused: CREATE/],
    ['CREATE TEMP TABLE (allowed by read-only mode itself)', `CREATE TEMP TABLE t AS SELECT 1`, /refused: CREATE/],
    ['DROP', `DROP TABLE searches`, /refused: DROP/],
    ['ALTER', `ALTER TABLE searches ADD COLUMN x INT`, /refused: ALTER/],
    [
      'COPY TO a file',
      `COPY searches TO '${join(dir.path, 'outside')}.csv'`,
      /refused: the query reaches outside the analytics database/,
    ],
    ['EXPORT DATABASE', `EXPORT DATABASE '${join(dir.path, 'outside')}'`, /refused: the query reaches outside/],
    ['ATTACH', `ATTACH '${join(dir.path, 'outside')}.duckdb' AS o`, /refused: ATTACH/],
    ['DETACH', `DETACH o`, /refused: DETACH/],
    ['INSTALL', `INSTALL httpfs`, /refused: INSTALL or LOAD/],
    ['LOAD', `LOAD json`, /refused: INSTALL or LOAD/],
    ['SET', `SET threads = 1`, /refused: SET/],
    ['SET VARIABLE', `SET VARIABLE x = 1`, /refused: SET/],
    ['PRAGMA that changes a setting', `PRAGMA enable_profiling`, /refused: PRAGMA/],
    ['CALL', `CALL pragma_table_info('searches')`, /refused: CALL/],
    ['CHECKPOINT (CALL to DuckDB, named as typed)', `CHECKPOINT`, /refused: CHECKPOINT is not/],
    ['FORCE CHECKPOINT after a comment', `/* x */ -- y\n FORCE CHECKPOINT`, /refused: CHECKPOINT is not/],
    ['USE (SET to DuckDB, named as typed)', `USE memory`, /refused: USE is not/],
    ['a transaction', `BEGIN TRANSACTION`, /refused: TRANSACTION/],
    ['EXPLAIN ANALYZE (it runs its statement)', `EXPLAIN ANALYZE SELECT 1`, /refused: EXPLAIN/],
    [
      'reading a file (the config holds the key)',
      `SELECT * FROM read_text('/etc/passwd')`,
      /refused: the query reaches outside/,
    ],
  ])('%s', async (_kind, sql, message) => {
    const before = statSync(db);
    const r = await query(sql);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(statSync(db).mtimeMs).toBe(before.mtimeMs);
    expect(existsSync(`${outside()}.csv`) || existsSync(outside()) || existsSync(`${outside()}.duckdb`)).toBe(false);
  });

  it('one statement at a time: a read followed by a write is refused whole', async () => {
    const r = await query(`SELECT 1; DELETE FROM searches`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/one SQL statement at a time/);
    expect(JSON.parse((await query('SELECT count(*) AS n FROM searches', '--json')).stdout).rows).toEqual([{ n: 3 }]);
  });

  it('SQL DuckDB cannot read: exit 2 with its words; -o is not created', async () => {
    const out = join(dir.path, 'never.csv');
    const r = await query('SELECT nope FROM searches', '-o', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Binder Error: Referenced column "nope" not found/);
    expect(existsSync(out)).toBe(false);
    expect((await query('SELEC 1')).stderr).toMatch(/syntax error at or near "SELEC"/);
  });

  it('a syntax error DuckDB finds while splitting the text into statements is exit 2 too, in its own words', async () => {
    const r = await query("SELECT 'unterminated");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: Parser Error: unterminated quoted string at or near "'unterminated"\n/);
    expect(r.stderr).not.toMatch(/Failed to extract|--debug/);
  });
});

describe('analytics query: no database', () => {
  it('names analytics sync, exit 2, creates nothing', async () => {
    const missing = join(dir.path, 'nowhere', 'none.duckdb');
    const r = await runCli(['analytics', 'query', 'SELECT 1', '--db', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: no analytics database at ${missing}: run \`mint-admin analytics sync\` first (or pass --db <file> to read another one)\n`,
    );
    expect(existsSync(join(dir.path, 'nowhere'))).toBe(false);
  });

  it('the default path is under $XDG_DATA_HOME for the project in effect', async () => {
    const r = await runCli(['analytics', 'query', 'SELECT 1', '--project', 'proj1'], {
      env: { XDG_DATA_HOME: join(dir.path, 'data'), XDG_CONFIG_HOME: dir.path },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no analytics database at ${join(dir.path, 'data', 'mint-admin', 'proj1.duckdb')}`);
  });
});
