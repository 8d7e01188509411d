// The aggregating endpoints, read one UTC day at a time (or a whole report period, streams.ts): each
// day's rows carry its date. Page sizes are each endpoint's documented maximum, so a day costs the
// fewest requests it can.
import type { ApiClient, CallOptions } from '../../api/client.js';
import type { PageTraffic, SearchTerm } from '../../api/types.js';
import type { GuardedEndpoint } from '../../paging/engine.js';
import { SEARCHES, VIEWS, VISITORS } from '../../paging/endpoints.js';
import { guarded, type Row, type Stream } from './stream.js';
import { inUtc } from './utc-times.js';

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

/** The aggregates, one stream each, in the order the tables are listed (../schema.ts). */
export const DAY_STREAMS = {
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
} satisfies Record<string, Stream>;
