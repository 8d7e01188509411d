// An abort during a query's stream: DuckDB's interrupt between two chunks ends the stream quietly (no
// error, no more chunks), so a caller that checked the signal only per chunk took a cut result for a
// whole one (`analytics query` printed "N rows written" and exited 0 after Ctrl-C). The stream must
// end with the abort's reason instead. Real DuckDB, in-process; the abort at a chosen chunk, no timer.
import { existsSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAnalyticsDb, type AnalyticsDb } from '../../src/analytics-store/db.js';
import { runReadOnlyQuery } from '../../src/analytics-store/query.js';
import { InterruptedError, type StopSignal } from '../../src/errors.js';
import { runCli } from '../../src/cli/run.js';
import { tempDir } from '../helpers/cli.js';
import { SkippingClock } from '../helpers/clock.js';
import { captureIO } from '../helpers/io.js';

const dir = tempDir();
const path = join(dir.path, 'a.duckdb');
const ENDLESS = 'SELECT * FROM range(10000000000000) t(n)';
let store: AnalyticsDb;
beforeAll(async () => {
  (await openAnalyticsDb(path)).close();
});
afterAll(() => dir.cleanup());

describe('runReadOnlyQuery aborted between chunks', () => {
  beforeAll(async () => {
    store = await openAnalyticsDb(path);
  });
  afterAll(() => store.close());

  it.each([[1], [3]])(
    'aborted after chunk %i: the stream rejects with the abort reason, not a quiet end',
    async (at) => {
      const controller = new AbortController();
      const result = await runReadOnlyQuery(store.connection, ENDLESS, controller.signal);
      const reason = new InterruptedError('interrupted', 'SIGINT');
      let seen = 0;
      const read = (async () => {
        for await (const _chunk of result.chunks()) if (++seen === at) controller.abort(reason);
      })();
      await expect(read).rejects.toBe(reason);
      expect(seen).toBe(at);
    },
  );
});

/** The CLI through its seam, stopped as `signal` would once `ready` says the rows have begun. */
async function interrupted(
  args: string[],
  signal: StopSignal,
  ready: (stop: () => void, stdout: NodeJS.ReadableStream) => void,
) {
  const captured = captureIO();
  const controller = new AbortController();
  ready(
    () => controller.abort(new InterruptedError('interrupted', signal)),
    captured.io.stdout as unknown as NodeJS.ReadableStream,
  );
  const code = await runCli(args, {
    io: captured.io,
    env: { HOME: dir.path, XDG_CONFIG_HOME: join(dir.path, 'xdg'), MINTLIFY_PROJECT_ID: 'p' },
    clock: new SkippingClock(),
    signal: controller.signal,
    random: Math.random,
    secrets: new Set(),
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stderr: captured.stderr() };
}

describe('analytics query interrupted while its rows stream', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s, rows on stdout: exit %i, no "rows" line',
    async (signal, code) => {
      const r = await interrupted(
        ['analytics', 'query', '--db', path, ENDLESS, '--format', 'csv'],
        signal,
        (stop, stdout) => stdout.once('data', stop),
      );
      expect(r.code).toBe(code);
      expect(r.stderr).not.toMatch(/\d+ rows/);
    },
    20_000,
  );

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s, rows into -o: exit %i, and no cut file left that could pass for the whole result',
    async (signal, code) => {
      const out = join(dir.path, `rows-${signal}.csv`);
      writeFileSync(out, 'an older result\n');
      const r = await interrupted(
        ['analytics', 'query', '--db', path, ENDLESS, '--format', 'csv', '-o', out],
        signal,
        (stop) => {
          const watcher = watch(dir.path, (_event, name) => {
            if (name !== `rows-${signal}.csv` || readFileSync(out, 'utf8').startsWith('an older')) return;
            watcher.close();
            stop();
          });
        },
      );
      expect(r.code).toBe(code);
      expect(r.stderr).not.toMatch(/rows written/);
      expect(existsSync(out)).toBe(false);
    },
    20_000,
  );
});
