// The gaps report's collection: one ranked list of what readers looked for and did not find, from
// four endpoints, within a request budget (of the organization's 100 analytics requests an hour).
// The budget is spent in an order that gets the most out of each request: feedback by page (one
// request, all it has), the most viewed pages (to weight the others), assistant conversations (1000
// a request), then search terms most searched first with whatever is left (stopping once terms are
// too rare to be gaps). Each source is folded into small aggregates as its pages arrive, so memory
// does not grow with the month's traffic. The scoring is in score.ts; the faces render the report.
//
// A report cut short is still a report: the budget or a 429 marks the sources it left incomplete,
// and the requests each source used are the ones it sent (a refused one included), never estimated.
import type { ApiClient } from '../api/client.js';
import type {
  Conversation,
  ConversationsPage,
  PageFeedback,
  PageTraffic,
  SearchesPage,
  SearchTerm,
  ViewsPage,
} from '../api/types.js';
import { RateLimitError } from '../errors.js';
import type { PagedEndpoint } from '../paging/engine.js';
import { CONVERSATIONS, SEARCHES, VIEWS, walkOf } from '../paging/endpoints.js';
import {
  addConversations,
  MIN_SEARCH_HITS,
  pageGaps,
  questionGaps,
  rankGaps,
  searchGaps,
  viewsByPath,
  type Gap,
  type QuestionGroup,
} from './score.js';

/** One request per source: fewer cannot make a report. */
export const MIN_GAPS_REQUESTS = 4;
/** A quarter of the organization's hourly 100, when the caller names no budget. */
export const DEFAULT_GAPS_REQUESTS = 25;

export interface GapsQuery {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  /** The most analytics requests to send, MIN_GAPS_REQUESTS or more. */
  maxRequests: number;
  /** Ends the collection at once, the request in flight included (the MCP server's cancellation). */
  signal?: AbortSignal | undefined;
}

/** What each source contributed, for the report's "based on" line and its partial notes. */
export interface SourceUse {
  /** Requests sent for it, a failed one included. */
  requests: number;
  rows: number;
  /** Why the source is incomplete, or null when everything it had was read. */
  incomplete: string | null;
}

export type GapSource = 'feedbackByPage' | 'views' | 'conversations' | 'searches';

export interface GapsReport {
  from: string | null;
  to: string | null;
  gaps: Gap[];
  requests: { used: number; max: number };
  /** True when a source is incomplete; each one says why. */
  partial: boolean;
  /** In the order they are read. */
  sources: Record<GapSource, SourceUse>;
}

export interface GapsCollection {
  report: GapsReport;
  /** The 429 that cut the report short, if one did: a caller reports what was found, then fails with it. */
  rateLimit: RateLimitError | undefined;
}

/** Rows read so far from a source, after each page. */
export type GapsProgress = (source: GapSource, rows: number) => void;

const empty = (): SourceUse => ({ requests: 0, rows: 0, incomplete: null });
const requestsWord = (n: number) => `${n} ${n === 1 ? 'request' : 'requests'}`;

