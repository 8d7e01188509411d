// JSON and NDJSON printed by the CLI carry no raw C1 control character (U+0080-U+009F: U+009B is a
// CSI introducer to several terminals) and no raw U+2028/U+2029 (line breaks to JavaScript, which
// split a JSON line read by a JavaScript consumer): each is written as \uXXXX, so the text a
// program parses is unchanged and the bytes a terminal sees drive nothing. Through runCli against
// a per-test loopback server answering such text.
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentJob } from '../../src/api/types.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { term } from '../helpers/searches.js';
import { json, startServer, type Handler } from '../helpers/server.js';

const PROJECT = 'proj_1';
/** A C1 CSI that would clear the screen, a C1 OSC, NEL, DEL, and the two JavaScript line breaks. */
const HOSTILE = 'a\x9b2Jb\x9d0;title\x9c c\x85d\x7fe\u2028f\u2029g';
const RAW = /[\x7f-\x9f\u2028\u2029]/;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function cli(routes: Record<string, Handler>, args: string[]) {
  const server = await startServer(routes);
  const dir = tempDir();
  cleanups.push(() => server.close(), dir.cleanup);
  return runCli(args, {
    env: {
      MINTLIFY_API_URL: server.url,
      MINTLIFY_ADMIN_API_KEY: 'mint_jsonControlsKey0123',
      MINTLIFY_PROJECT_ID: PROJECT,
      HOME: dir.path,
      XDG_CONFIG_HOME: `${dir.path}/xdg`,
    },
  });
}

const searches = (): Record<string, Handler> => ({
  [`GET /v1/analytics/${PROJECT}/searches`]: json(200, {
    searches: [term({ searchQuery: HOSTILE, topClickedPage: `/p${HOSTILE}` })],
    totalSearches: 10,
    nextCursor: null,
  }),
});

describe('JSON output escapes C1 controls, DEL and U+2028/U+2029', () => {
  it('searches list --format json: one document, the text intact once parsed', async () => {
    const r = await cli(searches(), ['searches', 'list', '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain('"a\\u009b2Jb\\u009d0;title\\u009c c\\u0085d\\u007fe\\u2028f\\u2029g"');
    expect(JSON.parse(r.stdout).searches[0].searchQuery).toBe(HOSTILE);
  });

  it('searches list --format ndjson: one line an item, the text intact once parsed', async () => {
    const r = await cli(searches(), ['searches', 'list', '--format', 'ndjson']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).topClickedPage).toBe(`/p${HOSTILE}`);
  });

  it('a --json document (agent get --json)', async () => {
    const job: AgentJob = {
      id: 'job_1',
      status: 'completed',
      source: { repository: 'https://github.com/acme/docs', ref: 'fix' },
      model: 'sonnet',
      prLink: `https://x/${HOSTILE}`,
      createdAt: '2026-11-22T12:00:00.000Z',
      archivedAt: null,
    };
    const r = await cli({ [`GET /v2/agent/${PROJECT}/job/job_1`]: json(200, job) }, [
      'agent',
      'get',
      'job_1',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(JSON.parse(r.stdout).prLink).toBe(`https://x/${HOSTILE}`);
  });

  it('while a table shows them visibly (tab-separated when piped), and CSV keeps the data for a file', async () => {
    const table = await cli(searches(), ['searches', 'list']);
    expect(table.stdout).toContain('a\\x9b2Jb\\x9d0;title\\x9c c\\x85d\\x7fe');
    expect(table.stdout).not.toMatch(/[\x7f-\x9f]/);
    const csv = await cli(searches(), ['searches', 'list', '--format', 'csv']);
    expect(csv.stdout).toContain(HOSTILE);
  });
});
