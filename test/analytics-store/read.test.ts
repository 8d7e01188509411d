// Opening the database to read it (query, report): while a sync holds it, said in a reader's words;
// without the optional DuckDB package, the store's own advice; and the lock-down cannot be undone.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { DuckDbMissingError } from '../../src/analytics-store/errors.js';
import { openForReading } from '../../src/analytics-store/read.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { holdDatabase } from '../helpers/duckdb-holder.js';

const dir = tempDir();
afterAll(() => dir.cleanup());

describe('reading the analytics database', () => {
  it('while another process writes it: exit 1, naming analytics sync and the holder', async () => {
    const path = join(dir.path, 'held.duckdb');
    (await openAnalyticsDb(path)).close();
    const holder = await holdDatabase(path);
    try {
      for (const args of [['query', 'SELECT 1'], ['report']]) {
        const r = await runCli(['analytics', ...args, '--db', path]);
        expect(r.code).toBe(1);
        expect(r.stderr).toBe(
          `error: the analytics database ${path} is being written by another process (pid ${holder.pid}), most likely \`analytics sync\`: read it once the sync has finished\n`,
        );
      }
    } finally {
      holder.release();
    }
  });

  it('without DuckDB installed: the store says how to install it', async () => {
    const path = join(dir.path, 'a.duckdb');
    (await openAnalyticsDb(path)).close();
    const missing = Object.assign(new Error("Cannot find package '@duckdb/node-api'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    await expect(openForReading(path, () => Promise.reject(missing))).rejects.toBeInstanceOf(DuckDbMissingError);
  });

  it('the lock-down holds: a setting cannot be switched back on', async () => {
    const path = join(dir.path, 'b.duckdb');
    (await openAnalyticsDb(path)).close();
    const db = await openForReading(path);
    try {
      await expect(db.connection.run('SET enable_external_access = true')).rejects.toThrow(
        /configuration has been locked/,
      );
      // A file beside the database (a config holding the key, say); DuckDB allows only its own files.
      const secret = join(dir.path, 'config.json');
      writeFileSync(secret, '{"apiKey":"mint_x"}');
      await expect(db.connection.run(`SELECT * FROM read_text('${secret}')`)).rejects.toThrow(/Permission Error/);
    } finally {
      db.close();
    }
  });
});
