// A query DuckDB would run for hours (a scan of 10^11 rows) ends at Ctrl-C: DuckDB's threads are
// deaf to the event loop, so before the interrupt the run went on for as long as the scan took. No
// timing: a run that did not interrupt the scan would go on for hours, past this test's ceiling.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

describe('analytics query interrupted', () => {
  it('Ctrl-C during a long query ends it, exit 130', async () => {
    const dir = tempDir();
    try {
      const db = join(dir.path, 'a.duckdb');
      (await openAnalyticsDb(db)).close();
      const env = { HOME: dir.path, XDG_CONFIG_HOME: join(dir.path, 'xdg'), MINTLIFY_PROJECT_ID: 'p' };
      let stopped = false;
      const r = await runInProcess(
        ['analytics', 'query', '--db', db, 'SELECT count(*) FROM range(100000000000) t(x) WHERE x % 7 = 3'],
        {
          env,
          onStart: (stop) => {
            // Aimed at the scan, once DuckDB has had a moment to start it.
            setTimeout(() => {
              stopped = true;
              stop('SIGINT');
            }, 300);
          },
        },
      );
      expect(r.code).toBe(130);
      expect(stopped).toBe(true);
    } finally {
      dir.cleanup();
    }
  }, 20_000);
});
