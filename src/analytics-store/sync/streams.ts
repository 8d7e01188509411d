// What the sync reads: one stream per endpoint, each saying how a window's pages are fetched and how an
// answer becomes rows of its table (columns as in ../schema.ts). Aggregating endpoints are read one UTC
// day at a time; item endpoints over one window of timestamps at a time. The page sizes are each
// endpoint's documented maximum, so a window costs the fewest requests it can.
import type { ApiClient, CallOptions } from '../../api/client.js';
import type { Conversation, FeedbackItem, PageTraffic, SearchTerm } from '../../api/types.js';
import { RANGE_OF, RANGE_TABLES, type DataTable, type RangeTable } from '../schema.js';
import type { GuardedEndpoint } from '../../paging/engine.js';
import { CONVERSATIONS, FEEDBACK, SEARCHES, VIEWS, VISITORS } from '../../paging/endpoints.js';

export type Row = Record<string, unknown>;

export interface Page {
  rows: Row[];
  /** Where the next page starts (a cursor, or an offset as text); null after the window's last page. */
  next: string | null;
  /** The endpoint had more than one page can hold and no way to ask for the rest (feedback by page). */
  truncated?: boolean;
  /** The answer and its items as sent, for the paging guards of a paged stream (src/paging/). */
  answer?: { page: object; items: readonly unknown[] };
}

export interface Window {
  /** Inclusive; YYYY-MM-DD for a day, an ISO 8601 instant otherwise. */
  from: string;
  /** Exclusive. */
  to: string;
}

export interface Stream {
  table: DataTable | RangeTable;
  /**
   * `day`: an aggregate read per UTC day, its rows carrying `date`; `range`: the same aggregate over a
   * whole week or month, its rows carrying `date_from` and `date_to`; `items`: rows keyed by id over a window.
   */
  kind: 'day' | 'range' | 'items';
  /** The documented largest page. */
  pageSize: number;
  /**
   * How a paged endpoint pages (src/paging/endpoints.ts): the sync walks a window's pages through the
   * list commands' guards, so a cursor or page sent again stops the run instead of spending its budget.
   */
  paging?: GuardedEndpoint<object, unknown>;
  fetch(api: ApiClient, projectId: string, window: Window, position: string | null, call: CallOptions): Promise<Page>;
  /** The JSON shape DuckDB reads a page's rows with (from_json), column by column. */
  columns: Record<string, unknown>;
  /** The table's primary key (schema.ts): what makes a row the same row when read again. */
  key: string[];
}

/** An ISO 8601 time that carries an offset other than Z: `2026-11-27T23:30:00-05:00`. */
const OFFSET_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?[+-]\d\d:?\d\d$/;

/**
 * A time as UTC: DuckDB's TIMESTAMP drops an offset (23:30-05:00 was stored as 23:30, on the wrong
 * day). Anything else goes as sent, for DuckDB to read (a time that is not one is stored as NULL).
 */
const inUtc = <T>(time: T): T | string => {
  if (typeof time !== 'string' || !OFFSET_TIME.test(time)) return time;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? time : new Date(ms).toISOString();
};

/** The UTC day of a time: all before its `T`, so an expanded year (`-000001-06-01T...`, `+010000-...`) keeps its whole date. */
const dayOf = (time: string | null | undefined): string | null => {
  const utc = inUtc(time);
  if (typeof utc !== 'string' || utc === '') return null;
  const t = utc.indexOf('T');
  return t > 0 ? utc.slice(0, t) : utc.slice(0, 10);
};
const offsetOf = (position: string | null): number => (position === null ? 0 : Number(position));

const trafficColumns = { date: 'DATE', path: 'VARCHAR', human: 'DOUBLE', ai: 'DOUBLE', total: 'DOUBLE' };
const trafficRow =
  (date: string) =>
  (p: PageTraffic): Row => ({ date, path: p.path, human: p.human, ai: p.ai, total: p.total });

type TrafficQuery = { dateFrom: string; dateTo: string; limit: number; offset: number };
type TrafficList = (
  api: ApiClient,
  projectId: string,
  query: TrafficQuery,
  call: CallOptions,
) => Promise<{ page: object; pages: PageTraffic[]; hasMore: boolean }>;

