// The analytics commands through the built CLI against the sandbox: exact output per format (built
// here from the API's own pages, not from src/output), request counts and page sizes, the three
// paging styles, the feedback union flattened in CSV, --by-page with hasMore, thread 404, a rate
// limit mid-export with a resume command that completes the file when run, and the gaps report
// finding the planted gaps in order within its budget.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConversationsPage, FeedbackItem, FeedbackPage, ViewsPage } from '../../src/api/types.js';
import { useSandbox } from '../helpers/sandbox.js';
import { resumeLine, runCli, runPrintedCommand, tempDir, type CliResult } from '../helpers/cli.js';
import { noPython, PYTHON_SKIP_NOTE, runCliOnPty, screenText } from '../helpers/pty.js';
import { expectedCsvCell } from '../helpers/searches.js';

const t = useSandbox({ searchTermCount: 600, analytics: { pages: 300, feedback: 450, conversations: 2500 } });

const env = () => t.env() as Record<string, string>;
const cli = (args: string[], cwd?: string) => runCli(['analytics', ...args], { env: env(), cwd });
const sent = (route: string) =>
  t.sandbox.requests
    .filter((r) => new URL(r.path, 'http://x').pathname === `/v1/analytics/${t.sandbox.projectId}/${route}`)
    .map((r) => Object.fromEntries(new URL(r.path, 'http://x').searchParams));

/** Fetches an endpoint directly (the requests are then forgotten). */
async function api<T>(route: string, query: Record<string, string>): Promise<T> {
  const res = await fetch(
    `${t.sandbox.baseUrl}/v1/analytics/${t.sandbox.projectId}/${route}?${new URLSearchParams(query)}`,
    { headers: { authorization: `Bearer ${t.sandbox.apiKey}` } },
  );
  const body = (await res.json()) as T;
  t.sandbox.requests.length = 0;
  return body;
}

async function allFeedback(query: Record<string, string> = {}): Promise<FeedbackItem[]> {
  const items: FeedbackItem[] = [];
  let cursor: string | null = null;
  do {
    const page: FeedbackPage = await api<FeedbackPage>('feedback', {
      ...query,
      limit: '100',
      ...(cursor ? { cursor } : {}),
    });
    items.push(...page.feedback);
    cursor = page.hasMore ? page.nextCursor : null;
  } while (cursor);
  return items;
}

const csvLine = (cells: Array<string | number | boolean | null | undefined>) =>
  `${cells.map((c) => expectedCsvCell(c === undefined ? null : typeof c === 'boolean' ? String(c) : c)).join(',')}\r\n`;
const feedbackCsv = (items: FeedbackItem[]) => {
  const f = (i: FeedbackItem, k: string) => (i as Record<string, string | boolean | null | undefined>)[k];
  return (
    'id,createdAt,source,status,path,comment,helpful,contact,code,filename,lang\r\n' +
    items
      .map((i) =>
        csvLine([
          i.id,
          i.createdAt,
          i.source,
          i.status,
          i.path,
          i.comment,
          f(i, 'helpful'),
          f(i, 'contact'),
          f(i, 'code'),
          f(i, 'filename'),
          f(i, 'lang'),
        ]),
      )
      .join('')
  );
};

const runShell = (command: string, cwd: string): Promise<CliResult> => runPrintedCommand(command, { cwd, env: env() });

