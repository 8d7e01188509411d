// Stopping an analytics export early, in each paging style, through the built CLI: a 429 on an offset
// endpoint (views) resumed with --offset, a JSON export to a file resumed into a second file
// (conversations), Ctrl-C on visitors, and pages that would loop (a repeated cursor on feedback, an
// empty offset page that claims more) stopped with exit 1. Each printed command is run and must
// complete the data.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  Conversation,
  ConversationsPage,
  FeedbackItem,
  FeedbackPage,
  PageTraffic,
  ViewsPage,
} from '../../src/api/types.js';
import { useSandbox } from '../helpers/sandbox.js';
import { resumeLine, runCli, runPrintedCommand, tempDir, type CliResult } from '../helpers/cli.js';
import { expectedCsvCell } from '../helpers/searches.js';
import { json, startServer, type Handler } from '../helpers/server.js';

let dir: ReturnType<typeof tempDir>;
const t = useSandbox({ searchTermCount: 50, analytics: { pages: 600, feedback: 120, conversations: 1500 } });
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

const env = () => t.env() as Record<string, string>;
const path = (r: { path: string }) => new URL(r.path, 'http://x').pathname;
const _queries = (route: string) =>
  t.sandbox.requests
    .filter((r) => path(r) === `/v1/analytics/${t.sandbox.projectId}/${route}`)
    .map((r) => Object.fromEntries(new URL(r.path, 'http://x').searchParams));

async function api<T>(route: string, query: Record<string, string>): Promise<T> {
  const res = await fetch(
    `${t.sandbox.baseUrl}/v1/analytics/${t.sandbox.projectId}/${route}?${new URLSearchParams(query)}`,
    { headers: { authorization: `Bearer ${t.sandbox.apiKey}` } },
  );
  const body = (await res.json()) as T;
  t.sandbox.requests.length = 0;
  return body;
}

async function allOffsetPages(route: 'views' | 'visitors'): Promise<PageTraffic[]> {
  const rows: PageTraffic[] = [];
  for (let offset = 0; ; offset += 250) {
    const page = await api<ViewsPage & { visitors: PageTraffic[] }>(route, { limit: '250', offset: String(offset) });
    rows.push(...page[route]);
    if (!page.hasMore) return rows;
  }
}

async function allConversations(): Promise<Conversation[]> {
  const rows: Conversation[] = [];
  let cursor: string | null = null;
  do {
    const page: ConversationsPage = await api<ConversationsPage>('assistant', {
      limit: '1000',
      ...(cursor ? { cursor } : {}),
    });
    rows.push(...page.conversations);
    cursor = page.hasMore ? page.nextCursor : null;
  } while (cursor);
  return rows;
}

const trafficCsv = (rows: PageTraffic[], header = true) =>
  (header ? 'path,human,ai,total\r\n' : '') +
  rows.map((p) => `${[p.path, p.human, p.ai, p.total].map((c) => expectedCsvCell(c)).join(',')}\r\n`).join('');

const runShell = (command: string, cwd: string): Promise<CliResult> => runPrintedCommand(command, { cwd, env: env() });

describe('resuming an analytics export', () => {
  it('views (offset pages): a 429 on the second page leaves whole rows, and the printed --offset command completes the file', async () => {
    const rows = await allOffsetPages('views');
    expect(rows.length).toBeGreaterThan(500);
    t.sandbox.faults.inject({ route: 'views.list' });
    t.sandbox.faults.inject({ route: 'views.list', status: 429, retryAfter: 3600 });
    const r = await runCli(['analytics', 'views', '--all', '--format', 'csv', '-o', 'views.csv'], {
      env: env(),
      cwd: dir.path,
    });
    expect(r.code).toBe(6);
    expect(readFileSync(join(dir.path, 'views.csv'), 'utf8')).toBe(trafficCsv(rows.slice(0, 250)));
    expect(r.stderr).toContain(
      'warning: stopped after 250 pages (1 page, 2 analytics requests); what was written to views.csv ends with a whole row.\n',
    );
    const resume = resumeLine(r.stderr);
    expect(resume).toBe('mint-admin analytics views --all --format csv --no-header --offset 250 >> views.csv');
    const again = await runShell(resume, dir.path);
    expect(again.code).toBe(0);
    expect(readFileSync(join(dir.path, 'views.csv'), 'utf8')).toBe(trafficCsv(rows));
    expect(again.stderr).toContain(
      `Showing ${rows.length - 250} pages, the last of the range; 2 analytics requests used (the organization shares 100 an hour)`,
    );
  });

  it('conversations --json -o: the partial file parses and names the cursor; the resumed run writes the rest to a second file', async () => {
    const all = await allConversations();
    t.sandbox.faults.inject({ route: 'assistant.list' });
    t.sandbox.faults.inject({ route: 'assistant.list', status: 429, retryAfter: 3600 });
    const r = await runCli(['analytics', 'conversations', '--all', '--json', '-o', 'conv.json'], {
      env: env(),
      cwd: dir.path,
    });
    expect(r.code).toBe(6);
    const partial = JSON.parse(readFileSync(join(dir.path, 'conv.json'), 'utf8')) as ConversationsPage;
    expect(partial.conversations).toEqual(all.slice(0, 1000));
    expect(partial.hasMore).toBe(true);
    const resume = resumeLine(r.stderr);
    expect(resume).toBe(
      `mint-admin analytics conversations --all --format json --cursor ${partial.nextCursor} -o conv.part2.json`,
    );
    expect((await runShell(resume, dir.path)).code).toBe(0);
    const rest = JSON.parse(readFileSync(join(dir.path, 'conv.part2.json'), 'utf8')) as ConversationsPage;
    expect([...partial.conversations, ...rest.conversations]).toEqual(all);
    expect(rest.hasMore).toBe(false);
  });

  it('visitors: Ctrl-C mid --all is exit 130 with whole ndjson lines, and the printed command carries on', async () => {
    const rows = await allOffsetPages('visitors');
    t.sandbox.faults.inject({ route: 'visitors.list' });
    t.sandbox.faults.inject({ route: 'visitors.list', delayMs: 10_000 });
    const r = await runCli(['analytics', 'visitors', '--all', '--format', 'ndjson'], {
      env: env(),
      cwd: dir.path,
      onSpawn: (child) => {
        let seen = '';
        child.stdout!.on('data', (c: Buffer) => {
          seen += c.toString();
          if (seen.split('\n').length > 250) child.kill('SIGINT');
        });
      },
    });
    expect(r.code).toBe(130);
    const ndjson = (list: PageTraffic[]) => list.map((p) => `${JSON.stringify(p)}\n`).join('');
    expect(r.stdout).toBe(ndjson(rows.slice(0, 250)));
    const resume = resumeLine(r.stderr);
    expect(resume).toBe('mint-admin analytics visitors --all --format ndjson --offset 250');
    const rest = await runShell(resume, dir.path);
    expect(r.stdout + rest.stdout).toBe(ndjson(rows));
  });
});

