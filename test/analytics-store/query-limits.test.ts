// Every query runs under bounds: DuckDB's memory and temporary disk, a time, and what one chunk of rows
// may become in JavaScript. Without them `SELECT count(*) FROM range(10000000000000)` ran until the
// client gave up and `SELECT list(range) FROM range(20000000)` took the process to gigabytes. Each
// bound is asserted on its error (which names it), never on timing or memory use. Real DuckDB, small
// bounds so a test stays small; the CLI in-process with its own.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { runReadOnlyQuery } from '../../src/analytics-store/query.js';
import { CLI_QUERY_LIMITS, QueryLimitError, type QueryLimits } from '../../src/analytics-store/query-limits.js';
import { openForReading } from '../../src/analytics-store/read.js';
import { runCli } from '../../src/cli/run.js';
import { tempDir } from '../helpers/cli.js';
import { SkippingClock } from '../helpers/clock.js';
import { captureIO } from '../helpers/io.js';

const dir = tempDir('mint-admin-limits-');
const db = join(dir.path, 'a.duckdb');
beforeAll(async () => {
  (await openAnalyticsDb(db)).close();
});
afterAll(() => dir.cleanup());

const SMALL: QueryLimits = { memory: '32MB', temporaryDisk: '1MB', threads: 1, timeMs: 60_000, chunkElements: 1000 };

async function run(sql: string, limits: QueryLimits): Promise<unknown> {
  const store = await openForReading(db, undefined, limits);
  try {
    const result = await runReadOnlyQuery(store.connection, sql, undefined, limits);
    for await (const _chunk of result.chunks());
    return undefined;
  } catch (error) {
    return error;
  } finally {
    store.close();
  }
}

describe('a query past its bounds', () => {
  it('time: an endless scan is stopped, the error names the bound', async () => {
    const error = await run('SELECT count(*) FROM range(10000000000000)', { ...SMALL, timeMs: 50 });
    expect(error).toBeInstanceOf(QueryLimitError);
    expect(error).toMatchObject({ bound: 'time', message: expect.stringMatching(/time bound \(0\.05 seconds\)/) });
  });

  it('time: also while its rows stream', async () => {
    const error = await run('SELECT * FROM range(10000000000000)', { ...SMALL, timeMs: 50 });
    expect(error).toMatchObject({ bound: 'time' });
  });

  it('memory: DuckDB stops at the memory bound set at open, and no query can raise it', async () => {
    const error = await run('SELECT length(list(range)) FROM range(10000000)', SMALL);
    expect(error).toMatchObject({ bound: 'memory', message: expect.stringContaining('memory bound (32MB)') });
    expect(await run("SELECT current_setting('memory_limit') AS m", SMALL)).toBeUndefined();
    expect(await run("SET memory_limit = '8GB'", SMALL)).toBeInstanceOf(Error);
  });

  it('result size: a list too large to convert is refused before it is turned into JavaScript', async () => {
    const error = await run('SELECT list(range) FROM range(5000)', SMALL);
    expect(error).toMatchObject({ bound: 'result size', message: expect.stringContaining('1,000 list') });
  });

  it('nested and struct values count too', async () => {
    expect(await run('SELECT [list(range)] FROM range(5000)', SMALL)).toMatchObject({ bound: 'result size' });
    expect(await run("SELECT {'a': list(range)} FROM range(5000)", SMALL)).toMatchObject({ bound: 'result size' });
    expect(await run('SELECT map(list(range), list(range)) FROM range(5000)', SMALL)).toMatchObject({
      bound: 'result size',
    });
  });

  it('a query within its bounds runs as before', async () => {
    expect(await run('SELECT list(range) FROM range(100)', SMALL)).toBeUndefined();
  });
});

describe('analytics query past a bound', () => {
  it('exit 2, the error naming the bound, no rows', async () => {
    const captured = captureIO();
    const over = CLI_QUERY_LIMITS.chunkElements + 1;
    const code = await runCli(
      ['analytics', 'query', '--db', db, `SELECT list(range) FROM range(${over})`, '--format', 'json'],
      {
        io: captured.io,
        env: { HOME: dir.path, XDG_CONFIG_HOME: join(dir.path, 'xdg'), MINTLIFY_PROJECT_ID: 'p' },
        clock: new SkippingClock(),
        signal: new AbortController().signal,
        random: Math.random,
        secrets: new Set(),
      },
    );
    expect(code).toBe(2);
    expect(captured.stderr()).toMatch(/stopped at its result size bound/);
    // The JSON document's opening may be out (stdout streams), never a row of it.
    expect(captured.stdout()).not.toMatch(/\d/);
  });
});
