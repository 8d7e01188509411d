// The one module that talks to the Admin API. Every endpoint the CLI uses is a typed method; every
// non-2xx becomes an ApiError; retries follow one rule: send again only what cannot do harm twice.
//
// Retries are written here rather than with undici's RetryAgent because the rules the CLI promises
// are not expressible there: a 429 whose Retry-After is past our cap must fail at once with the time
// to come back (exit 6) rather than sleep for an hour, and a POST may be resent only when the
// connection never opened. The waits go through the injected Clock so tests never really sleep.
import { request, type Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import { ApiError, briefReason, EXIT_CODES, RateLimitError, UsageError } from '../errors.js';
import type { GenericSchema, InferOutput } from 'valibot';
import { retryWhen } from '../duration.js';
import { describeValue, isSafeSegment } from '../ids.js';
import { forTerminal } from '../terminal-text.js';
import { API_KEYS_PAGE } from '../config.js';
import { redactUrl, scrubSecrets } from '../redact.js';
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
import { rateLimitNote } from './limits.js';
import * as schemas from './schemas.js';
import type {
  AgentJob,
  AutomationTriggered,
  AutomationWebhookQueued,
  Bundle,
  CallerStats,
  CallerStatsQuery,
  ConversationsPage,
  ConversationsQuery,
  ExportJob,
  FeedbackByPagePage,
  FeedbackByPageQuery,
  FeedbackPage,
  PreviewTriggered,
  ProjectExportJob,
  FeedbackQuery,
  SearchesPage,
  SearchesQuery,
  StartExportRequest,
  StartProjectExportRequest,
  Thread,
  UpdateStatus,
  UpdateTriggered,
  TrafficQuery,
  ViewsPage,
  VisitorsPage,
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

/**
 * What every call takes last. A method passes it to `send` as `call`; a method added later does the same.
 * A polling loop passes its deadline, and does its own retrying (one note per retry).
 */
export interface CallOptions {
  /** Cancels this call alone (a wait's deadline); the client's own signal still cancels them all. */
  signal?: AbortSignal | undefined;
  /** One try only: the caller sits out transient failures itself. */
  once?: boolean | undefined;
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

  // One typed method per endpoint: the route as the documents write it (also how errors name the
  // call), its path parameters, and the schema its answer must fit.

  createAgentJob(projectId: string, prompt: string, call?: CallOptions): Promise<AgentJob> {
    return this.send('POST', '/v2/agent/{projectId}/job', { projectId }, schemas.AgentJob, { body: { prompt }, call });
  }

  getAgentJob(projectId: string, jobId: string, call?: CallOptions): Promise<AgentJob> {
    return this.send('GET', '/v2/agent/{projectId}/job/{jobId}', { projectId, jobId }, schemas.AgentJob, { call });
  }

  sendAgentMessage(projectId: string, jobId: string, prompt: string, call?: CallOptions): Promise<AgentJob> {
    return this.send('POST', '/v2/agent/{projectId}/job/{jobId}/message', { projectId, jobId }, schemas.AgentJob, { body: { prompt }, call });
  }

  startExport(req: StartExportRequest, call?: CallOptions): Promise<ExportJob> {
    return this.send('POST', '/v1/static-export/jobs', {}, schemas.StaticExportJob, { body: req, call });
  }

  getExport(jobId: string, call?: CallOptions): Promise<ExportJob> {
    return this.send('GET', '/v1/static-export/jobs/{jobId}', { jobId }, schemas.StaticExportJob, { call });
  }

  createBundle(jobId: string, call?: CallOptions): Promise<Bundle> {
    return this.send('POST', '/v1/static-export/jobs/{jobId}/bundle', { jobId }, schemas.BundleResponse, { call });
  }

  startProjectExport(projectId: string, req: StartProjectExportRequest, call?: CallOptions): Promise<ProjectExportJob> {
    return this.send('POST', '/v1/static-export/{projectId}/jobs', { projectId }, schemas.ProjectExportJob, { body: req, call });
  }

  getProjectExport(projectId: string, jobId: string, call?: CallOptions): Promise<ProjectExportJob> {
    return this.send('GET', '/v1/static-export/{projectId}/jobs/{jobId}', { projectId, jobId }, schemas.ProjectExportJob, { call });
  }

  listSearches(projectId: string, query: SearchesQuery, call?: CallOptions): Promise<SearchesPage> {
    return this.send('GET', '/v1/analytics/{projectId}/searches', { projectId }, schemas.SearchesResponse, { query: { ...query }, call });
  }

  // Deployments, previews and automations (openapi.json, whose paths sit under /v1; the webhook is in
  // admin-openapi.json). The documented windows are seconds, so a 429 without Retry-After waits out
  // the whole window rather than giving up after a short backoff.

  triggerUpdate(projectId: string, call?: CallOptions): Promise<UpdateTriggered> {
    return this.send('POST', '/v1/project/update/{projectId}', { projectId }, schemas.UpdateTriggered, { rateWindowMs: DEPLOY_WINDOW_MS, call });
  }

  getUpdateStatus(statusId: string, call?: CallOptions): Promise<UpdateStatus> {
    return this.send('GET', '/v1/project/update-status/{statusId}', { statusId }, schemas.UpdateStatus, { call });
  }

  triggerPreview(projectId: string, branch: string, call?: CallOptions): Promise<PreviewTriggered> {
    return this.send('POST', '/v1/project/preview/{projectId}', { projectId }, schemas.PreviewTriggered, {
      body: { branch },
      rateWindowMs: PREVIEW_WINDOW_MS,
      call,
    });
  }

  triggerAutomation(projectId: string, workflowSchemaId: string, call?: CallOptions): Promise<AutomationTriggered> {
    return this.send('POST', '/v1/workflow/{projectId}/{workflowSchemaId}/trigger', { projectId, workflowSchemaId }, schemas.AutomationTriggered, {
      rateWindowMs: DEPLOY_WINDOW_MS,
      call,
    });
  }

  triggerAutomationWebhook(projectId: string, workflowSchemaId: string, call?: CallOptions): Promise<AutomationWebhookQueued> {
    return this.send('POST', '/v2/workflow/{projectId}/{workflowSchemaId}/webhook', { projectId, workflowSchemaId }, schemas.AutomationWebhookQueued, {
      call,
      rateWindowMs: DEPLOY_WINDOW_MS,
      // The document: 503 "Credit check failed. Retry the request." No run was queued, so sending the
      // POST again cannot start a second one.
      resendOn: [503],
    });
  }

  listFeedback(projectId: string, query: FeedbackQuery, call?: CallOptions): Promise<FeedbackPage> {
    return this.send('GET', '/v1/analytics/{projectId}/feedback', { projectId }, schemas.FeedbackResponse, { query: { ...query }, call });
  }

  feedbackByPage(projectId: string, query: FeedbackByPageQuery, call?: CallOptions): Promise<FeedbackByPagePage> {
    return this.send('GET', '/v1/analytics/{projectId}/feedback/by-page', { projectId }, schemas.FeedbackByPageResponse, { query: { ...query }, call });
  }

  listConversations(projectId: string, query: ConversationsQuery, call?: CallOptions): Promise<ConversationsPage> {
    return this.send('GET', '/v1/analytics/{projectId}/assistant', { projectId }, schemas.ConversationsResponse, { query: { ...query }, call });
  }

  getThread(projectId: string, threadId: string, call?: CallOptions): Promise<Thread> {
    return this.send('GET', '/v1/analytics/{projectId}/assistant/threads/{threadId}', { projectId, threadId }, schemas.ThreadResponse, { call });
  }

  callerStats(projectId: string, query: CallerStatsQuery, call?: CallOptions): Promise<CallerStats> {
    return this.send('GET', '/v1/analytics/{projectId}/assistant/caller-stats', { projectId }, schemas.CallerStatsResponse, { query: { ...query }, call });
  }

  listViews(projectId: string, query: TrafficQuery, call?: CallOptions): Promise<ViewsPage> {
    return this.send('GET', '/v1/analytics/{projectId}/views', { projectId }, schemas.ViewsResponse, { query: { ...query }, call });
  }

  listVisitors(projectId: string, query: TrafficQuery, call?: CallOptions): Promise<VisitorsPage> {
    return this.send('GET', '/v1/analytics/{projectId}/visitors', { projectId }, schemas.VisitorsResponse, { query: { ...query }, call });
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

  /**
   * One call: sends, retries by the rules in the header, and returns the answer only once it fits
   * `schema`. `route` is the documented path with `{name}` placeholders filled from `params`.
   */
  private async send<S extends GenericSchema>(
    method: Method,
    route: string,
    params: Record<string, string>,
    schema: S,
    opts: {
      body?: unknown;
      query?: Query;
      call?: CallOptions | undefined;
      /** The documented rate-limit window: how long a 429 without Retry-After is waited out. */
      rateWindowMs?: number;
      /** Statuses the document says left nothing done, so even a POST may be sent again. */
      resendOn?: number[];
    } = {},
  ): Promise<InferOutput<S>> {
    const call = `${method} ${route}`;
    const url = this.url(fillRoute(route, params), opts.query);
    const { clock } = this.config;
    const signal = eitherSignal(this.config.signal, opts.call?.signal);
    // An aborted call sends nothing.
    if (signal?.aborted) throw signal.reason;
    const random = this.config.random ?? Math.random;
    const attempts = opts.call?.once ? 1 : this.retry.attempts;
    for (let attempt = 1; ; attempt++) {
      const lastTry = attempt >= attempts;
      let response: Answered;
      try {
        response = await this.once(method, url, opts.body, signal);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const failure = toNetworkError(error, 'the API');
        if (lastTry || !(method === 'GET' || neverReachedServer(failure))) throw failure;
        await this.pause(attempt, backoffDelay(attempt, this.retry.baseDelayMs, this.retry.maxDelayMs, random), briefReason(failure), signal);
        continue;
      }
      if (response.status >= 200 && response.status < 300) return this.accept(call, response, schema);
      // A 429 is sent again, a POST too: it says the request was refused before anything was done
      // (the limiter answers ahead of the handler), so a second send cannot act twice. What that
      // costs is bounded: Retry-After (or the documented window) up to maxRetryAfterMs, then exit 6.
      if (response.status === 429) {
        const retryAfter = parseRetryAfter(response.headers['retry-after'], clock.now());
        const delay = retryAfter ?? opts.rateWindowMs ?? backoffDelay(attempt, this.retry.baseDelayMs, this.retry.maxDelayMs, random);
        if (lastTry || delay > this.retry.maxRetryAfterMs) throw this.rateLimited(call, response, retryAfter);
        await this.pause(attempt, delay, 'rate limited (429)', signal);
        continue;
      }
      const error = this.toApiError(response);
      const resendable = method === 'GET' ? response.status >= 500 : (opts.resendOn ?? []).includes(response.status);
      if (resendable && !lastTry) {
        await this.pause(attempt, backoffDelay(attempt, this.retry.baseDelayMs, this.retry.maxDelayMs, random), briefReason(error), signal);
        continue;
      }
      throw error;
    }
  }

  /**
   * A 2xx is data only when it is JSON that fits the schema. Anything else (no body, `null`, a page
   * from a proxy, a missing or mistyped field, a body past the cap) is one ApiError naming the call
   * and the first problem; the body itself only in --debug, with the key scrubbed.
   */
  private accept<S extends GenericSchema>(call: string, response: Answered, schema: S): InferOutput<S> {
    const checked = ((): { ok: true; value: InferOutput<S> } | { ok: false; problem: string } => {
      if (response.overflowed) return { ok: false, problem: `the API sent more than ${MAX_BODY_BYTES / 1024 / 1024} MB` };
      if (response.text.trim() === '') return { ok: false, problem: `the body is empty (${response.status})` };
      if (response.json === undefined) {
        const kind = response.contentType.split(';')[0]?.trim() || 'not JSON';
        return { ok: false, problem: `the body is ${kind}, not JSON (a proxy or gateway page? check --base-url and your proxy settings)` };
      }
      if (response.json === null) return { ok: false, problem: 'the body is null' };
      return schemas.checkAnswer(schema, response.json);
    })();
    if (checked.ok) return checked.value;
    if (response.text !== '') this.config.debug?.(`unexpected body from ${call}: ${this.forDebug(response.text)}`);
    const message = response.overflowed
      ? `${checked.problem} in answer to ${call}, far more than any documented answer; check --base-url`
      : `unexpected answer from the API to ${call}: ${checked.problem}`;
    throw new ApiError(message, response.status, { exitCode: EXIT_CODES.api });
  }

  /** A body for a --debug line: the key scrubbed, presigned signatures redacted, cut short. */
  private forDebug(text: string): string {
    const scrubbed = scrubSecrets(text, [this.config.apiKey]).replace(SIGNATURE_VALUES, '$1REDACTED');
    return scrubbed.length > DEBUG_BODY_CHARS ? `${scrubbed.slice(0, DEBUG_BODY_CHARS)}... (${text.length} characters in all)` : scrubbed;
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
    const { text, overflowed } = await readCapped(res.body, ok ? MAX_BODY_BYTES : ERROR_BODY_BYTES, ok ? res.headers['content-length'] : undefined);
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

  private async pause(attempt: number, delayMs: number, reason: string, signal: AbortSignal | undefined): Promise<void> {
    this.config.debug?.(`retry ${attempt} in ${delayMs} ms: ${reason}`);
    this.config.onRetry?.({ attempt, delayMs, reason });
    await this.config.clock.sleep(delayMs, signal);
  }

  /**
   * What the server said about a failure: `{ error, details }` from a JSON body, or the words of a
   * plain-text or HTML one (the organization-wide 429 is plain text). Scrubbed of the key, flattened
   * to one line without control characters, and cut short.
   */
  private serverText(response: Answered): { message: string | undefined; details: string[] } {
    const tidy = (s: string) => oneLine(scrubSecrets(s, [this.config.apiKey]));
    if (response.json !== undefined) {
      const body = schemas.checkAnswer(schemas.ErrorBody, response.json);
      if (!body.ok) return { message: undefined, details: [] };
      const message = body.value.error === undefined ? undefined : tidy(body.value.error) || undefined;
      return { message, details: (body.value.details ?? []).map((d) => tidy(d.message)).filter(Boolean) };
    }
    const kind = response.contentType.split(';')[0]?.trim().toLowerCase();
    const words = isHtml(response) ? htmlText(response.text) : kind === 'text/plain' || kind === '' ? response.text : '';
    return { message: tidy(words) || undefined, details: [] };
  }

  private rateLimited(call: string, response: Answered, retryAfterMs: number | undefined): RateLimitError {
    const { message } = this.serverText(response);
    const now = this.config.clock.now();
    const limit = rateLimitNote(call);
    const when = retryAfterMs === undefined ? 'wait a while before trying again' : retryWhen(now + retryAfterMs, now);
    return new RateLimitError(
      `rate limited by the API${message ? ` (${message})` : ''}${limit ? `; ${limit}` : ''}; ${when}`,
      retryAfterMs === undefined ? undefined : now + retryAfterMs,
      message,
    );
  }

  private toApiError(response: Answered): ApiError {
    const { status } = response;
    const { message, details } = this.serverText(response);
    // An HTML page on a failure is most often a proxy's or gateway's, not the API's.
    if (response.json === undefined && (message === undefined || isHtml(response))) {
      const kind = response.contentType.split(';')[0]?.trim() || 'a body';
      return new ApiError(
        `the API answered ${status} with ${kind} instead of JSON (a proxy or gateway page?); check --base-url and your proxy settings`,
        status,
      );
    }
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

/** One answer as `once` read it. */
interface Answered {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** A 2xx body went past MAX_BODY_BYTES; the request was aborted. */
  overflowed: boolean;
  contentType: string;
  /** The parsed body; null for an empty one, undefined when it is not JSON. */
  json: unknown;
}

/** update, trigger and webhook share 10 requests per 10 s per organization; preview 5 per minute. */
const DEPLOY_WINDOW_MS = 10_000;
const PREVIEW_WINDOW_MS = 60_000;

/** How much of a failure's body is read: enough for any message, never a whole error page. */
const ERROR_BODY_BYTES = 64 * 1024;
/** How much of the server's own words goes into a message. */
const SERVER_TEXT_CHARS = 300;
const DEBUG_BODY_CHARS = 2000;
const SIGNATURE_VALUES = /((?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|Signature|X-Goog-Signature)=)[^&"\s]+/gi;

/** The client's signal and the call's, as one: either aborting cancels the call. */
function eitherSignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (!a || !b) return a ?? b;
  return AbortSignal.any([a, b]);
}

/** `/v2/agent/{projectId}/job` with each placeholder replaced by its encoded value. */
function fillRoute(route: string, params: Record<string, string>): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => {
    // A missing key is this module's mistake; a key given undefined is a caller's bad id (seg says so).
    if (!Object.hasOwn(params, name)) throw new Error(`no value for {${name}} in ${route}`);
    return seg(params[name]);
  });
}

/** Server words for a one-line message: control characters (escape sequences too) become spaces. */
function oneLine(text: string): string {
  // Line breaks and runs of space fold to one space; any other control character (an escape
  // sequence) is shown in caret notation like all server text (src/terminal-text.ts), not obeyed.
  const flat = forTerminal(text.replace(/\s+/g, ' ').trim());
  return flat.length > SERVER_TEXT_CHARS ? `${flat.slice(0, SERVER_TEXT_CHARS)}...` : flat;
}

function isHtml(response: Answered): boolean {
  return /^\s*text\/html\b/i.test(response.contentType);
}

/** The readable words of a small HTML page (a gateway's "429 Too Many Requests"). */
function htmlText(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const body = html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ');
  return decodeEntities(title?.trim() || body);
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[e] ?? '');
}

function seg(value: unknown): string {
  // Commands check ids first (src/ids.ts); this is the backstop, so no caller (a script's parsed JSON
  // included: `['..']`, 42, null) can address another path.
  if (!isSafeSegment(value)) throw new UsageError(`refusing to put ${describeValue(value)} into a URL path (an id must be a string with no "/", "\\", spaces or control characters, and not "." or ".."); nothing was sent`);
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
