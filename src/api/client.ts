// The one module that talks to the Admin API. Every endpoint the CLI uses is a typed method; every
// non-2xx becomes an ApiError; retries follow one rule: send again only what cannot do harm twice.
//
// Retries are written here rather than with undici's RetryAgent because the rules the CLI promises
// are not expressible there: a 429 whose Retry-After is past our cap must fail at once with the time
// to come back (exit 6) rather than sleep for an hour, and a POST may be resent only when the
// connection never opened. The waits go through the injected Clock so tests never really sleep.
import { request, type Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import { ApiError, briefReason, RateLimitError } from '../errors.js';
import { formatDuration } from '../duration.js';
import { API_KEYS_PAGE } from '../config.js';
import { redactUrl, scrubSecrets } from '../redact.js';
import { backoffDelay, DEFAULT_TIMEOUTS, neverReachedServer, parseRetryAfter, toNetworkError, type Timeouts } from './http.js';
import type {
  AgentJob,
  ApiErrorBody,
  Bundle,
  ExportJob,
  SearchesPage,
  SearchesQuery,
  StartExportRequest,
} from './types.js';

export interface RetryPolicy {
  /** Total tries of one call, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest Retry-After we sit out; a longer one fails with exit 6 and the time to retry. */
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
}

/** For one call: a polling loop passes its deadline, and does its own retrying (one note per retry). */
export interface CallOptions {
  /** Cuts this call short (a wait's deadline), besides the client's own signal. */
  signal?: AbortSignal;
  /** One try only: the caller sits out transient failures itself. */
  once?: boolean;
}

type Method = 'GET' | 'POST';
type Query = Record<string, string | number | undefined>;

export class ApiClient {
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

  createAgentJob(projectId: string, prompt: string): Promise<AgentJob> {
    return this.send('POST', `/v2/agent/${seg(projectId)}/job`, { body: { prompt } });
  }

  getAgentJob(projectId: string, jobId: string, call?: CallOptions): Promise<AgentJob> {
    return this.send('GET', `/v2/agent/${seg(projectId)}/job/${seg(jobId)}`, call);
  }

  sendAgentMessage(projectId: string, jobId: string, prompt: string): Promise<AgentJob> {
    return this.send('POST', `/v2/agent/${seg(projectId)}/job/${seg(jobId)}/message`, { body: { prompt } });
  }

  startExport(req: StartExportRequest): Promise<ExportJob> {
    return this.send('POST', '/v1/static-export/jobs', { body: req });
  }

  getExport(jobId: string, call?: CallOptions): Promise<ExportJob> {
    return this.send('GET', `/v1/static-export/jobs/${seg(jobId)}`, call);
  }

  createBundle(jobId: string): Promise<Bundle> {
    return this.send('POST', `/v1/static-export/jobs/${seg(jobId)}/bundle`);
  }

  listSearches(projectId: string, query: SearchesQuery): Promise<SearchesPage> {
    return this.send('GET', `/v1/analytics/${seg(projectId)}/searches`, { query: { ...query } });
  }

  private url(path: string, query: Query | undefined): string {
    const url = new URL(this.config.baseUrl.replace(/\/+$/, '') + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    // The Authorization header below must reach the API's origin and nowhere else.
    if (url.origin !== this.origin) throw new Error(`refusing to send credentials to ${url.origin}`);
    return url.toString();
  }

  private async send<T>(method: Method, path: string, opts: { body?: unknown; query?: Query } & CallOptions = {}): Promise<T> {
    const url = this.url(path, opts.query);
    const { clock } = this.config;
    const signal = anySignal(this.config.signal, opts.signal);
    const random = this.config.random ?? Math.random;
    const attempts = opts.once ? 1 : this.retry.attempts;
    for (let attempt = 1; ; attempt++) {
      const lastTry = attempt >= attempts;
      let response: Awaited<ReturnType<typeof this.once>>;
      try {
        response = await this.once(method, url, opts.body, signal);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const failure = toNetworkError(error, 'the API');
        if (lastTry || !(method === 'GET' || neverReachedServer(failure))) throw failure;
        await this.pause(attempt, backoffDelay(attempt, this.retry.baseDelayMs, this.retry.maxDelayMs, random), briefReason(failure), signal);
        continue;
      }
      if (response.status >= 200 && response.status < 300) {
        if (response.json === undefined) throw this.toApiError(response);
        return response.json as T;
      }
      if (response.status === 429) {
        const retryAfter = parseRetryAfter(response.headers['retry-after'], clock.now());
        const delay = retryAfter ?? backoffDelay(attempt, this.retry.baseDelayMs, this.retry.maxDelayMs, random);
        if (lastTry || delay > this.retry.maxRetryAfterMs) throw this.rateLimited(response, retryAfter);
        await this.pause(attempt, delay, 'rate limited (429)', signal);
        continue;
      }
      const error = this.toApiError(response);
      if (method === 'GET' && response.status >= 500 && !lastTry) {
        await this.pause(attempt, backoffDelay(attempt, this.retry.baseDelayMs, this.retry.maxDelayMs, random), briefReason(error), signal);
        continue;
      }
      throw error;
    }
  }

  private async once(method: Method, url: string, body: unknown, signal: AbortSignal | undefined) {
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
    const text = await res.body.text();
    this.config.debug?.(`< ${res.statusCode} ${method} ${redactUrl(url)} (${this.config.clock.now() - started} ms)`);
    const contentType = String(res.headers['content-type'] ?? '');
    return { status: res.statusCode, headers: res.headers, text, contentType, json: parseJson(text), url };
  }

  private async pause(attempt: number, delayMs: number, reason: string, signal: AbortSignal | undefined): Promise<void> {
    this.config.debug?.(`retry ${attempt} in ${delayMs} ms: ${reason}`);
    this.config.onRetry?.({ attempt, delayMs, reason });
    await this.config.clock.sleep(delayMs, signal);
  }

  private serverText(response: { json: unknown }): { message: string | undefined; details: string[] } {
    const body = (response.json ?? {}) as ApiErrorBody;
    const scrub = (s: string) => scrubSecrets(s, [this.config.apiKey]);
    const message = typeof body.error === 'string' ? scrub(body.error) : undefined;
    const details = Array.isArray(body.details)
      ? body.details.map((d) => (typeof d?.message === 'string' ? scrub(d.message) : '')).filter(Boolean)
      : [];
    return { message, details };
  }

  private rateLimited(response: { json: unknown }, retryAfterMs: number | undefined): RateLimitError {
    const { message } = this.serverText(response);
    const now = this.config.clock.now();
    const when =
      retryAfterMs === undefined
        ? 'wait a while before trying again'
        : `try again in ${formatDuration(retryAfterMs)} (after ${new Date(now + retryAfterMs).toISOString()})`;
    return new RateLimitError(
      `rate limited by the API${message ? ` (${message})` : ''}; ${when}`,
      retryAfterMs === undefined ? undefined : now + retryAfterMs,
      message,
    );
  }

  private toApiError(response: { status: number; json: unknown; contentType: string; text: string }): ApiError {
    const { status } = response;
    if (response.json === undefined) {
      const kind = response.contentType.split(';')[0]?.trim() || 'a body';
      return new ApiError(
        `the API answered ${status} with ${kind} instead of JSON (a proxy or gateway page?); check --base-url and your proxy settings`,
        status,
      );
    }
    const { message, details } = this.serverText(response);
    const said = [message, ...details].filter(Boolean).join('; ');
    const text = (() => {
      if (status === 401) return `the API refused the admin key (401${said ? `: ${said}` : ''}); check it with \`mint-admin config list\` or create a new one at ${API_KEYS_PAGE}`;
      if (status === 403) return `permission denied (403${said ? `: ${said}` : ''}); the key may not have access to this project or feature`;
      if (status === 404) return `not found (404${said ? `: ${said}` : ''}); check the id and --project`;
      if (status >= 500) return `the API failed (${status}${said ? `: ${said}` : ''}); try again later`;
      return `the API rejected the request (${status}${said ? `: ${said}` : ''})`;
    })();
    return new ApiError(text, status, { serverMessage: message, details });
  }
}

function anySignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  return a && b ? AbortSignal.any([a, b]) : (a ?? b);
}

function seg(value: string): string {
  return encodeURIComponent(value);
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
