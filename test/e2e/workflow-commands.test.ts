// The GitHub Actions runner reads a step's stdout and stderr line by line and runs as a workflow
// command any line that starts with `::` once leading whitespace is trimmed (`::add-mask::`,
// `::stop-commands::`, `::error::`), and the legacy form `##[command]` anywhere in a line
// (actions/runner, ActionCommand.TryParseV2 and TryParse). Server text must never issue one: build
// logs, failure summaries, error messages and data rows all carry it. Through the built CLI against
// a server whose every answer is full of them, no line it prints may be one.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { json, startServer, type Handler } from '../helpers/server.js';

const KEY = 'mint_0123456789abcdef0123456789abcdef';
const HOSTILE = [
  '::error::forged annotation',
  '::add-mask::everything',
  '::stop-commands::pause-token',
  '  ::warning title=x::indented',
  '\t::notice::after a tab',
  'text ##[error]legacy form mid-line',
  '::set-output name=status::success',
];

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function cli(routes: Record<string, Handler>, args: string[]) {
  const s = await startServer(routes);
  close = s.close;
  const home = tempDir();
  try {
    return await runCli(args, {
      env: {
        HOME: home.path,
        XDG_CONFIG_HOME: home.path,
        MINTLIFY_API_URL: s.url,
        MINTLIFY_ADMIN_API_KEY: KEY,
        MINTLIFY_PROJECT_ID: 'p1',
      },
    });
  } finally {
    home.cleanup();
  }
}

/** Every line the runner would run as a command (its own two rules), from stdout and stderr. */
function workflowCommands(r: { stdout: string; stderr: string }): string[] {
  return `${r.stdout}\n${r.stderr}`.split(/\r\n|\r|\n/).filter((line) => /^\s*::/.test(line) || line.includes('##['));
}

describe('server text never issues a workflow command', () => {
  it('a failed build: its log, summary and the failure message', async () => {
    const r = await cli(
      {
        'GET /v1/project/update-status/s1': json(200, {
          _id: 's1',
          status: 'failure',
          summary: HOSTILE.join('\n'),
          logs: HOSTILE,
        }),
      },
      ['deploy', 'status', 's1', '--wait', '--interval', '1s'],
    );
    expect(r.code).toBe(4);
    // Every hostile line is still there to read, just not at the start of a line.
    for (const words of [
      'forged annotation',
      'everything',
      'pause-token',
      'indented',
      'after a tab',
      'legacy form mid-line',
      'name=status::success',
    ]) {
      expect(r.stderr).toContain(words);
    }
    expect(workflowCommands(r)).toEqual([]);
  });

  it('a build status without waiting: the status on stdout and the summary on stderr', async () => {
    const r = await cli(
      {
        'GET /v1/project/update-status/s1': json(200, {
          _id: 's1',
          status: 'queued',
          summary: HOSTILE.join('\n'),
          logs: [],
        }),
      },
      ['deploy', 'status', 's1'],
    );
    expect(r.code).toBe(0);
    expect(workflowCommands(r)).toEqual([]);
  });

  it('an API error message carrying server text', async () => {
    const r = await cli({ 'POST /v1/project/update/p1': json(400, { error: HOSTILE.join('\n') }) }, [
      'deploy',
      'start',
    ]);
    expect(r.code).toBe(1);
    expect(workflowCommands(r)).toEqual([]);
  });

  const page = {
    searches: HOSTILE.map((q, i) => ({
      searchQuery: q,
      hits: 10 - i,
      ctr: 0.5,
      topClickedPage: `/p\n${q}`,
      lastSearchedAt: '2026-11-20T10:00:00.000Z',
    })),
    totalSearches: 100,
    nextCursor: null,
  };
  it.each([['table'], ['csv']])('search terms as %s on stdout (a pipe)', async (format) => {
    const r = await cli({ 'GET /v1/analytics/p1/searches': json(200, page) }, ['searches', 'list', '--format', format]);
    expect(r.code, r.stderr).toBe(0);
    expect(workflowCommands(r)).toEqual([]);
  });
});
