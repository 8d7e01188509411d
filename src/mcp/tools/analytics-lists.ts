// The analytics lists, one page per call: a bounded `limit` and a `next` to ask for the page after.
// Each page goes through the paged routes the CLI and the library use (src/paging/endpoints.ts) and
// the library's query checks (nothing is sent for a bad date or limit: every analytics request is one
// of the organization's 100 an hour). Text readers typed is quoted and cut (untrusted.ts); paths and
// URLs are bounded the same way (a page URL carries whatever query a reader put in it).
import type { ApiClient } from '../../api/client.js';
import type { Conversation, FeedbackItem, PageTraffic, SearchTerm } from '../../api/types.js';
import { FEEDBACK_SOURCES, FEEDBACK_STATUSES } from '../../api/enums.js';
import { UsageError } from '../../errors.js';
import { checkAnalyticsQuery } from '../../queries/analytics-query.js';
import { CONVERSATIONS, FEEDBACK, SEARCHES, VIEWS, VISITORS, type PagedRoute } from '../../paging/endpoints.js';
import { z } from '../sdk.js';
import { CURSOR_CHARS, DATE_CHARS, STATUS_CHARS } from './limits.js';
import { defineTool, READ_ONLY, type InputShape, type ToolDefinition } from '../tool.js';
import { readerText, readerTextNote } from '../untrusted.js';

/** The most items one call returns, whatever the endpoint serves: a page must fit an agent's context. */
export const MAX_ITEMS = 100;
const DEFAULT_ITEMS = 20;

const dateRange = {
  dateFrom: z
    .string()
    .max(DATE_CHARS)
    .optional()
    .describe('start of the range: YYYY-MM-DD or ISO 8601 (UTC unless it has an offset)'),
  dateTo: z
    .string()
    .max(DATE_CHARS)
    .optional()
    .describe('end of the range, exclusive: a week is dateFrom 2026-11-16, dateTo 2026-11-23'),
};
const paging = {
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_ITEMS)
    .default(DEFAULT_ITEMS)
    .describe(`items in this page (1-${MAX_ITEMS}, default ${DEFAULT_ITEMS})`),
  next: z
    .string()
    .max(CURSOR_CHARS)
    .optional()
    .describe('the `next` of the previous page, to get the page after it; leave out for the first page'),
};

interface ListSpec<Page extends object, Item, Row> {
  name: string;
  title: string;
  description: string;
  route: PagedRoute<Page, Item, object>;
  filters?: InputShape;
  /** The page's items as rows for the agent. */
  row(item: Item): Row;
  /** Fields of a row that hold reader text, for the note. */
  readerFields?: string[];
  /** What the page says about the whole range (totals), beside its rows. */
  summary?(page: Page): Record<string, unknown>;
}

function listTool<Page extends object, Item, Row>(spec: ListSpec<Page, Item, Row>): ToolDefinition {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: `${spec.description} One page per call (limit, default ${DEFAULT_ITEMS}, at most ${MAX_ITEMS}); pass the returned \`next\` to get the following page (null: no more). Each call is one of the organization's 100 analytics requests an hour.`,
    input: { ...dateRange, ...paging, ...(spec.filters ?? {}) },
    annotations: READ_ONLY,
    async run(args, env) {
      const { dateFrom, dateTo, limit, next, ...filters } = args as {
        dateFrom?: string;
        dateTo?: string;
        limit: number;
        next?: string;
      } & Record<string, unknown>;
      const position = spec.route.style === 'offset+hasMore' ? { offset: offsetOf(next) } : { cursor: next };
      const query = checkAnalyticsQuery(
        spec.route,
        { dateFrom, dateTo, limit, ...position, ...filters },
        env.clock.now(),
      );
      const projectId = await env.projectId();
      const api: ApiClient = await env.api();
      const page = await spec.route.fetch(api, projectId, query, { signal: env.signal });
      const items = (page as Record<string, unknown>)[spec.route.itemsKey as string] as Item[];
      const rows = items.slice(0, limit).map((item) => spec.row(item));
      return {
        ...(spec.readerFields ? { readerText: readerTextNote(spec.readerFields) } : {}),
        ...(spec.summary ? spec.summary(page) : {}),
        count: rows.length,
        [spec.route.itemsKey as string]: rows,
        next: nextOf(spec.route, page, (position.offset ?? 0) + items.length),
      };
    },
  });
}

