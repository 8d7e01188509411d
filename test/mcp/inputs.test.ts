// What the agent sends, however long or odd: through a real MCP client over stdio (the built CLI)
// against the sandbox. Over-long ids, cursors, dates and statuses are refused before anything is sent,
// and every error is one bounded line of what went wrong and one of what to do next.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { connect, textOf, type Connected } from './helpers.js';

const fx = useSandbox();
let server: Connected;

beforeAll(async () => {
  server = await connect(['--allow', 'automation,preview,export'], fx.env());
});
afterAll(async () => {
  await server?.close();
});

const BIG = 'A'.repeat(2_000_000);
/** Long enough for no id or date, short enough that the sandbox would record a request holding it (Node refuses 16 KB of headers before any handler). */
const LONG = 'A'.repeat(8000);

describe('inputs', () => {
  it.each([
    ['agent_get', 'jobId'],
    ['export_status', 'jobId'],
    ['build_status', 'statusId'],
    ['automation_run', 'automationId'],
    ['preview_start', 'branch'],
    ['export_run', 'directory'],
    ['export_run', 'domain'],
    ['analytics_searches', 'next'],
    ['analytics_feedback', 'next'],
    ['analytics_searches', 'dateFrom'],
    ['analytics_gaps', 'dateTo'],
    ['analytics_feedback', 'status'],
  ])('%s with a long %s: refused before anything is sent, in a short error', async (tool, field) => {
    for (const value of [LONG, BIG]) {
      const args = { ...(tool === 'export_run' ? { directory: 'site' } : {}), [field]: value };
      fx.sandbox.requests.length = 0;
      const result = await server.client.callTool({ name: tool, arguments: args });
      expect(result.isError).toBe(true);
      expect(textOf(result).length).toBeLessThan(2000);
      expect(fx.sandbox.requests).toEqual([]);
    }
  });

  it('a status with a line break is refused in one line of what went wrong and one of what to do', async () => {
    fx.sandbox.requests.length = 0;
    const result = await server.client.callTool({
      name: 'analytics_feedback',
      arguments: { status: 'resolved\r\nX-Evil: 1' },
    });
    expect(result.isError).toBe(true);
    const lines = textOf(result).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/status/);
    expect(lines[1]).toMatch(/^Next step: fix the arguments/);
    expect(fx.sandbox.requests).toEqual([]);
  });
});