/** Views and visitors: the same per-page traffic per day, paged by offset, 250 a page. */
function trafficStream(
  table: 'views' | 'visitors',
  list: TrafficList,
  paging: GuardedEndpoint<object, unknown>,
): Stream {
  return {
    table,
    key: ['date', 'path'],
    kind: 'day',
    pageSize: 250,
    paging,
    columns: trafficColumns,
    async fetch(api, projectId, w, position, call) {
      const offset = offsetOf(position);
      const page = await list(api, projectId, { dateFrom: w.from, dateTo: w.to, limit: 250, offset }, call);
      return {
        rows: page.pages.map(trafficRow(w.from)),
        next: page.hasMore && page.pages.length > 0 ? String(offset + page.pages.length) : null,
        answer: { page: page.page, items: page.pages },
      };
    },
  };
}

/** A route's paging facts, its page and item types let go: the sync hands the guard what the stream fetched. */
const guarded = (route: {
  style: GuardedEndpoint<object, unknown>['style'];
  noun: string;
  itemsAtMost?: unknown;
}): GuardedEndpoint<object, unknown> => route as GuardedEndpoint<object, unknown>;

export const STREAMS: Record<DataTable, Stream> = {
  searches: {
    table: 'searches',
    key: ['date', 'search_query'],
    kind: 'day',
    pageSize: 100,
    paging: guarded(SEARCHES),
    columns: {
      date: 'DATE',
      search_query: 'VARCHAR',
      hits: 'DOUBLE',
      ctr: 'DOUBLE',
      top_clicked_page: 'VARCHAR',
      last_searched_at: 'TIMESTAMP',
    },
    async fetch(api, projectId, w, position, call) {
      const page = await api.listSearches(
        projectId,
        { dateFrom: w.from, dateTo: w.to, limit: 100, ...(position ? { cursor: position } : {}) },
        call,
      );
      const row = (s: SearchTerm): Row => ({
        date: w.from,
        search_query: s.searchQuery,
        hits: s.hits,
        ctr: s.ctr,
        top_clicked_page: s.topClickedPage,
        last_searched_at: inUtc(s.lastSearchedAt),
      });
      return { rows: page.searches.map(row), next: page.nextCursor, answer: { page, items: page.searches } };
    },
  },
  views: trafficStream(
    'views',
    (api, projectId, query, call) =>
      api.listViews(projectId, query, call).then((p) => ({ page: p, pages: p.views, hasMore: p.hasMore })),
    guarded(VIEWS),
  ),
  visitors: trafficStream(
    'visitors',
    (api, projectId, query, call) =>
      api.listVisitors(projectId, query, call).then((p) => ({ page: p, pages: p.visitors, hasMore: p.hasMore })),
    guarded(VISITORS),
  ),
  feedback_by_page: {
    table: 'feedback_by_page',
    key: ['date', 'path'],
    kind: 'day',
    pageSize: 100,
    columns: {
      date: 'DATE',
      path: 'VARCHAR',
      thumbs_up: 'DOUBLE',
      thumbs_down: 'DOUBLE',
      code: 'DOUBLE',
      total: 'DOUBLE',
    },
    async fetch(api, projectId, w, _position, call) {
      const page = await api.feedbackByPage(projectId, { dateFrom: w.from, dateTo: w.to, limit: 100 }, call);
      const rows = page.feedback.map(
        (p): Row => ({
          date: w.from,
          path: p.path,
          thumbs_up: p.thumbsUp,
          thumbs_down: p.thumbsDown,
          code: p.code,
          total: p.total,
        }),
      );
      // The endpoint has no cursor: a day with more than 100 pages of feedback keeps its top 100.
      return { rows, next: null, truncated: page.hasMore };
    },
  },
  caller_stats: {
    table: 'caller_stats',
    key: ['date'],
    kind: 'day',
    pageSize: 1,
    columns: { date: 'DATE', web: 'DOUBLE', api: 'DOUBLE', other: 'DOUBLE', total: 'DOUBLE' },
    async fetch(api, projectId, w, _position, call) {
      const s = await api.callerStats(projectId, { dateFrom: w.from, dateTo: w.to }, call);
      return { rows: [{ date: w.from, web: s.web, api: s.api, other: s.other, total: s.total }], next: null };
    },
  },
  conversations: {
    table: 'conversations',
    key: ['id'],
    kind: 'items',
    pageSize: 1000,
    paging: guarded(CONVERSATIONS),
    columns: {
      id: 'VARCHAR',
      date: 'DATE',
      timestamp: 'TIMESTAMP',
      query: 'VARCHAR',
      response: 'VARCHAR',
      response_type: 'VARCHAR',
      sources: [{ title: 'VARCHAR', url: 'VARCHAR' }],
      resolution_status: 'VARCHAR',
      query_category: 'VARCHAR',
      page_url: 'VARCHAR',
    },
    async fetch(api, projectId, w, position, call) {
      const page = await api.listConversations(
        projectId,
        { dateFrom: w.from, dateTo: w.to, limit: 1000, ...(position ? { cursor: position } : {}) },
        call,
      );
      const row = (c: Conversation): Row => ({
        id: c.id,
        date: dayOf(c.timestamp),
        timestamp: inUtc(c.timestamp),
        query: c.query,
        response: c.response,
        response_type: c.responseType ?? null,
        sources: c.sources.map((s) => ({ title: s.title, url: s.url })),
        resolution_status: c.resolutionStatus,
        query_category: c.queryCategory,
        page_url: c.pageUrl,
      });
      return {
        rows: page.conversations.map(row),
        next: page.hasMore ? page.nextCursor : null,
        answer: { page, items: page.conversations },
      };
    },
  },
  feedback: {
    table: 'feedback',
    key: ['id'],
    kind: 'items',
    pageSize: 100,
    paging: guarded(FEEDBACK),
    columns: {
      id: 'VARCHAR',
      date: 'DATE',
      path: 'VARCHAR',
      comment: 'VARCHAR',
      created_at: 'TIMESTAMP',
      source: 'VARCHAR',
      status: 'VARCHAR',
      helpful: 'BOOLEAN',
      contact: 'VARCHAR',
      code: 'VARCHAR',
      filename: 'VARCHAR',
      lang: 'VARCHAR',
    },
    async fetch(api, projectId, w, position, call) {
      const page = await api.listFeedback(
        projectId,
        { dateFrom: w.from, dateTo: w.to, limit: 100, ...(position ? { cursor: position } : {}) },
        call,
      );
      const row = (f: FeedbackItem): Row => {
        const x = f as FeedbackItem & {
          helpful?: boolean;
          contact?: string | null;
          code?: string;
          filename?: string | null;
          lang?: string | null;
        };
        return {
          id: f.id,
          date: dayOf(f.createdAt),
          path: f.path,
          comment: f.comment,
          created_at: inUtc(f.createdAt),
          source: f.source,
          status: f.status,
          helpful: x.helpful ?? null,
          contact: x.contact ?? null,
          code: x.code ?? null,
          filename: x.filename ?? null,
          lang: x.lang ?? null,
        };
      };
      return {
        rows: page.feedback.map(row),
        next: page.hasMore ? page.nextCursor : null,
        answer: { page, items: page.feedback },
      };
    },
  },
};

/**
 * A day stream read over a whole report period instead (RANGE_TABLES): the same request with a wider
 * date range, its rows carrying the range instead of a day.
 */
function rangeStream(table: RangeTable): Stream {
  const day = STREAMS[RANGE_OF[table]];
  const { date: _date, ...columns } = day.columns;
  return {
    ...day,
    table,
    kind: 'range',
    key: ['date_from', 'date_to', ...day.key.filter((k) => k !== 'date')],
    columns: { date_from: 'DATE', date_to: 'DATE', ...columns },
    async fetch(api, projectId, w, position, call) {
      const page = await day.fetch(api, projectId, w, position, call);
      return {
        ...page,
        rows: page.rows.map(({ date: _day, ...row }) => ({ date_from: w.from, date_to: w.to, ...row })),
      };
    },
  };
}

export const RANGE_STREAMS = Object.fromEntries(RANGE_TABLES.map((t) => [t, rangeStream(t)])) as Record<
  RangeTable,
  Stream
>;
