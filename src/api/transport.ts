// The transport under the endpoint catalogue (client.ts): base URL, auth, timeouts, retries,
// redaction, and every answer checked before it is data (answer.ts checks, failures.ts words what is
// not). Retries follow one rule: send again only what cannot do harm twice.
//
// Retries are written here rather than with undici's RetryAgent because the rules the CLI promises
// are not expressible there: a 429 whose Retry-After is past our cap must fail at once with the time
// to come back rather than sleep for an hour, and a POST may be resent only when the connection never
// opened. The waits go through the injected Clock so tests never really sleep.
import { request, type Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import { briefReason } from '../errors.js';
import type { GenericSchema, InferOutput } from 'valibot';
import { redactUrl } from '../redact.js';
import { acceptAnswer, parseJson } from './answer.js';
import { apiErrorOf, rateLimitErrorOf, type Answered, type Call } from './failures.js';
import {
  backoffDelay,
  DEFAULT_TIMEOUTS,
  MAX_BODY_BYTES,
  neverReachedServer,
  parseRetryAfter,
  readCapped,
  toNetworkError,
  type Timeouts,
} from './http.js';
import { spendsAnalyticsBudget, type RequestLedger } from './request-ledger.js';
import { callUrl, fillRoute, type Method, type Query, triedUrl } from './route.js';

export interface RetryPolicy {
  /** Total tries of one call, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest Retry-After we sit out; a longer one fails at once with a RateLimitError saying when to retry. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };

export interface RetryNotice {
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface ClientConfig {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  dispatcher: Dispatcher;
  clock: Clock;
  random?: () => number;
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy>;
  timeouts?: Partial<Timeouts>;
  /** --debug lines; already redacted. */
  debug?: (line: string) => void;
  /** Told before each wait, so a person sees why nothing happens for a while. */
  onRetry?: (notice: RetryNotice) => void;
  /** Told of every analytics request sent and every Retry-After it met: the shared hourly budget's ledger. */
  requestLedger?: RequestLedger | undefined;
}

/**
 * What every call takes last. A catalogue method passes it to `send` as `call`; a method added later does the same.
 * A polling loop passes its deadline, and does its own retrying (one note per retry).
 */
export interface CallOptions {
  /** Cancels this call alone (a wait's deadline); the client's own signal still cancels them all. */
  signal?: AbortSignal | undefined;
  /** One try only: the caller sits out transient failures itself. */
  once?: boolean | undefined;
}

/** How one endpoint is sent, besides its route and schema. */
export interface SendOptions {
  body?: unknown;
  query?: Query;
  call?: CallOptions | undefined;
  /** The documented rate-limit window: how long a 429 without Retry-After is waited out. */
  rateWindowMs?: number;
  /** Statuses the document says left nothing done, so even a POST may be sent again. */
  resendOn?: number[];
}

export class ApiTransport {
  private readonly config: ClientConfig;
  private readonly retry: RetryPolicy;
  private readonly timeouts: Timeouts;
  private readonly origin: string;

  constructor(config: ClientConfig) {
    this.config = config;
    this.retry = { ...DEFAULT_RETRY, ...config.retry };
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...config.timeouts };
    this.origin = new URL(config.baseUrl).origin;
  }

  /**
   * One call: sends, retries by the rules in the header, and returns the answer only once it fits
   * `schema`. `route` is the documented path with `{name}` placeholders filled from `params`.
   */
  async send<S extends GenericSchema>(
    method: Method,
    route: string,
    params: Record<string, string>,
    schema: S,
    opts: SendOptions = {},
  ): Promise<InferOutput<S>> {
    const call: Call = { method, route };
    const url = callUrl(this.config.baseUrl, this.origin, fillRoute(route, params), opts.query);
    const { clock } = this.config;
    const signal = eitherSignal(this.config.signal, opts.call?.signal);
    // An aborted call sends nothing.
    if (signal?.aborted) throw signal.reason;
    const random = this.config.random ?? Math.random;
    const attempts = opts.call?.once ? 1 : this.retry.attempts;
    for (let attempt = 1; ; attempt++) {
      const lastTry = attempt >= attempts;
      let response: Answered;
      const budgeted = spendsAnalyticsBudget(route);
      // Counted before it is sent: a request that reached the server and then failed spent the budget too.
      if (budgeted) this.config.requestLedger?.record(clock.now());
      try {
        response = await this.once(method, url, opts.body, signal);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        // The error names where the request went (a mistyped base URL, a proxy in the way).
        const failure = toNetworkError(error, 'the API', triedUrl(method, url));
        if (lastTry || !(method === 'GET' || neverReachedServer(failure))) throw failure;
        await this.pause(
          attempt,
          backoffDelay(attempt, this.retry.baseDelayMs, this.retry.maxDelayMs, random),
          briefReason(failure),
          signal,
        );
        continue;
      }
      if (response.status >= 200 && response.status < 300) return acceptAnswer(call, response, schema, this.config);
      // A 429 is sent again, a POST too: it says the request was refused before anything was done
      // (the limiter answers ahead of the handler), so a second send cannot act twice. What that
      // costs is bounded: Retry-After (or the documented window) up to maxRetryAfterMs, then a RateLimitError.
      if (response.status === 429) {
        const retryAfter = parseRetryAfter(response.headers['retry-after'], clock.now());
        if (budgeted && retryAfter !== undefined) this.config.requestLedger?.recordRetryAfter(clock.now() + retryAfter);
        const delay =
          retryAfter ??
          opts.rateWindowMs ??
          backoffDelay(attempt, this.retry.baseDelayMs, this.retry.maxDelayMs, random);
        if (lastTry || delay > this.retry.maxRetryAfterMs)
          throw rateLimitErrorOf(call, response, retryAfter, clock.now(), this.config.apiKey);
        await this.pause(attempt, delay, 'rate limited (429)', signal);
        continue;
      }
      const error = apiErrorOf(call, response, this.config.apiKey);
      const resendable = method === 'GET' ? response.status >= 500 : (opts.resendOn ?? []).includes(response.status);
      if (resendable && !lastTry) {
        await this.pause(
          attempt,
          backoffDelay(attempt, this.retry.baseDelayMs, this.retry.maxDelayMs, random),
          briefReason(error),
          signal,
        );
        continue;
      }
      throw error;
    }
  }

  private async once(method: Method, url: string, body: unknown, signal: AbortSignal | undefined): Promise<Answered> {
    const started = this.config.clock.now();
    this.config.debug?.(`> ${method} ${redactUrl(url)}`);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.config.apiKey}`,
      accept: 'application/json',
      'user-agent': this.config.userAgent,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await request(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: this.config.dispatcher,
      signal,
      headersTimeout: this.timeouts.headersMs,
      bodyTimeout: this.timeouts.bodyMs,
    });
    // A failure's body only has to say why: the first part of it is enough, the rest is dropped.
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    const { text, overflowed } = await readCapped(
      res.body,
      ok ? MAX_BODY_BYTES : ERROR_BODY_BYTES,
      ok ? res.headers['content-length'] : undefined,
    );
    this.config.debug?.(`< ${res.statusCode} ${method} ${redactUrl(url)} (${this.config.clock.now() - started} ms)`);
    const contentType = String(res.headers['content-type'] ?? '');
    return {
      status: res.statusCode,
      headers: res.headers,
      text,
      overflowed: ok && overflowed,
      contentType,
      json: overflowed ? undefined : parseJson(text),
    };
  }

  private async pause(
    attempt: number,
    delayMs: number,
    reason: string,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    this.config.debug?.(`retry ${attempt} in ${delayMs} ms: ${reason}`);
    this.config.onRetry?.({ attempt, delayMs, reason });
    await this.config.clock.sleep(delayMs, signal);
  }
}

/** How much of a failure's body is read: enough for any message, never a whole error page. */
const ERROR_BODY_BYTES = 64 * 1024;

/** The client's signal and the call's, as one: either aborting cancels the call. */
function eitherSignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (!a || !b) return a ?? b;
  return AbortSignal.any([a, b]);
}
