// The documented rate limits, so a 429 says which budget ran out (admin-api.md, "Limits", and the
// 429 descriptions in openapi/*.json). Keyed by call, `METHOD /route` as client.ts names it;
// a later endpoint with a documented limit adds one row.
const LIMITS: Array<[RegExp, string]> = [
  [/^(GET|POST) \/v2\/agent\//, 'the agent API allows 100 requests per project per hour'],
  [
    /^GET \/v1\/analytics\//,
    'the analytics API allows 100 requests per organization per hour, shared by every analytics endpoint and everyone in the organization',
  ],
  [
    /^POST \/(v1\/project\/update|v1\/workflow|v2\/workflow)\//,
    'deployments, automation triggers and automation webhooks share 10 requests per 10 seconds per organization',
  ],
  [/^POST \/v1\/project\/preview\//, 'preview deployments allow 5 requests per minute'],
  [/^POST \S*\/static-export\/\{projectId\}\/jobs$/, 'static export allows 10 job starts per organization per hour'],
];

/** The limit that applies to `call`, in words, or undefined when the documents name none. */
export function rateLimitNote(call: string): string | undefined {
  return LIMITS.find(([pattern]) => pattern.test(call))?.[1];
}

/**
 * The longest Retry-After believed. Every limit above is per hour at most, so a longer wait is a
 * server's mistake; taken whole, it would stop every later run for years (and past year 275760 no Date
 * can hold the time at all). Held to this, the next run tries again within the hour.
 */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;
