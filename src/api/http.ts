// What the API client and the bundle download share: one undici dispatcher that honours
// HTTPS_PROXY / NO_PROXY, how network failures are named, and how waits between tries are chosen.
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';
import type { Env } from '../config.js';
import { NetworkError } from '../errors.js';

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

/** Names a low-level failure in words a user can act on; `target` says what we were talking to. */
export function toNetworkError(error: unknown, target: string): NetworkError {
  const code = findCode(error);
  const reason = (() => {
    switch (code) {
      case 'ECONNREFUSED':
        return `connection refused by ${target}`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `cannot resolve the host of ${target}`;
      case 'UND_ERR_CONNECT_TIMEOUT':
        return `timed out connecting to ${target}`;
      case 'UND_ERR_HEADERS_TIMEOUT':
        return `${target} did not answer in time`;
      case 'UND_ERR_BODY_TIMEOUT':
        return `${target} stopped sending data`;
      case 'ECONNRESET':
      case 'UND_ERR_SOCKET':
      case 'UND_ERR_CLOSED':
        return `the connection to ${target} was dropped`;
      default:
        return `network error talking to ${target}${code ? ` (${code})` : ''}`;
    }
  })();
  return new NetworkError(`${reason}; check your connection or proxy settings (HTTPS_PROXY, NO_PROXY)`, code, {
    cause: error,
  });
}

function findCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Exponential backoff with full jitter: attempt 1 waits up to base, 2 up to 2x base, ... capped. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110, 10.2.3); returns ms from now. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
