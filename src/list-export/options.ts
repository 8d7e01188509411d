// What a list export is asked to do, whichever face asks: the query's range and page size, where to
// start, whether to follow every page, and the format and place of the output. The CLI's flags are
// parsed into this (src/cli/commands/list-options.ts); the engine reads nothing else.

import type { PagePosition } from '../paging/engine.js';

export const LIST_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

export interface ListExportOptions {
  /** The range as the user wrote it (checked already, src/queries/dates.ts): it is sent on as is. */
  dateFrom: string | undefined;
  dateTo: string | undefined;
  limit: number;
  /** Where a cursor-paged list starts (--cursor, from a resume hint). */
  cursor: string | undefined;
  /** Where an offset-paged list starts (--offset, from a resume hint). */
  offset?: number | undefined;
  all: boolean;
  format: ListFormat;
  /** A file to write; stdout when undefined. */
  output: string | undefined;
  csvRaw: boolean;
  header: boolean;
  /** The endpoint's own filters, as flags, repeated in a resume command (e.g. --source code_snippet). */
  filterArgs?: string[];
}

/** What a list export did: pages and items written, requests sent, and where it stopped. */
export interface ListResult<Page extends object = object> {
  pages: number;
  items: number;
  /** Analytics requests this run sent (page requests; the client's own retries are not counted). */
  requests: number;
  next: PagePosition | null;
  /** The last page written, for its totals. */
  last: Page | undefined;
}