// ---- pages that would loop, from a loopback server ---------------------------------------------------

const KEY = 'mint_analyticspagingkey0123456';
const PROJECT = 'proj_1';

/** The server's answer to each page key (a cursor or an offset; '' = the first page). */
function byKey(param: 'cursor' | 'offset', pages: Record<string, unknown>): Handler {
  return (req: IncomingMessage, res) => {
    const key = new URL(req.url ?? '', 'http://x').searchParams.get(param) ?? '';
    const page = pages[key === '0' ? '' : key];
    if (page === undefined) return json(500, { error: `test server: no page for ${param} ${key}` })(req as never, res);
    return json(200, page)(req as never, res);
  };
}

async function loopback(route: string, handler: Handler, args: string[]) {
  const server = await startServer({ [`GET /v1/analytics/${PROJECT}/${route}`]: handler });
  try {
    const env = {
      MINTLIFY_API_URL: server.url,
      MINTLIFY_ADMIN_API_KEY: KEY,
      MINTLIFY_PROJECT_ID: PROJECT,
      HOME: dir.path,
      XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    };
    const r = await runCli(['analytics', ...args], { env, cwd: dir.path });
    return { ...r, requests: server.requests.length };
  } finally {
    await server.close();
  }
}

// Keys in the order the documents list them, which is the order the CLI writes them in.
const fb = (n: number): FeedbackItem =>
  ({
    id: `fb${n}`,
    path: `/p${n}`,
    comment: `c${n}`,
    createdAt: '2026-11-20T10:00:00.000Z',
    source: 'contextual',
    status: 'pending',
    helpful: n % 2 === 0,
    contact: null,
  }) as FeedbackItem;
const traffic = (n: number): PageTraffic => ({ path: `/p${n}`, human: n, ai: 1, total: n + 1 });
const totals = { human: 10, ai: 3, total: 13 };

describe('analytics lists stop pages that would loop (exit 1), with whole rows and where to carry on', () => {
  it('feedback (cursor + hasMore): a cursor that repeats', async () => {
    const pages: Record<string, FeedbackPage> = {
      '': { feedback: [fb(1), fb(2)], nextCursor: 'c1', hasMore: true },
      c1: { feedback: [fb(3)], nextCursor: 'c1', hasMore: true },
    };
    const r = await loopback('feedback', byKey('cursor', pages), ['feedback', '--all', '--format', 'ndjson']);
    expect(r.code).toBe(1);
    expect(r.requests).toBe(2);
    expect(r.stdout).toBe([fb(1), fb(2)].map((f) => `${JSON.stringify(f)}\n`).join(''));
    expect(r.stderr).toContain(
      'error: unexpected answer from the API while listing feedback entries: the API sent a cursor it had sent before after 1 page; stopped rather than loop',
    );
    expect(resumeLine(r.stderr)).toBe('mint-admin analytics feedback --all --format ndjson --cursor c1');
  });

  it('views (offset + hasMore): an empty page that claims more', async () => {
    const pages: Record<string, ViewsPage> = {
      '': { views: [traffic(1), traffic(2), traffic(3)], totals, hasMore: true },
      '3': { views: [], totals, hasMore: true },
    };
    const r = await loopback('views', byKey('offset', pages), ['views', '--all', '--format', 'csv', '-o', 'v.csv']);
    expect(r.code).toBe(1);
    expect(r.requests).toBe(2);
    expect(readFileSync(join(dir.path, 'v.csv'), 'utf8')).toBe(trafficCsv([traffic(1), traffic(2), traffic(3)]));
    expect(r.stderr).toContain(
      'error: unexpected answer from the API while listing pages: the API sent an empty page while saying there are more after 1 page; stopped rather than loop',
    );
    expect(resumeLine(r.stderr)).toBe('mint-admin analytics views --all --format csv --no-header --offset 3 >> v.csv');
  });
});
