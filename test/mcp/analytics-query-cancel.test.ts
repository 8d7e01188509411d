// Cancelling analytics_query interrupts DuckDB: its threads are deaf to the event loop, so a query
// the server merely abandoned would go on scanning (for hours here: 10^11 rows) and burning the
// machine's cores after the agent moved on. The SDK client cancels the call (an AbortSignal on
// callTool); the server must answer the next call at once and stop spending CPU, which it only does
// if the query itself was interrupted. The built CLI's server over stdio, a real DuckDB file.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { tempDir } from '../helpers/cli.js';
import { connect, dataOf, traffic, type Connected } from './helpers.js';

const SLOW = 'SELECT count(*) AS n FROM range(100000000000) t(x) WHERE x % 7 = 3';
/** CPU time a process has used, in clock ticks (user + system, every thread), from /proc. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
const until = async (what: () => boolean, ms: number): Promise<void> => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const dir = tempDir('mint-admin-mcp-cancel-');
let server: Connected;
beforeAll(async () => {
  const db = join(dir.path, 'a.duckdb');
  (await openAnalyticsDb(db)).close();
  server = await connect(['--db', db], {
    HOME: dir.path,
    XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    MINTLIFY_PROJECT_ID: 'p',
  });
});
afterAll(async () => {
  await server?.close();
  dir.cleanup();
});

describe.skipIf(!existsSync('/proc/self/stat'))('cancelling analytics_query', () => {
  it('interrupts the query: the next call is answered at once, and the server stops spending CPU', async () => {
    const pid = server.pid()!;
    // DuckDB loaded first, so the CPU counted below is the scan's, not the module's loading.
    expect(
      dataOf(await server.client.callTool({ name: 'analytics_query', arguments: { sql: 'SELECT 1 AS one' } })).rows,
    ).toEqual([{ one: 1 }]);
    const idle = cpuTicks(pid);
    const controller = new AbortController();
    const pending = server.client.callTool({ name: 'analytics_query', arguments: { sql: SLOW } }, undefined, {
      signal: controller.signal,
      timeout: 60_000,
    });
    // Cancelled once DuckDB is well into the scan (a third of a second of CPU), not before it starts.
    await until(() => cpuTicks(pid) - idle > 30, 20_000);
    controller.abort(new Error('the agent moved on'));
    await expect(pending).rejects.toThrow(/the agent moved on/);
    expect(traffic.some((m) => m.includes('"notifications/cancelled"'))).toBe(true);

    const asked = Date.now();
    expect(
      dataOf(await server.client.callTool({ name: 'analytics_query', arguments: { sql: 'SELECT 42 AS answer' } })).rows,
    ).toEqual([{ answer: 42 }]);
    expect(Date.now() - asked).toBeLessThan(3000);

    // An abandoned scan keeps DuckDB's threads busy (about a core each); an interrupted one spends nothing.
    const before = cpuTicks(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(cpuTicks(pid) - before).toBeLessThan(20);
  }, 30_000);
});
