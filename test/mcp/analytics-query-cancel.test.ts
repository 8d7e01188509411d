// Cancelling analytics_query interrupts DuckDB: its threads are deaf to the event loop, so a query
// the server merely abandoned would go on scanning (for hours here: 10^11 rows) and burning the
// machine's cores after the agent moved on. The SDK client cancels the call (an AbortSignal on
// callTool). What shows the scan ended is an event, not a timing: the server closes its handle on
// the database once the query returns, and only then can another process open the file for writing
// (DuckDB locks it). An abandoned scan keeps the handle for hours, so the wait for that event fails
// only by hanging past its ceiling. The built CLI's server over stdio, a real DuckDB file.
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
/** Waits for an event; the ceiling is generous and only ends a hang. */
const until = async (what: () => boolean | Promise<boolean>, ceilingMs = 25_000): Promise<void> => {
  const end = Date.now() + ceilingMs;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('the awaited event never came');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
/** True once this process can open the database for writing: no other process holds it open. */
const openableForWriting = async (path: string): Promise<boolean> => {
  try {
    (await openAnalyticsDb(path)).close();
    return true;
  } catch {
    return false;
  }
};

const dir = tempDir('mint-admin-mcp-cancel-');
const db = join(dir.path, 'a.duckdb');
let server: Connected;
beforeAll(async () => {
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
  it('interrupts the query: the server lets go of the database, and answers the next call', async () => {
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
    // Cancelled once DuckDB is into the scan (the server has spent CPU on it), not before it starts.
    await until(() => cpuTicks(pid) - idle > 30);
    expect(await openableForWriting(db)).toBe(false);
    controller.abort(new Error('the agent moved on'));
    await expect(pending).rejects.toThrow(/the agent moved on/);
    expect(traffic.some((m) => m.includes('"notifications/cancelled"'))).toBe(true);

    await until(() => openableForWriting(db));
    expect(
      dataOf(await server.client.callTool({ name: 'analytics_query', arguments: { sql: 'SELECT 42 AS answer' } })).rows,
    ).toEqual([{ answer: 42 }]);
  }, 60_000);
});
