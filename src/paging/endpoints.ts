// The paged endpoints, declared once: how each pages, where its items are, and its page sizes. The
// list commands (--limit's range, --all's page size), the gaps report and the library's iterators
// all read these facts here, so a change in the API's documents is made in one place. Only types are
// imported: registering a command (which --help does) loads nothing heavy through this file.
import type { ApiClient, CallOptions } from '../api/client.js';
import type {
  Conversation,
  ConversationsPage,
  ConversationsQuery,
  FeedbackItem,
  FeedbackPage,
  FeedbackQuery,
  PageTraffic,
  SearchesPage,
  SearchesQuery,
  SearchTerm,
  TrafficQuery,
  ViewsPage,
  VisitorsPage,
} from '../api/types.js';
import type { PagedEndpoint, PagePosition, PagingStyle } from './engine.js';

export interface PagedRoute<Page extends object, Item, Query extends object> {
  style: PagingStyle;
  itemsKey: PagedEndpoint<Page, Item>['itemsKey'];
  /** What the items are, in messages: "feedback entries". */
  noun: string;
  /** The API's page size when none is asked for (analytics.openapi.json `default`). */
  defaultLimit: number;
  /** The largest page the API serves: a walk of every page asks for it, to spend the fewest requests. */
  maxLimit: number;
  /** The most items the listing can hold by the totals a page reports, when they bound it. */
  itemsAtMost?: PagedEndpoint<Page, Item>['itemsAtMost'];
  fetch(api: ApiClient, projectId: string, query: Query, call?: CallOptions): Promise<Page>;
}

export const SEARCHES: PagedRoute<SearchesPage, SearchTerm, SearchesQuery> = {
  style: 'cursor',
  itemsKey: 'searches',
  noun: 'search terms',
  defaultLimit: 50,
  maxLimit: 100,
  // totalSearches counts search events, the sum of every term's hits: it bounds the number of terms
  // only while every term was searched at least once (a term with 0 hits is allowed by the document,
  // and its own example answer is one).
  itemsAtMost: (page, items) => (items.every((t) => t.hits >= 1) ? page.totalSearches : undefined),
  fetch: (api, projectId, query, call) => api.listSearches(projectId, query, call),
};

export const FEEDBACK: PagedRoute<FeedbackPage, FeedbackItem, FeedbackQuery> = {
  style: 'cursor+hasMore',
  itemsKey: 'feedback',
  noun: 'feedback entries',
  defaultLimit: 50,
  maxLimit: 100,
  fetch: (api, projectId, query, call) => api.listFeedback(projectId, query, call),
};

export const CONVERSATIONS: PagedRoute<ConversationsPage, Conversation, ConversationsQuery> = {
  style: 'cursor+hasMore',
  itemsKey: 'conversations',
  noun: 'conversations',
  defaultLimit: 100,
  maxLimit: 1000,
  fetch: (api, projectId, query, call) => api.listConversations(projectId, query, call),
};

export const VIEWS: PagedRoute<ViewsPage, PageTraffic, TrafficQuery> = {
  style: 'offset+hasMore',
  itemsKey: 'views',
  noun: 'pages',
  defaultLimit: 50,
  maxLimit: 250,
  // totals.total counts every view event: it bounds the pages listed while each was viewed at least once.
  itemsAtMost: (page, items) => (items.every((p) => p.total >= 1) ? page.totals.total : undefined),
  fetch: (api, projectId, query, call) => api.listViews(projectId, query, call),
};

export const VISITORS: PagedRoute<VisitorsPage, PageTraffic, TrafficQuery> = {
  style: 'offset+hasMore',
  itemsKey: 'visitors',
  noun: 'pages',
  defaultLimit: 50,
  maxLimit: 250,
  // No itemsAtMost: one visitor can visit any number of pages, so distinct visitors site-wide do not
  // bound the number of pages listed.
  fetch: (api, projectId, query, call) => api.listVisitors(projectId, query, call),
};

/** Where a walk starts, from a query's own cursor or offset (a resume). */
export function startOf(
  route: { style: PagingStyle },
  query: { cursor?: string | undefined; offset?: number | undefined },
): PagePosition {
  return route.style === 'offset+hasMore' ? { offset: query.offset } : { cursor: query.cursor };
}

/**
 * The route as the engine walks it: each page is the query at the engine's position, the largest
 * page unless the query names a size. `noun` names the items in a caller's own words (the gaps report).
 */
export function walkOf<Page extends object, Item, Query extends object>(
  route: PagedRoute<Page, Item, Query>,
  api: ApiClient,
  projectId: string,
  query: Query & { limit?: number | undefined },
  call?: CallOptions,
  noun: string = route.noun,
): PagedEndpoint<Page, Item> {
  // The engine's position replaces the query's own cursor or offset (where the walk started).
  const at = (position: PagePosition) =>
    route.style === 'offset+hasMore' ? { offset: position.offset } : { cursor: position.cursor };
  return {
    style: route.style,
    itemsKey: route.itemsKey,
    noun,
    itemsAtMost: route.itemsAtMost,
    fetch: (position) =>
      route.fetch(api, projectId, { ...query, limit: query.limit ?? route.maxLimit, ...at(position) }, call),
  };
}
