// An analytics query as a program hands it in (the library's AdminClient and contentGaps, the MCP
// tools' arguments), checked before anything is sent (a UsageError): each analytics request is one of
// the 100 the whole organization gets an hour, too dear to spend on a typo the API would only answer
// with a 400. The same checks as the CLI's flags, named after the query's fields rather than the flags.
import { FEEDBACK_SOURCES, FEEDBACK_STATUSES } from '../api/enums.js';
import type { FeedbackQuery } from '../api/types.js';
import { readDateRange } from './dates.js';
import { UsageError } from '../errors.js';
import type { PagedRoute } from '../paging/endpoints.js';

type AnyQuery = FeedbackQuery & { offset?: number | undefined };

/**
 * The query as it is to be sent, or a UsageError: its dates read by the CLI's rules (a duration before
 * `now`, `7d`, becomes the instant it names), its page size, position and filters checked.
 */
export function checkAnalyticsQuery<Q extends object>(
  route: Pick<PagedRoute<object, unknown, object>, 'maxLimit' | 'noun'>,
  query: Q,
  now: number,
): Q {
  const dated = checkQueryDates(query, now);
  const q = query as AnyQuery;
  if (q.limit !== undefined && !(Number.isInteger(q.limit) && q.limit >= 1 && q.limit <= route.maxLimit)) {
    throw new UsageError(
      `limit: ${String(q.limit)} is not a page size for ${route.noun}; give a whole number from 1 to ${route.maxLimit} (or none: the largest page)`,
    );
  }
  if (q.offset !== undefined && !(Number.isInteger(q.offset) && q.offset >= 0)) {
    throw new UsageError(`offset: ${String(q.offset)} is not a number of rows to skip; give a whole number, 0 or more`);
  }
  if (q.cursor !== undefined && (typeof q.cursor !== 'string' || q.cursor === '')) {
    throw new UsageError('cursor: give the nextCursor of an earlier page, or leave it out to start at the first page');
  }
  if (q.source !== undefined && !(FEEDBACK_SOURCES as readonly unknown[]).includes(q.source)) {
    throw new UsageError(`source: "${String(q.source)}" is not one of ${FEEDBACK_SOURCES.join(', ')}`);
  }
  if (
    q.status !== undefined &&
    !(
      typeof q.status === 'string' &&
      q.status.split(',').every((s) => (FEEDBACK_STATUSES as readonly string[]).includes(s))
    )
  ) {
    throw new UsageError(
      `status: "${String(q.status)}" is not a comma-separated list of ${FEEDBACK_STATUSES.join(', ')}`,
    );
  }
  return dated;
}

/** A query's dateFrom / dateTo alone (the calls with no paging: caller stats, feedback by page), as checkAnalyticsQuery reads them. */
export function checkQueryDates<Q extends object>(query: Q, now: number): Q {
  const q = query as { dateFrom?: unknown; dateTo?: unknown };
  const text = (value: unknown) => (value === undefined ? undefined : String(value));
  const range = readDateRange({ from: text(q.dateFrom), to: text(q.dateTo) }, now, { from: 'dateFrom', to: 'dateTo' });
  return {
    ...query,
    ...(range.from ? { dateFrom: range.from.text } : {}),
    ...(range.to ? { dateTo: range.to.text } : {}),
  };
}
