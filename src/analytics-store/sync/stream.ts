// What a stream is: one analytics endpoint as the sync reads it, window by window and page by page,
// and how its answer becomes rows of its table (columns as in ../schema.ts).
import type { ApiClient, CallOptions } from '../../api/client.js';
import type { GuardedEndpoint } from '../../paging/engine.js';
import type { DataTable, RangeTable } from '../schema.js';

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

/** A route's paging facts, its page and item types let go: the sync hands the guard what the stream fetched. */
export const guarded = (route: {
  style: GuardedEndpoint<object, unknown>['style'];
  noun: string;
  itemsAtMost?: unknown;
}): GuardedEndpoint<object, unknown> => route as GuardedEndpoint<object, unknown>;