describe('analytics feedback', () => {
  it('csv --all: the union flattened to one set of columns, formula-safe, 100 a request, the request count at the end', async () => {
    const items = await allFeedback();
    const r = await cli(['feedback', '--all', '--format', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(feedbackCsv(items));
    const requests = Math.ceil(items.length / 100);
    expect(sent('feedback').map((q) => q.limit)).toEqual(Array(requests).fill('100'));
    expect(r.stderr).toBe(
      `fetching feedback entries\nShowing ${items.length} feedback entries, the last of the range; ${requests} analytics requests used (the organization shares 100 an hour)\n`,
    );
    // Each variant's own fields, empty on the others; the planted "=..." comment neutralised.
    const lines = r.stdout.split('\r\n');
    expect(lines.find((l) => l.includes(',code_snippet,') && l.includes('mint deploy --prod'))).toMatch(
      /,'=this flag no longer exists,,,mint deploy --prod,deploy\.sh,(bash)?$/,
    );
    expect(lines.find((l) => /,contextual,.*,false,,,,$/.test(l))).toBeDefined();
  });

  it('--source and --status go to the API and into the next-page hint', async () => {
    const r = await cli([
      'feedback',
      '--source',
      'code_snippet',
      '--status',
      'pending,resolved',
      '--limit',
      '5',
      '--format',
      'ndjson',
    ]);
    expect(r.code).toBe(0);
    const first = await api<FeedbackPage>('feedback', {
      source: 'code_snippet',
      status: 'pending,resolved',
      limit: '5',
    });
    expect(r.stdout).toBe(first.feedback.map((f) => `${JSON.stringify(f)}\n`).join(''));
    expect(r.stderr).toBe(
      `Showing 5 feedback entries; 1 analytics request used (the organization shares 100 an hour); more: --cursor ${first.nextCursor} (or --all)\n`,
    );
  });

  it('json: the page object with the items as the API sent them; table in a pipe: tab-separated rows under a header', async () => {
    const first = await api<FeedbackPage>('feedback', { limit: '4' });
    const json = await cli(['feedback', '--limit', '4', '--json']);
    expect(json.stdout).toBe(
      `${JSON.stringify({ feedback: first.feedback, nextCursor: first.nextCursor, hasMore: true }, null, 2)}\n`,
    );
    const table = await cli(['feedback', '--limit', '4']);
    const cell = (v: unknown) =>
      (v === null || v === undefined ? '-' : String(v))
        .replace(/\\/g, '\\\\')
        .replace(/\t/g, '\\t')
        .replace(/\n/g, '\\n')
        .replace(/\r/g, '\\r');
    expect(table.stdout).toBe(
      'created\tsource\tstatus\tpage\thelpful\tcomment\n' +
        first.feedback
          .map(
            (f) =>
              `${[f.createdAt, f.source, f.status, f.path, (f as { helpful?: boolean }).helpful, f.comment].map(cell).join('\t')}\n`,
          )
          .join(''),
    );
  });

  it.skipIf(noPython)(
    `a drawn table on a terminal fits 40 to 100 columns (less important columns go first), one header, no wrapped row${PYTHON_SKIP_NOTE}`,
    async () => {
      for (const [args, cols, head] of [
        [['feedback'], 100, /^│ created +│ source +│ status +│ page +│ helpful +│ comment +│$/],
        [['feedback'], 80, /^│ created +│ source +│ status +│ page +│ comment +│$/],
        [['feedback'], 60, /^│ source +│ page +│ comment +│$/],
        [['feedback'], 40, /^│ source +│ page +│ comment +│$/],
        [['conversations'], 60, /^│ status +│ page +│ question +│$/],
      ] as const) {
        const r = await runCliOnPty(['analytics', ...args, '--limit', '30'], { env: env(), cols });
        expect(r.code).toBe(0);
        const table = r.output
          .replace(/\x1b\[[0-9;]*m/g, '')
          .split('\r\n')
          .filter((l) => /^[┌│├└]/.test(l));
        expect(
          table.filter((l) => head.test(l)),
          table.slice(0, 3).join('\n'),
        ).toHaveLength(1);
        expect(table.length).toBeGreaterThan(30);
        const widths = new Set(table.map((l) => [...l].length));
        expect(widths.size, table.join('\n')).toBe(1);
        expect([...widths][0]).toBeLessThanOrEqual(cols);
      }
    },
    60_000, // One run on a pseudo-terminal per width: past 30 s on a loaded 2-core machine.
  );

  it('bad input is exit 2 before any request', async () => {
    for (const args of [
      ['--from', '2026-02-30'],
      ['--status', 'open'],
      ['--limit', '101'],
      ['--all', '--limit', '5'],
      ['--source', 'email'],
    ]) {
      const r = await cli(['feedback', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect(t.sandbox.requests).toEqual([]);
  });

  it('--by-page asks for the largest page once and says the API cannot page further when hasMore is true', async () => {
    const page = await api<{ feedback: Array<Record<string, number | string>>; hasMore: boolean }>('feedback/by-page', {
      limit: '100',
    });
    expect(page.hasMore).toBe(true);
    const r = await cli(['feedback', '--by-page', '--format', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'path,thumbsUp,thumbsDown,code,total\r\n' +
        page.feedback.map((p) => csvLine([p.path!, p.thumbsUp!, p.thumbsDown!, p.code!, p.total!])).join(''),
    );
    expect(sent('feedback/by-page')).toEqual([{ limit: '100' }]);
    expect(r.stderr).toContain(
      'warning: the API holds feedback for more pages than the 100 shown, but --by-page has no cursor or offset: the API cannot page further.',
    );
    const json = JSON.parse((await cli(['feedback', '--by-page', '--json'])).stdout) as {
      feedback: unknown[];
      hasMore: boolean;
    };
    expect(json).toEqual({ feedback: page.feedback, hasMore: true });
  });

  it('a 429 mid --all: whole rows, exit 6, the organization-wide limit named, and the printed command completes the file', async () => {
    const items = await allFeedback();
    const dir = tempDir();
    try {
      t.sandbox.faults.inject({ route: 'feedback.list' });
      t.sandbox.faults.inject({ route: 'feedback.list', status: 429, retryAfter: 3600 });
      const r = await cli(['feedback', '--all', '--format', 'csv', '-o', 'feedback.csv'], dir.path);
      expect(r.code).toBe(6);
      expect(readFileSync(join(dir.path, 'feedback.csv'), 'utf8')).toBe(feedbackCsv(items.slice(0, 100)));
      expect(r.stderr).toMatch(
        /^warning: stopped after 100 feedback entries \(1 page, 2 analytics requests\); what was written to feedback\.csv ends with a whole row\./m,
      );
      expect(r.stderr).toContain('shared by every analytics endpoint and everyone in the organization');
      const resume = resumeLine(r.stderr);
      expect(resume).toMatch(
        /^mint-admin analytics feedback --all --format csv --no-header --cursor \S+ >> feedback\.csv$/,
      );
      const again = await runShell(resume, dir.path);
      expect(again.code).toBe(0);
      expect(readFileSync(join(dir.path, 'feedback.csv'), 'utf8')).toBe(feedbackCsv(items));
    } finally {
      dir.cleanup();
    }
  });
});

describe('analytics conversations', () => {
  it('json: sources stay an array; csv: sources are one cell; --all asks for 1000 a request', async () => {
    const first = await api<ConversationsPage>('assistant', { limit: '3' });
    const json = await cli(['conversations', '--limit', '3', '--json']);
    expect(json.stdout).toBe(
      `${JSON.stringify({ conversations: first.conversations, nextCursor: first.nextCursor, hasMore: true }, null, 2)}\n`,
    );
    const csv = await cli(['conversations', '--limit', '3', '--format', 'csv']);
    const sourcesCell = (c: ConversationsPage['conversations'][number]) =>
      c.sources.map((s) => `${s.title} <${s.url}>`).join('\n');
    expect(csv.stdout).toBe(
      'id,timestamp,resolutionStatus,queryCategory,pageUrl,query,response,responseType,sources\r\n' +
        first.conversations
          .map((c) =>
            csvLine([
              c.id,
              c.timestamp,
              c.resolutionStatus,
              c.queryCategory,
              c.pageUrl,
              c.query,
              c.response,
              c.responseType ?? 'answer',
              sourcesCell(c),
            ]),
          )
          .join(''),
    );
    const tsv = await cli(['conversations', '--limit', '3']);
    expect(tsv.stdout).toBe(
      'time\tstatus\tcategory\tpage\tquestion\n' +
        first.conversations
          .map(
            (c) =>
              `${[c.timestamp, c.resolutionStatus, c.queryCategory ?? '-', c.pageUrl ?? '-', c.query].join('\t')}\n`,
          )
          .join(''),
    );
    t.sandbox.requests.length = 0;
    const all = await cli(['conversations', '--all', '--format', 'ndjson']);
    expect(all.stdout.split('\n').filter(Boolean)).toHaveLength(t.sandbox.analytics.data.conversations.length);
    expect(sent('assistant').map((q) => q.limit)).toEqual(['1000', '1000', '1000']);
    expect(all.stderr).toContain('3 analytics requests used');
  });
});

describe('analytics thread', () => {
  it('prints the messages for a person, the object with --json, and a 404 says what to check', async () => {
    const c = t.sandbox.analytics.data.conversations[0]!;
    const r = await cli(['thread', c.id]);
    expect(r.code).toBe(0);
    const at = new Date(c.timestamp).toISOString();
    expect(r.stdout).toBe(
      `Thread ${c.id}, started ${at}, 2 messages\n\nReader (${at}):\n  ${c.query}\n\nAssistant (${new Date(c.timestamp + 4000).toISOString()}):\n  ${c.response}\n`,
    );
    const json = JSON.parse((await cli(['thread', c.id, '--json'])).stdout) as {
      threadId: string;
      messages: unknown[];
    };
    expect(json.threadId).toBe(c.id);
    expect(json.messages).toHaveLength(2);
    const missing = await cli(['thread', '01ZZZZZZZZZZZZZZZZZZZZZZZZ']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'error: no assistant thread 01ZZZZZZZZZZZZZZZZZZZZZZZZ in this project (404); take the id from `mint-admin analytics conversations` and check --project\n',
    );
    const bad = await cli(['thread', '../x']);
    expect(bad.code).toBe(2);
  });
});

describe('analytics callers, views and visitors', () => {
  it('callers: one request, table and json', async () => {
    const stats = await api<Record<string, number>>('assistant/caller-stats', {});
    const r = await cli(['callers']);
    expect(r.stdout).toBe(
      ['web', 'api', 'other', 'total'].map((k) => `${k.padEnd(6)} ${String(stats[k]).padStart(8)}\n`).join(''),
    );
    expect(JSON.parse((await cli(['callers', '--json'])).stdout)).toEqual(stats);
  });

  it.each(['views', 'visitors'] as const)(
    '%s --all: offset pages of 250, tab-separated rows with the totals after the table',
    async (name) => {
      const first = await api<ViewsPage & { visitors: ViewsPage['views'] }>(name, { limit: '250' });
      const second = await api<ViewsPage & { visitors: ViewsPage['views'] }>(name, { limit: '250', offset: '250' });
      const rows = [...first[name], ...second[name]];
      const r = await cli([name, '--all']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(
        'page\thuman\tAI\ttotal\n' + rows.map((p) => `${p.path}\t${p.human}\t${p.ai}\t${p.total}\n`).join(''),
      );
      expect(sent(name)).toEqual([{ limit: '250' }, { limit: '250', offset: '250' }]);
      const counted = name === 'views' ? 'views' : 'unique visitors';
      expect(r.stderr).toBe(
        `fetching pages\nSite-wide ${counted}: ${first.totals.total} (human ${first.totals.human}, AI ${first.totals.ai})\n` +
          `Showing ${rows.length} pages, the last of the range; 2 analytics requests used (the organization shares 100 an hour)\n`,
      );
    },
  );

  it('views --json: the rows, the site-wide totals and where the next page starts', async () => {
    const first = await api<ViewsPage>('views', { limit: '5' });
    const r = await cli(['views', '--limit', '5', '--json']);
    expect(r.stdout).toBe(
      `${JSON.stringify({ views: first.views, totals: first.totals, hasMore: true, nextOffset: 5 }, null, 2)}\n`,
    );
    expect(r.stderr).toBe('');
  });

  it('--debug says how many analytics requests were used', async () => {
    const r = await cli(['views', '--limit', '1', '--debug']);
    expect(r.stderr).toContain('debug: analytics requests used: 1 (the organization shares 100 an hour)\n');
  });

  it('analytics searches is searches list', async () => {
    const a = await cli(['searches', '--limit', '7', '--format', 'csv']);
    const b = await runCli(['searches', 'list', '--limit', '7', '--format', 'csv'], { env: env() });
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout.split('\r\n')).toHaveLength(9);
  });
});

describe('analytics gaps', () => {
  it('finds the planted gaps in order, explains each, and stays within --max-requests', async () => {
    const r = await cli(['gaps', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      gaps: Array<{ kind: string; evidence: string; why: string }>;
      requests: { used: number; max: number };
      partial: boolean;
    };
    const planted = report.gaps.filter((g) =>
      [
        'rotate api key without downtime',
        'authentication on /api-reference/authentication',
        'webhook signature verification',
        '/guides/deploy',
      ].includes(g.evidence),
    );
    expect(planted.map((g) => [g.kind, g.evidence])).toEqual([
      ['search', 'rotate api key without downtime'],
      ['question', 'authentication on /api-reference/authentication'],
      ['search', 'webhook signature verification'],
      ['page', '/guides/deploy'],
    ]);
    expect(report.gaps.slice(0, 2).map((g) => g.evidence)).toEqual([
      'rotate api key without downtime',
      'authentication on /api-reference/authentication',
    ]);
    expect(planted[1]!.why).toMatch(/^60 assistant questions of 60 left unanswered, x3\.\d for \d+ views$/);
    expect(planted[3]!.why).toMatch(
      /^\d+ thumbs-down votes \(\d+ up\) and \d+ code-snippet reports, x3\.\d for \d+ views$/,
    );
    expect(report.requests.max).toBe(25);
    expect(report.requests.used).toBe(t.sandbox.requests.length);
    expect(report.requests.used).toBeLessThanOrEqual(25);
  });

  it('a small budget: exactly that many requests, and the report says it is partial and why', async () => {
    const r = await cli(['gaps', '--max-requests', '4']);
    expect(r.code).toBe(0);
    expect(t.sandbox.requests).toHaveLength(4);
    expect(r.stdout).toContain('4 of 4 analytics requests used');
    expect(r.stdout).toMatch(
      /\*\*Partial report\*\*: .*assistant conversations: stopped at the request budget after 1 request.*search terms: stopped at the request budget after 1 request/,
    );
    expect(r.stderr).toMatch(/^warning: partial report: .*; 4 of 4 analytics requests used/m);
  });

  it('a 429 mid-report: the gaps found so far are reported as partial, then exit 6', async () => {
    t.sandbox.faults.inject({ route: 'assistant.list', status: 429, retryAfter: 3600 });
    const r = await cli(['gaps', '--format', 'csv']);
    expect(r.code).toBe(6);
    expect(r.stdout.split('\r\n')[0]).toBe('rank,kind,evidence,page,count,views,score,why,examples');
    expect(r.stdout).toContain(',page,/guides/deploy,/guides/deploy,');
    expect(r.stdout).not.toContain('authentication on');
    expect(r.stderr).toContain(
      'assistant conversations: stopped by the analytics rate limit (429); search terms: not read: the analytics rate limit was reached',
    );
    expect(sent('searches')).toEqual([]);
  });

  it('--prompt: an instruction for agent run addressing the top N', async () => {
    const r = await cli(['gaps', '--prompt', '--top', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Readers of these docs looked for things they did not find\. Address the 2 content gaps below/,
    );
    expect(r.stdout).toContain('\n1. Readers searched for "rotate api key without downtime" and clicked no result');
    expect(r.stdout).toContain(
      '\n2. The assistant could not answer questions about "authentication on /api-reference/authentication"',
    );
    expect(r.stdout).not.toContain('\n3. ');
  });

  it.skipIf(noPython)(
    `on a terminal: a table fitted to the width (no Markdown pipes), the partial note once; --format md keeps Markdown${PYTHON_SKIP_NOTE}`,
    async () => {
      for (const cols of [100, 80, 50]) {
        const r = await runCliOnPty(['analytics', 'gaps', '--max-requests', '4'], { env: env(), cols });
        expect(r.code).toBe(0);
        const lines = screenText(r.output).split('\n');
        expect(
          lines.filter((l) => l.startsWith('|')),
          `${cols} columns`,
        ).toEqual([]);
        expect(r.output).not.toContain('**');
        const table = lines.filter((l) => /^[┌│├└]/.test(l));
        expect(
          table.filter((l) => /^│ +# │ kind +│ evidence +│/.test(l)),
          lines.join('\n'),
        ).toHaveLength(1);
        expect(table.length).toBeGreaterThan(3);
        const widths = new Set(table.map((l) => [...l].length));
        expect(widths.size, table.join('\n')).toBe(1);
        expect([...widths][0]).toBeLessThanOrEqual(cols);
        // Every line of the report fits but the command to copy, which stays whole (stderr's warning is a line of its own).
        expect(
          lines.filter(
            (l) => [...l].length > cols && !l.startsWith('  mint-admin agent run') && !l.startsWith('warning: '),
          ),
          `${cols} columns`,
        ).toEqual([]);
        expect(r.output.match(/partial report/gi), `${cols} columns`).toHaveLength(1);
      }
      const md = await runCliOnPty(['analytics', 'gaps', '--max-requests', '4', '--format', 'md'], {
        env: env(),
        cols: 80,
      });
      expect(md.code).toBe(0);
      expect(md.output).toContain('| # | kind | evidence | count | score | why |');
    },
    60_000, // Four runs on a pseudo-terminal: past 30 s on a loaded 2-core machine.
  );

  it('bad input is exit 2 with nothing sent', async () => {
    for (const args of [
      ['--max-requests', '3'],
      ['--max-requests', 'lots'],
      ['--from', '2026-11-10', '--to', '2026-11-01'],
      ['--format', 'xml'],
      ['--prompt', '--format', 'csv'],
    ]) {
      expect((await cli(['gaps', ...args])).code, args.join(' ')).toBe(2);
    }
    expect(t.sandbox.requests).toEqual([]);
  });
});