export async function collectGaps(
  api: ApiClient,
  projectId: string,
  query: GapsQuery,
  onProgress?: GapsProgress,
): Promise<GapsCollection> {
  // Loaded here, not at the top: a command that imports this file is registered by --help too.
  const { pageThrough } = await import('../paging/engine.js');
  const range = { dateFrom: query.dateFrom, dateTo: query.dateTo };
  const call = query.signal ? { signal: query.signal } : undefined;
  const sources: GapsReport['sources'] = {
    feedbackByPage: empty(),
    views: empty(),
    conversations: empty(),
    searches: empty(),
  };
  let left = query.maxRequests;
  let rateLimit: RateLimitError | undefined;
  const traffic: PageTraffic[] = [];
  const groups = new Map<string, QuestionGroup>();
  const zeroClick: SearchTerm[] = [];
  let pageRows: PageFeedback[] = [];

  /**
   * Reads one source's pages within `budget` requests (and what is left); a 429 ends this source and
   * the ones after it. `take` folds each page in; `enough` says when nothing later can matter.
   */
  const read = async <Page extends object, Item>(
    source: GapSource,
    budget: number,
    endpoint: PagedEndpoint<Page, Item>,
    take: (items: readonly Item[]) => void,
    enough?: (items: readonly Item[]) => boolean,
  ): Promise<void> => {
    const use = sources[source];
    if (rateLimit) return void (use.incomplete = 'not read: the analytics rate limit was reached');
    try {
      const result = await pageThrough<Page, Item>({
        endpoint,
        start: {},
        all: true,
        maxRequests: Math.min(budget, left),
        onPage: async (items) => {
          take(items);
          use.rows += items.length;
          onProgress?.(source, use.rows);
        },
        enough,
        // The engine's count when a request fails: the one that failed was sent too.
        onStop: async (progress) => void (use.requests = progress.requests),
      });
      use.requests = result.requests;
      if (result.budgetSpent) use.incomplete = `stopped at the request budget after ${requestsWord(result.requests)}`;
    } catch (error) {
      if (!(error instanceof RateLimitError)) throw error;
      rateLimit = error;
      use.incomplete = 'stopped by the analytics rate limit (429)';
    }
    left -= use.requests;
  };

  // Feedback by page: one request holds all the API will give.
  try {
    sources.feedbackByPage.requests = 1;
    left -= 1;
    const page = await api.feedbackByPage(projectId, { ...range, limit: 100 }, call);
    pageRows = page.feedback;
    sources.feedbackByPage.rows = page.feedback.length;
    if (page.hasMore)
      sources.feedbackByPage.incomplete = `the ${page.feedback.length} pages with the most feedback only (the API cannot page further)`;
  } catch (error) {
    if (!(error instanceof RateLimitError)) throw error;
    rateLimit = error;
    sources.feedbackByPage.incomplete = 'stopped by the analytics rate limit (429)';
  }
  // Views weight the others; the most viewed pages come first, so a few requests cover the weight.
  await read<ViewsPage, PageTraffic>(
    'views',
    Math.max(1, Math.floor((query.maxRequests - 1) * 0.2)),
    walkOf(VIEWS, api, projectId, range, call, 'page views'),
    (rows) => {
      for (const row of rows) traffic.push(row); // a page can be longer than push(...) takes arguments
    },
  );
  // Every conversation page may hold unanswered questions; search terms, most searched first, make
  // do with what is left.
  await read<ConversationsPage, Conversation>(
    'conversations',
    Math.max(1, Math.floor((query.maxRequests - 1) * 0.6)),
    walkOf(CONVERSATIONS, api, projectId, range, call, 'assistant conversations'),
    (conversations) => addConversations(groups, conversations),
  );
  // Search terms come most searched first: once a page ends below MIN_SEARCH_HITS no later term can
  // be a gap, and the rest of the budget is left unspent.
  await read<SearchesPage, SearchTerm>(
    'searches',
    left,
    walkOf(SEARCHES, api, projectId, range, call),
    (terms) => {
      for (const t of terms)
        if (t.hits >= MIN_SEARCH_HITS && (t.ctr === 0 || t.topClickedPage === null)) zeroClick.push(t);
    },
    (terms) => terms.length > 0 && terms[terms.length - 1]!.hits < MIN_SEARCH_HITS,
  );

  const views = viewsByPath(traffic);
  const gaps = rankGaps([
    ...searchGaps(zeroClick),
    ...questionGaps(groups.values(), views),
    ...pageGaps(pageRows, views),
  ]);
  const used = Object.values(sources).reduce((sum, s) => sum + s.requests, 0);
  const report: GapsReport = {
    from: query.dateFrom ?? null,
    to: query.dateTo ?? null,
    gaps,
    requests: { used, max: query.maxRequests },
    partial: Object.values(sources).some((s) => s.incomplete !== null),
    sources,
  };
  return { report, rateLimit };
}
