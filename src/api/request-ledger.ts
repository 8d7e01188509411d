// What the transport tells about the requests it sends to a budgeted family of endpoints, so the
// organization's shared hourly budget can be counted across every command, the library and the MCP
// server (src/budget/ledger-file.ts keeps it on disk). The transport calls it; it decides nothing.

/** The analytics endpoints share 100 requests per organization per hour (admin-api.md, Limits). */
export const ANALYTICS_BUDGET = { requests: 100, windowMs: 60 * 60 * 1000 } as const;

export interface RequestLedger {
  /** One request about to be sent (every try of it: the server counts each). */
  record(at: number): void;
  /** A 429 said to come back at `until` (epoch ms). */
  recordRetryAfter(until: number): void;
}

/** Whether `route` (as client.ts names it) spends the analytics budget. */
export function spendsAnalyticsBudget(route: string): boolean {
  return route.startsWith('/v1/analytics/');
}
