// `analytics gaps`: one ranked list of what readers looked for and did not find, from four
// endpoints, within a request budget (--max-requests, default 25 of the organization's 100 an hour).
// The budget is spent in an order that gets the most out of each request: feedback by page (one
// request, all it has), the most viewed pages (to weight the others), assistant conversations (1000
// a request), then search terms most searched first with whatever is left (stopping once terms are
// too rare to be gaps). Each source is folded into small aggregates as its pages arrive, so memory
// does not grow with the month's traffic. The scoring is in gap-score.ts.
import { Option, type Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import type { ApiClient } from '../../api/client.js';
import type { Conversation, ConversationsPage, PageTraffic, SearchesPage, SearchTerm, ViewsPage } from '../../api/types.js';
import { RateLimitError, UsageError } from '../../errors.js';
import { escapeCell } from '../../output/cells.js';
import type { Columns } from '../../output/writer.js';
import { checkDateRange, parseDateFlag } from '../../queries/dates.js';
import { addConversations, MIN_SEARCH_HITS, pageGaps, questionGaps, rankGaps, searchGaps, viewsByPath, type Gap } from './gap-score.js';
import { shellCommand } from '../../shell.js';
import { agentPrompt } from './gaps-prompt.js';
import { CONVERSATIONS, SEARCHES, VIEWS, walkOf } from '../../paging/endpoints.js';

const FORMATS = ['md', 'csv', 'json'] as const;
type GapsFormat = (typeof FORMATS)[number];
export const DEFAULT_MAX_REQUESTS = 25;
/** One request per source: fewer cannot make a report. */
const MIN_REQUESTS = 4;

export interface GapsOptions {
  dateFrom: string | undefined;
  dateTo: string | undefined;
  format: GapsFormat;
  /** False when md is only the default: then a terminal gets a drawn table instead (gaps-terminal.ts). */
  formatGiven: boolean;
  output: string | undefined;
  maxRequests: number;
  top: number;
  prompt: boolean;
}

/** What each source contributed, for the report's "based on" line and its partial notes. */
export interface SourceUse {
  requests: number;
  rows: number;
  /** Why the source is incomplete, or null when everything it had was read. */
  incomplete: string | null;
}

export interface GapsReport {
  from: string | null;
  to: string | null;
  gaps: Gap[];
  requests: { used: number; max: number };
  partial: boolean;
  /** In the order they are read. */
  sources: Record<'feedbackByPage' | 'views' | 'conversations' | 'searches', SourceUse>;
}

type Source = keyof GapsReport['sources'];
const empty = (): SourceUse => ({ requests: 0, rows: 0, incomplete: null });

export async function collectGaps(opts: GapsOptions, ctx: Context): Promise<GapsReport & { rateLimit?: RateLimitError }> {
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  const { pageThrough } = await import('../../paging/engine.js');
  const range = { dateFrom: opts.dateFrom, dateTo: opts.dateTo };
  const sources: GapsReport['sources'] = { feedbackByPage: empty(), views: empty(), conversations: empty(), searches: empty() };
  let left = opts.maxRequests;
  const zeroClick: SearchTerm[] = [];
  const traffic: PageTraffic[] = [];
  const groups = new Map<string, Parameters<typeof addConversations>[0] extends Map<string, infer G> ? G : never>();
  let pageRows: Awaited<ReturnType<ApiClient['feedbackByPage']>>['feedback'] = [];
  let rateLimit: RateLimitError | undefined;

  /** Runs one source within `budget` requests; a 429 ends this source and the ones after it. */
  const run = async (source: Source, budget: number, walk: (budget: number) => Promise<{ requests: number; budgetSpent: boolean }>) => {
    if (rateLimit) return void (sources[source].incomplete = 'not read: the analytics rate limit was reached');
    try {
      const result = await walk(Math.min(budget, left));
      sources[source].requests = result.requests;
      if (result.budgetSpent) sources[source].incomplete = `stopped at the request budget after ${result.requests} ${result.requests === 1 ? 'request' : 'requests'}`;
    } catch (error) {
      if (!(error instanceof RateLimitError)) throw error;
      rateLimit = error;
      sources[source].incomplete = 'stopped by the analytics rate limit (429)';
    }
    left -= sources[source].requests;
  };
  const progress = await ctx.reporter.activity('reading analytics for the gaps report');
  try {
    await run('feedbackByPage', 1, async () => {
      sources.feedbackByPage.requests = 1;
      const page = await api.feedbackByPage(projectId, { ...range, limit: 100 });
      pageRows = page.feedback;
      sources.feedbackByPage.rows = page.feedback.length;
      if (page.hasMore) sources.feedbackByPage.incomplete = `the ${page.feedback.length} pages with the most feedback only (the API cannot page further)`;
      return { requests: 1, budgetSpent: false };
    });
    // Views weight the others; the most viewed pages come first, so a few requests cover the weight.
    await run('views', Math.max(1, Math.floor((opts.maxRequests - 1) * 0.2)), (budget) =>
      pageThrough<ViewsPage, PageTraffic>({
        endpoint: walkOf(VIEWS, api, projectId, range, undefined, 'page views'),
        start: {},
        all: true,
        maxRequests: budget,
        onPage: async (rows) => {
          for (const row of rows) traffic.push(row); // a page can be longer than push(...) takes arguments
          sources.views.rows += rows.length;
          progress.update(`reading page views: ${sources.views.rows} pages`);
        },
      }),
    );
    // Every conversation page may hold unanswered questions; search terms, most searched first, make
    // do with what is left.
    await run('conversations', Math.max(1, Math.floor((opts.maxRequests - 1) * 0.6)), (budget) =>
      pageThrough<ConversationsPage, Conversation>({
        endpoint: walkOf(CONVERSATIONS, api, projectId, range, undefined, 'assistant conversations'),
        start: {},
        all: true,
        maxRequests: budget,
        onPage: async (conversations) => {
          addConversations(groups, conversations);
          sources.conversations.rows += conversations.length;
          progress.update(`reading assistant conversations: ${sources.conversations.rows}`);
        },
      }),
    );
    // Search terms come most searched first: once a page ends below MIN_SEARCH_HITS no later term
    // can be a gap, and the rest of the budget is left unspent.
    let rare = false;
    await run('searches', left, async (budget) => {
      const result = await pageThrough<SearchesPage, SearchTerm>({
        endpoint: walkOf(SEARCHES, api, projectId, range),
        start: {},
        all: true,
        maxRequests: budget,
        onPage: async (terms) => {
          sources.searches.rows += terms.length;
          for (const t of terms) if (t.hits >= MIN_SEARCH_HITS && (t.ctr === 0 || t.topClickedPage === null)) zeroClick.push(t);
          rare = terms.length > 0 && terms[terms.length - 1]!.hits < MIN_SEARCH_HITS;
          progress.update(`reading search terms: ${sources.searches.rows}`);
          if (rare) throw new EnoughSearches();
        },
      }).catch((error: unknown) => {
        if (error instanceof EnoughSearches) return { requests: Math.ceil(sources.searches.rows / SEARCHES.maxLimit), budgetSpent: false };
        throw error;
      });
      return result;
    });
  } finally {
    progress.stop();
  }
  const views = viewsByPath(traffic);
  const gaps = rankGaps([...searchGaps(zeroClick), ...questionGaps(groups.values(), views), ...pageGaps(pageRows, views)]);
  const used = Object.values(sources).reduce((sum, s) => sum + s.requests, 0);
  ctx.debug(`analytics requests used: ${used} of --max-requests ${opts.maxRequests} (the organization shares 100 an hour)`);
  return {
    from: opts.dateFrom ?? null,
    to: opts.dateTo ?? null,
    gaps,
    requests: { used, max: opts.maxRequests },
    partial: Object.values(sources).some((s) => s.incomplete !== null),
    sources,
    ...(rateLimit ? { rateLimit } : {}),
  };
}

/** Ends the search walk early (a private signal, never shown). */
class EnoughSearches extends Error {}

// ---- the report ------------------------------------------------------------------------------------

const KIND_LABEL = { search: 'search, no click', question: 'unanswered questions', page: 'poorly rated page' } as const;

/** Reader text in the report is cut here (csv and json keep it whole): a 1 MB term is no report. */
const MD_CELL_CHARS = 200;

/** One line of the markdown report: no control characters, no `|` breaking the table, cut to MD_CELL_CHARS. */
const mdCell = (text: string) => {
  const chars = Array.from(text.slice(0, MD_CELL_CHARS * 2));
  const cut = chars.length > MD_CELL_CHARS || text.length > MD_CELL_CHARS * 2 ? `${chars.slice(0, MD_CELL_CHARS - 1).join('')}…` : text;
  return escapeCell(cut, { backslash: false }).replaceAll('|', '\\|');
};

export function markdownReport(report: GapsReport, top: number): string {
  const range = report.from || report.to ? `${report.from ?? 'the start'} to ${report.to ?? 'now'} (exclusive)` : 'all dates';
  const shown = report.gaps.slice(0, top);
  const lines = [
    `# Content gaps: ${range}`,
    '',
    `${report.gaps.length} ${report.gaps.length === 1 ? 'gap' : 'gaps'} found in ${report.sources.searches.rows} search terms, ${report.sources.conversations.rows} assistant questions, feedback on ${report.sources.feedbackByPage.rows} pages and views of ${report.sources.views.rows} pages; ${report.requests.used} of ${report.requests.max} analytics requests used.`,
  ];
  if (report.partial) {
    lines.push('', `**Partial report**: ${partialNotes(report).join('; ')}. Raise --max-requests (or run it again in an hour) for a complete one.`);
  }
  if (shown.length === 0) return [...lines, '', 'No gaps: every frequent search was clicked, every question answered, no page voted down.', ''].join('\n');
  lines.push('', '| # | kind | evidence | count | score | why |', '|---:|---|---|---:|---:|---|');
  shown.forEach((g, i) => lines.push(`| ${i + 1} | ${KIND_LABEL[g.kind]} | ${mdCell(g.evidence)} | ${g.count} | ${g.score} | ${mdCell(g.why)} |`));
  const asked = shown.filter((g) => g.examples.length > 0);
  if (asked.length > 0) {
    lines.push('', '## What readers asked');
    for (const g of asked) lines.push('', `${shown.indexOf(g) + 1}. ${mdCell(g.evidence)}:`, ...g.examples.map((q) => `   - "${mdCell(q)}"`));
  }
  if (report.gaps.length > shown.length) lines.push('', `${report.gaps.length - shown.length} more below these; --top ${report.gaps.length} shows every one.`);
  const again = shellCommand(['mint-admin', 'analytics', 'gaps', ...(report.from ? ['--from', report.from] : []), ...(report.to ? ['--to', report.to] : []), '--prompt']);
  lines.push('', `Hand the top gaps to the agent: mint-admin agent run "$(${again})"`, '');
  return lines.join('\n');
}

function partialNotes(report: GapsReport): string[] {
  return Object.entries(report.sources)
    .filter(([, s]) => s.incomplete !== null)
    .map(([name, s]) => `${SOURCE_LABEL[name as Source]}: ${s.incomplete}`);
}

const SOURCE_LABEL: Record<Source, string> = { feedbackByPage: 'feedback by page', views: 'page views', searches: 'search terms', conversations: 'assistant conversations' };

export const GAP_COLUMNS: Columns<Gap & { rank: number }> = {
  csvHeader: ['rank', 'kind', 'evidence', 'page', 'count', 'views', 'score', 'why', 'examples'],
  csvRecord: (g) => [g.rank, g.kind, g.evidence, g.page, g.count, g.views, g.score, g.why, g.examples.join('\n')],
  tableHeader: [],
  tableCells: () => [],
  align: [],
  flexible: [],
};

// ---- the command -----------------------------------------------------------------------------------

type GapsFlags = { from?: string; to?: string; format?: GapsFormat; output?: string; maxRequests?: string; top?: string; prompt?: boolean };

export function parseGapsFlags(flags: GapsFlags, json: boolean): GapsOptions {
  const from = flags.from === undefined ? undefined : parseDateFlag(flags.from, '--from');
  const to = flags.to === undefined ? undefined : parseDateFlag(flags.to, '--to');
  checkDateRange(from, to);
  if (json && flags.format !== undefined && flags.format !== 'json') throw new UsageError(`--json means --format json; it cannot be combined with --format ${flags.format}`);
  if (flags.prompt && (flags.format !== undefined || json)) throw new UsageError('--prompt prints an instruction for `agent run`, not a report: leave out --format/--json');
  const maxRequests = wholeNumber(flags.maxRequests, '--max-requests', DEFAULT_MAX_REQUESTS);
  if (maxRequests < MIN_REQUESTS || maxRequests > 100) {
    throw new UsageError(`--max-requests: give ${MIN_REQUESTS} to 100 (one request per source at least; the organization has 100 an hour)`);
  }
  const top = wholeNumber(flags.top, '--top', flags.prompt ? 5 : 20);
  if (top < 1) throw new UsageError('--top: give 1 or more');
  if (flags.output !== undefined && flags.output.trim() === '') throw new UsageError('-o/--output: give a file name');
  return { dateFrom: flags.from, dateTo: flags.to, format: json ? 'json' : (flags.format ?? 'md'), formatGiven: json || flags.format !== undefined, output: flags.output, maxRequests, top, prompt: Boolean(flags.prompt) };
}

function wholeNumber(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag}: "${text}" is not a whole number`);
  return Number(text);
}

async function render(report: GapsReport, opts: GapsOptions): Promise<string> {
  if (opts.prompt) return agentPrompt(report, opts.top);
  if (opts.format === 'md') return markdownReport(report, opts.top);
  if (opts.format === 'json') return `${JSON.stringify({ ...report, gaps: report.gaps.slice(0, opts.top) }, null, 2)}\n`;
  const [{ stringify }, { guardCell, FIRST_LINE_COMMAND }] = await Promise.all([import('csv-stringify/sync'), import('../../output/csv.js')]);
  // Reader-typed terms: no cell may issue a GitHub Actions workflow command when the CSV is printed in a log.
  const rows = report.gaps.slice(0, opts.top).map((g, i) => GAP_COLUMNS.csvRecord({ ...g, rank: i + 1 }).map(guardCell));
  return stringify([[...GAP_COLUMNS.csvHeader], ...rows], { record_delimiter: 'windows', quote_record_delimiter: true, escape_formulas: true, quoted_match: FIRST_LINE_COMMAND, bom: false });
}

export async function gaps(opts: GapsOptions, ctx: Context): Promise<GapsReport> {
  const { fileTarget } = await import('../../output/target.js');
  const target = opts.output === undefined ? undefined : await fileTarget(opts.output, ctx);
  const { rateLimit, ...report } = await collectGaps(opts, ctx);
  const atTerminal = !target && !opts.prompt && !opts.formatGiven && ctx.io.stdoutIsTTY;
  const text = atTerminal ? '' : await render(report, opts);
  if (atTerminal) {
    // Server text reaches the terminal only through ctx.print's sanitising, as below.
    const { terminalReport } = await import('./gaps-terminal.js');
    for (const line of await terminalReport(report, opts.top, ctx.io.columns ?? 80)) ctx.print(line);
  } else if (target) {
    const { writeChunk } = await import('../../output/writer.js');
    await writeChunk(await target.open(), ctx.scrub(text));
    await target.close();
  } else if (opts.format === 'json' && !opts.prompt) {
    printJson(ctx, { ...report, gaps: report.gaps.slice(0, opts.top) });
  } else if (opts.format === 'csv' && !opts.prompt) {
    // Data with its own escaping (RFC 4180; multi-line cells): written as it is, like every CSV export.
    const { writeChunk } = await import('../../output/writer.js');
    await writeChunk(ctx.io.stdout, ctx.scrub(text));
  } else {
    // Server text (terms, questions) reaches a terminal only through ctx.print's sanitising.
    for (const line of text.replace(/\r?\n$/, '').split(/\r?\n/)) ctx.print(line);
  }
  const used = `${report.requests.used} of ${report.requests.max} analytics requests used (the organization shares 100 an hour)`;
  if (report.partial) ctx.reporter.warn(`partial report: ${partialNotes(report).join('; ')}; ${used}`);
  else ctx.reporter.info(`${report.gaps.length} gaps${opts.output ? ` written to ${opts.output}` : ''}; ${used}`);
  if (rateLimit) throw rateLimit;
  return report;
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('gaps')
    .description('content gaps, ranked: searches nobody clicked, unanswered assistant questions, poorly rated pages, weighted by page views')
    .option('--from <date>', 'start of the date range: YYYY-MM-DD or ISO 8601')
    .option('--to <date>', 'end of the date range, EXCLUSIVE')
    .addOption(new Option('--format <format>', 'md (a short report, the default; at a terminal, unless given, a table fitted to its width), csv or json (--json is --format json)').choices(FORMATS))
    .option('-o, --output <file>', 'write the report to this file instead of stdout')
    .option('--max-requests <n>', `spend at most this many of the organization's 100 hourly analytics requests (default ${DEFAULT_MAX_REQUESTS}, at least ${MIN_REQUESTS})`)
    .option('--top <n>', 'show the n highest-scoring gaps (default 20; 5 with --prompt)')
    .option('--prompt', 'print an instruction for `mint-admin agent run` that asks the agent to address the top gaps')
    .addHelpText(
      'after',
      `
Score = events x signal weight x traffic weight. Events: searches with no click (terms
searched ${MIN_SEARCH_HITS}+ times, click-through 0 or no top clicked page), assistant questions left
unanswered (grouped by category and page), thumbs-down votes and code-snippet reports (a
report counts 4/3). Signal weight: search 1, question 5, page 3. Traffic weight, where the
page is known: 1 + log10(1 + views/100). Each row says why it scored what it did.
The report says how many requests it used and when the budget or the rate limit cut it short.`,
    )
    .action(
      action<GapsFlags>(deps, async (_args, flags, ctx) => {
        await gaps(parseGapsFlags(flags, ctx.mode.json), ctx);
      }),
    );
  examples(command, [
    'mint-admin analytics gaps --from 2026-11-01 --to 2026-12-01',
    'mint-admin analytics gaps --format csv -o gaps.csv --max-requests 40',
    'mint-admin agent run "$(mint-admin analytics gaps --prompt --top 3)" --wait',
  ]);
}
