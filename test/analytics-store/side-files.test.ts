// DuckDB lets a connection whose external access is off still open any path that starts with the
// database's own path (its temporary directory `<db>.tmp`, its logs `<db>.wal*`, and in fact `<db>x`),
// and it follows symbolic links there. A link planted beside the database (a repository, a shared
// workspace) then let `analytics query` read any file, and made a sync write its log through the link.
// Real links beside real DuckDB files in temp dirs; the CLI in-process.
import { chmodSync, lstatSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { openForReading } from '../../src/analytics-store/read.js';
import { runReadOnlyQuery } from '../../src/analytics-store/query.js';
import { DatabaseSideFileError } from '../../src/analytics-store/errors.js';
import { runCli } from '../../src/cli/run.js';
import { tempDir } from '../helpers/cli.js';
import { SkippingClock } from '../helpers/clock.js';
import { captureIO } from '../helpers/io.js';

const SECRET = 'mint_secret_key_0123456789';
let dir: { path: string; cleanup: () => void };
let db: string;
let secret: string;

beforeAll(async () => {
  dir = tempDir('mint-admin-side-');
  db = join(dir.path, 'a.duckdb');
  secret = join(dir.path, 'config.json');
  writeFileSync(secret, JSON.stringify({ key: SECRET }));
  const store = await openAnalyticsDb(db);
  await store.connection.run(
    `INSERT INTO searches VALUES ('2026-11-16', 'install', 40, 0.5, '/install', '2026-11-16 09:00:00')`,
  );
  store.close();
});
afterAll(() => dir.cleanup());

async function cli(args: string[]) {
  const captured = captureIO();
  const code = await runCli(args, {
    io: captured.io,
    env: { HOME: dir.path, XDG_CONFIG_HOME: join(dir.path, 'xdg'), MINTLIFY_PROJECT_ID: 'p' },
    clock: new SkippingClock(),
    signal: new AbortController().signal,
    random: Math.random,
    secrets: new Set(),
  });
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

function planted(name: string, target: string, run: () => Promise<void>) {
  return async () => {
    const link = `${db}${name}`;
    symlinkSync(target, link);
    try {
      await run();
    } finally {
      unlinkSync(link);
    }
  };
}

const read = (path: string) => `SELECT content FROM read_text('${path}')`;

describe('analytics query with a link planted beside the database', () => {
  it(
    '<db>.tmp -> /: the query is refused (exit 2), the file is not read',
    planted('.tmp', '/', async () => {
      const r = await cli(['analytics', 'query', '--db', db, read(`${db}.tmp${secret}`), '--format', 'json']);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(r.code).toBe(2);
    }),
  );

  it.each(['.wal.recovery', '.wal.checkpoint', '.foo', 'x'])(
    '<db>%s -> a file: the query is refused (exit 2), the file is not read',
    async (name) => {
      await planted(name, secret, async () => {
        const r = await cli(['analytics', 'query', '--db', db, read(`${db}${name}`), '--format', 'json']);
        expect(r.stdout + r.stderr).not.toContain(SECRET);
        expect(r.code).toBe(2);
      })();
    },
  );

  it('<db>.wal -> a file: refused before DuckDB opens anything (exit 2), naming the link', async () => {
    await planted('.wal', secret, async () => {
      const r = await cli(['analytics', 'query', '--db', db, read(`${db}.wal`), '--format', 'json']);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${db}.wal`);
      expect(r.stderr).toMatch(/symbolic link/);
    })();
  });

  it('a link planted after the database was opened is not followed either', async () => {
    const store = await openForReading(db);
    try {
      await planted('.tmp', '/', async () => {
        const result = runReadOnlyQuery(store.connection, read(`${db}.tmp${secret}`)).then(async (r) => {
          for await (const _ of r.chunks());
        });
        await expect(result).rejects.toThrow(/reaches outside the analytics database/);
      })();
    } finally {
      store.close();
    }
  });

  it('the rows of the database itself are still read', async () => {
    const r = await cli(['analytics', 'query', '--db', db, 'SELECT search_query FROM searches', '--format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).rows).toEqual([{ search_query: 'install' }]);
  });
});

describe('writing the database with a link planted beside it', () => {
  it('a <db>.wal link at open: refused (DatabaseSideFileError), its target neither written nor chmod-ed', async () => {
    const notes = join(dir.path, 'notes.txt');
    writeFileSync(notes, 'my notes\n');
    chmodSync(notes, 0o644);
    await planted('.wal', notes, async () => {
      await expect(openAnalyticsDb(db)).rejects.toBeInstanceOf(DatabaseSideFileError);
    })();
    expect(readFileSync(notes, 'utf8')).toBe('my notes\n');
    expect(statSync(notes).mode & 0o777).toBe(0o644);
  });

  it('a <db>.wal link planted while a writer has the file open: commits and close never write through it', async () => {
    const notes = join(dir.path, 'notes2.txt');
    writeFileSync(notes, 'my notes\n');
    chmodSync(notes, 0o644);
    const store = await openAnalyticsDb(db);
    symlinkSync(notes, `${db}.wal`);
    try {
      await store.connection.run(
        `INSERT INTO searches VALUES ('2026-11-17', 'sso', 3, 0, NULL, '2026-11-17 10:00:00')`,
      );
      const { restrictDatabaseFiles } = await import('../../src/analytics-store/db.js');
      restrictDatabaseFiles(db);
    } finally {
      store.close();
    }
    expect(readFileSync(notes, 'utf8')).toBe('my notes\n');
    expect(statSync(notes).mode & 0o777).toBe(0o644);
    expect(lstatSync(`${db}.wal`).isSymbolicLink()).toBe(true);
    unlinkSync(`${db}.wal`);
    const reader = await openForReading(db);
    try {
      const rows = (
        await reader.connection.runAndReadAll('SELECT count(*)::INTEGER AS n FROM searches')
      ).getRowObjectsJson();
      expect(rows).toEqual([{ n: 2 }]);
    } finally {
      reader.close();
    }
  });
});