function offsetOf(next: string | undefined): number | undefined {
  if (next === undefined) return undefined;
  if (!/^\d{1,9}$/.test(next))
    throw new UsageError(
      `next: ${JSON.stringify(next.slice(0, 40))} is not the \`next\` of an earlier page of this tool; leave it out to start at the first page`,
    );
  return Number(next);
}

function nextOf(route: PagedRoute<object, unknown, object>, page: object, offsetAfter: number): string | null {
  const p = page as { nextCursor?: string | null; hasMore?: boolean };
  if (route.style === 'offset+hasMore') return p.hasMore ? String(offsetAfter) : null;
  if (route.style === 'cursor+hasMore') return p.hasMore && p.nextCursor ? p.nextCursor : null;
  return p.nextCursor ?? null;
}

export const analyticsSearches = listTool({
  name: 'analytics_searches',
  title: 'What readers searched for',
  description:
    'Search terms readers typed into the docs search, most searched first: hits, click-through rate (ctr, 0-1) and the page most clicked (null: readers clicked nothing, a likely gap).',
  route: SEARCHES as PagedRoute<object, SearchTerm, object>,
  readerFields: ['searchQuery'],
  summary: (page) => ({ totalSearches: (page as { totalSearches: number }).totalSearches }),
  row: (s: SearchTerm) => ({
    searchQuery: readerText(s.searchQuery),
    hits: s.hits,
    ctr: s.ctr,
    topClickedPage: readerText(s.topClickedPage),
    lastSearchedAt: s.lastSearchedAt,
  }),
});

export const analyticsFeedback = listTool({
  name: 'analytics_feedback',
  title: 'Reader feedback',
  description:
    'Feedback readers left on pages and code blocks, newest first: the page, whether it helped, the comment, the code it is about. Contact details are left out.',
  route: FEEDBACK as PagedRoute<object, FeedbackItem, object>,
  filters: {
    source: z.enum(FEEDBACK_SOURCES).optional().describe('only feedback of this kind'),
    status: z
      .string()
      .max(STATUS_CHARS)
      .optional()
      .describe(`comma-separated review states: ${FEEDBACK_STATUSES.join(', ')}`),
  },
  readerFields: ['comment', 'code'],
  row: (f: FeedbackItem) => ({
    id: f.id,
    path: readerText(f.path),
    source: f.source,
    status: f.status,
    helpful: 'helpful' in f && typeof f.helpful === 'boolean' ? f.helpful : null,
    comment: readerText(f.comment),
    code: 'code' in f && typeof f.code === 'string' ? readerText(f.code) : null,
    createdAt: f.createdAt,
  }),
});

export const analyticsConversations = listTool({
  name: 'analytics_conversations',
  title: 'Assistant conversations',
  description:
    "Questions readers asked the docs assistant, newest first, with whether it answered (resolutionStatus: unanswered is a likely gap), the question's category, the page it was asked on and the start of the answer.",
  route: CONVERSATIONS as PagedRoute<object, Conversation, object>,
  readerFields: ['query', 'response'],
  row: (c: Conversation) => ({
    id: c.id,
    timestamp: c.timestamp,
    query: readerText(c.query),
    resolutionStatus: c.resolutionStatus,
    queryCategory: readerText(c.queryCategory, 80),
    pageUrl: readerText(c.pageUrl),
    response: readerText(c.response, 200),
    sources: c.sources.slice(0, 3).map((s) => readerText(s.url)),
  }),
});

const trafficRow = (p: PageTraffic) => ({ path: readerText(p.path), human: p.human, ai: p.ai, total: p.total });
const totals = (page: object) => ({ totals: (page as { totals: unknown }).totals });

export const analyticsViews = listTool({
  name: 'analytics_views',
  title: 'Page views',
  description:
    'Views of each docs page, most viewed first, split into human and AI (agents, crawlers) with the site-wide totals.',
  route: VIEWS as PagedRoute<object, PageTraffic, object>,
  summary: totals,
  row: trafficRow,
});

export const analyticsVisitors = listTool({
  name: 'analytics_visitors',
  title: 'Unique visitors',
  description:
    'Unique visitors of each docs page, most visited first, split into human and AI with the site-wide totals.',
  route: VISITORS as PagedRoute<object, PageTraffic, object>,
  summary: totals,
  row: trafficRow,
});
