// Where a call goes: the documented route with its ids filled in, on the API's origin and nowhere
// else, since every request carries the admin key.
import { UsageError } from '../errors.js';
import { describeValue, isSafeSegment } from '../ids.js';

export type Method = 'GET' | 'POST';
export type Query = Record<string, string | number | undefined>;

/** The URL of one call: `path` under the base URL, with `query`; refused if it leaves `origin`. */
export function callUrl(baseUrl: string, origin: string, path: string, query: Query | undefined): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  // The Authorization header must reach the API's origin and nowhere else.
  if (url.origin !== origin) throw new Error(`refusing to send credentials to ${url.origin}`);
  return url.toString();
}

/** `/v2/agent/{projectId}/job` with each placeholder replaced by its encoded value. */
export function fillRoute(route: string, params: Record<string, string>): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => {
    // A missing key is this module's mistake; a key given undefined is a caller's bad id (seg says so).
    if (!Object.hasOwn(params, name)) throw new Error(`no value for {${name}} in ${route}`);
    return seg(params[name]);
  });
}

function seg(value: unknown): string {
  // Commands check ids first (src/ids.ts); this is the backstop, so no caller (a script's parsed JSON
  // included: `['..']`, 42, null) can address another path.
  if (!isSafeSegment(value))
    throw new UsageError(
      `refusing to put ${describeValue(value)} into a URL path (an id must be a string with no "/", "\\", spaces or control characters, and not "." or ".."); nothing was sent`,
    );
  return encodeURIComponent(value);
}

/** `GET https://api.mintlify.com/v2/agent/...`: origin and path only (no query; an origin never holds credentials). */
export function triedUrl(method: Method, url: string): string {
  const { origin, pathname } = new URL(url);
  return `${method} ${origin}${pathname}`;
}
