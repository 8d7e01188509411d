// The content-gaps report for scripts: what `analytics gaps` collects and scores (src/gaps/), as data,
// with the same budget rules and the query checked before anything is sent.
import { collectGaps, DEFAULT_GAPS_REQUESTS, MIN_GAPS_REQUESTS, type GapsCollection } from '../gaps/collect.js';
import { UsageError } from '../errors.js';
import { settingsOf } from './client-settings.js';
import type { AdminClient } from './client.js';
import { checkAnalyticsQuery } from '../queries/analytics-query.js';

export interface ContentGapsQuery {
  dateFrom?: string | undefined;
  /** Exclusive, as in every analytics query. */
  dateTo?: string | undefined;
  /** The most analytics requests to send (of the organization's 100 an hour): 4 to 100, default 25. */
  maxRequests?: number | undefined;
}

/**
 * The ranked content gaps of a project. A report the budget or a 429 cut short is still returned:
 * `report.partial` says so and each source's `incomplete` says why; `rateLimit` is the 429, if one
 * cut it. `report.requests.used` counts the requests sent.
 */
export async function contentGaps(
  client: AdminClient,
  projectId: string,
  query: ContentGapsQuery = {},
): Promise<GapsCollection> {
  const range = checkAnalyticsQuery(
    { maxLimit: 1, noun: 'content gaps' },
    { dateFrom: query.dateFrom, dateTo: query.dateTo },
    settingsOf(client).clock.now(),
  );
  const maxRequests = query.maxRequests ?? DEFAULT_GAPS_REQUESTS;
  if (!(Number.isInteger(maxRequests) && maxRequests >= MIN_GAPS_REQUESTS && maxRequests <= 100)) {
    throw new UsageError(
      `maxRequests: ${String(maxRequests)} is not a budget; give a whole number from ${MIN_GAPS_REQUESTS} to 100 (one request per source at least; the organization has 100 an hour)`,
    );
  }
  return collectGaps(client, projectId, { dateFrom: range.dateFrom, dateTo: range.dateTo, maxRequests });
}
