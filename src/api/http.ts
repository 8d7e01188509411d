// What the API client and the bundle download share: one undici dispatcher that honours
// HTTPS_PROXY / NO_PROXY, how network failures are named, and how waits between tries are chosen.
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';
import type { Env } from '../config/settings.js';
import { NetworkError } from '../errors.js';
import { networkProblem } from '../network-problem.js';
import { MAX_RETRY_AFTER_MS } from './limits.js';

export interface Timeouts {
  connectMs: number;
  /** Time to the response headers. */
  headersMs: number;
  /** Longest silence between two chunks of a body. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 60_000 };

/** undici's own proxy dispatcher, fed from the injected environment rather than process.env. */
export function createDispatcher(env: Env, timeouts: Timeouts = DEFAULT_TIMEOUTS): Dispatcher {
  const pick = (name: string) => env[name] ?? env[name.toLowerCase()];
  return new EnvHttpProxyAgent({
    httpProxy: pick('HTTP_PROXY'),
    httpsProxy: pick('HTTPS_PROXY') ?? pick('HTTP_PROXY'),
    noProxy: pick('NO_PROXY'),
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  });
}

/**
 * Failures that happen before a request can have reached the server. Only these make it safe to
 * send a POST again; after a reset or a timeout the server may already have acted on it.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function neverReachedServer(error: NetworkError): boolean {
  return error.code !== undefined && NOT_SENT_CODES.has(error.code);
}

/**
 * Names a low-level failure in words a user can act on; `target` says what we were talking to, and
 * `tried`, when given, the request (`GET https://host/path`). The error keeps code and target, so a
 * retry note (briefReason) says what happened in a few words while the final error shows where it went.
 */
export function toNetworkError(error: unknown, target: string, tried?: string): NetworkError {
  const code = findCode(error);
  const reason = networkProblem(code, target);
  return new NetworkError(
    `${reason}; ${tried ? `tried ${tried}; ` : ''}check your connection or proxy settings (HTTPS_PROXY, NO_PROXY)`,
    code,
    { cause: error, target },
  );
}

function findCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

export { backoffDelay } from './backoff.js';

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** The three HTTP-date forms a recipient must accept (RFC 9110, 5.6.7): IMF-fixdate, RFC 850, asctime. */
const HTTP_DATE = [
  new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`),
  new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`),
  new RegExp(`^${DAY} ${MONTH} (?: \\d|\\d{2}) ${TIME} \\d{4}$`),
];

/**
 * Retry-After is either delay-seconds (a non-negative integer) or a future HTTP date (RFC 9110,
 * 10.2.3); returns ms from now, at most MAX_RETRY_AFTER_MS. Anything else (`-5`, `1.5`, a past date,
 * garbage) is treated as absent, so the caller's backoff applies: Date.parse alone would read `1.5` as
 * a day in 2001 and wait 0 ms.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  if (!HTTP_DATE.some((form) => form.test(text))) return undefined;
  // asctime carries no zone; HTTP dates are always GMT.
  const at = Date.parse(text.endsWith('GMT') ? text : `${text} GMT`);
  if (Number.isNaN(at) || at <= now) return undefined;
  return Math.min(at - now, MAX_RETRY_AFTER_MS);
}

/** What one answer's body may hold. Past it the request is aborted: no answer of the Admin API is near it. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface CappedBody {
  text: string;
  /** The body went past the cap; `text` holds what came before it. */
  overflowed: boolean;
}

/**
 * Reads a body as it streams in, up to `cap` bytes. Past the cap the stream is destroyed (undici then
 * closes the connection), so an endless or huge body costs at most `cap` bytes of memory and stops at
 * once. A Content-Length already past the cap stops before a byte is read.
 */
export async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown },
  cap: number,
  contentLength?: string | string[],
): Promise<CappedBody> {
  const declared = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength);
  if (Number.isFinite(declared) && declared > cap) {
    body.destroy();
    return { text: '', overflowed: true };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > cap) {
      chunks.push(chunk.subarray(0, cap - size));
      body.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), overflowed: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), overflowed: false };
}
