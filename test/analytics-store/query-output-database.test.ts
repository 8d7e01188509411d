// `analytics query -o` naming the database it reads (or its write-ahead log) would replace the
// database with the rows: refused with exit 2 before the query runs, however the path is spelled
// (the same name, relative, a symbolic link, a hard link, a link to a WAL not there yet). Real files.
import { existsSync, linkSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { runCli, tempDir } from '../helpers/cli.js';

const dir = tempDir();
const db = join(dir.path, 'analytics.duckdb');
let bytes: Buffer;
beforeAll(async () => {
  const store = await openAnalyticsDb(db);
  await store.connection.run(
    `INSERT INTO searches VALUES ('2026-11-16', 'install', 40, 0.5, '/install', '2026-11-16 09:00:00')`,
  );
  store.close();
  bytes = readFileSync(db);
  symlinkSync(db, join(dir.path, 'link.csv'));
  linkSync(db, join(dir.path, 'hard.csv'));
  symlinkSync(`${db}.wal`, join(dir.path, 'wal-link.csv'));
});
afterAll(() => dir.cleanup());

const REFUSED =
  /^error: -o .* is the analytics database .* reads \(or its write-ahead log\): the rows would overwrite it; give another file\n$/;

describe('analytics query -o the database itself', () => {
  it.each([
    ['the same path', () => db, undefined],
    ['a relative path', () => 'analytics.duckdb', dir.path],
    ['a path through ..', () => join(dir.path, '..', dir.path.split('/').at(-1)!, 'analytics.duckdb'), undefined],
    ['a symbolic link to it', () => join(dir.path, 'link.csv'), undefined],
    ['a hard link to it', () => join(dir.path, 'hard.csv'), undefined],
    ['its write-ahead log', () => `${db}.wal`, undefined],
    ['a link to its write-ahead log, not there yet', () => join(dir.path, 'wal-link.csv'), undefined],
  ])('%s: exit 2 before the query runs, the database as it was', async (_name, out, cwd) => {
    const r = await runCli(['analytics', 'query', 'SELECT 1 AS x', '--db', db, '--format', 'csv', '-o', out()], {
      env: { XDG_CONFIG_HOME: dir.path },
      cwd,
    });
    expect(r.stderr).toMatch(REFUSED);
    expect(r.code).toBe(2);
    expect(readFileSync(db).equals(bytes)).toBe(true);
    expect(existsSync(`${db}.wal`)).toBe(false);
  });

  it('another file beside it is written as usual', async () => {
    const out = join(dir.path, 'rows.csv');
    const r = await runCli(['analytics', 'query', 'SELECT 1 AS x', '--db', db, '--format', 'csv', '-o', out], {
      env: { XDG_CONFIG_HOME: dir.path },
    });
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('x\r\n1\r\n');
  });
});
