// AdminClient: the library's face over the one API client the CLI uses (src/api/client.ts). It only
// supplies defaults a script should not have to choose (a dispatcher, the real clock, a user agent)
// and checks the settings it is handed; validation of answers, retries, rate-limit rules and
// redaction are ApiClient's own. Nothing here reads process.env or writes to a terminal: every
// setting is passed in.
import { Agent, type Dispatcher } from 'undici';
import { ApiClient, type CallOptions, type RetryNotice, type RetryPolicy } from '../api/client.js';
import { DEFAULT_TIMEOUTS, type Timeouts } from '../api/http.js';
import type { RequestLedger } from '../api/request-ledger.js';
import type {
  CallerStats,
  CallerStatsQuery,
  Conversation,
  ConversationsPage,
  ConversationsQuery,
  ExportJob,
  FeedbackByPagePage,
  FeedbackByPageQuery,
  FeedbackItem,
  FeedbackPage,
  FeedbackQuery,
  PageTraffic,
  SearchesPage,
  SearchesQuery,
  SearchTerm,
  TrafficQuery,
  ViewsPage,
  VisitorsPage,
} from '../api/types.js';
import { systemClock, type Clock } from '../clock.js';
import { checkApiKey, checkBaseUrl, checkProjectId } from '../config/validators.js';
import { DEFAULT_BASE_URL } from '../config/settings.js';
import {
  CONVERSATIONS,
  FEEDBACK,
  SEARCHES,
  startOf,
  VIEWS,
  VISITORS,
  walkOf,
  type PagedRoute,
} from '../paging/endpoints.js';
import { pagedItems } from '../paging/iterate.js';
import { checkAnalyticsQuery, checkQueryDates } from '../queries/analytics-query.js';
import { VERSION } from '../version.js';
import { UsageError } from '../errors.js';
import { rememberSettings } from './client-settings.js';
import { pollExportJob, type WaitOptions } from './export-wait.js';

export interface AdminClientOptions {
  /** An admin API key (`mint_...`). It is sent to `baseUrl` only and never appears in an error. */
  apiKey: string;
  /** Default https://api.mintlify.com. */
  baseUrl?: string;
  /** Cancels every call of this client; each call also takes its own. */
  signal?: AbortSignal;
  /**
   * The undici dispatcher for every request. Default: a plain connection pool owned by the client
   * (closed by `close()`). Pass undici's `EnvHttpProxyAgent` or `ProxyAgent` to go through a proxy.
   */
  dispatcher?: Dispatcher;
  retry?: Partial<RetryPolicy>;
  timeouts?: Partial<Timeouts>;
  /** Default `mint-admin/<version> (library)`. */
  userAgent?: string;
  /** Told before each wait between tries. */
  onRetry?: (notice: RetryNotice) => void;
  /** Request lines, already redacted (the CLI's --debug). */
  debug?: (line: string) => void;
  /**
   * Told of every analytics request and 429 Retry-After, to count the organization's shared 100 per
   * hour across processes (the CLI keeps one on disk: its analytics commands and `analytics sync`
   * read it). Default: none.
   */
  requestLedger?: RequestLedger;
  /** For tests: time and the jitter of backoffs. */
  clock?: Clock;
  random?: () => number;
}

export class AdminClient extends ApiClient {
  /** The dispatcher this client made itself, closed by close(); one passed in belongs to the caller. */
  private readonly ownDispatcher: Dispatcher | undefined;
  private readonly clientClock: Clock;
  private readonly clientRandom: () => number;
  /** The client's own signal, which also ends every iterator at once (not only its requests). */
  private readonly clientSignal: AbortSignal;
  /** Aborted by close(), so a call made afterwards says so instead of failing on a closed pool. */
  private readonly closing: AbortController;

  constructor(options: AdminClientOptions) {
    // Settings are checked before anything is sent, with the same words the CLI uses.
    const apiKey = checkApiKey(String(options.apiKey ?? ''), 'apiKey');
    const baseUrl = checkBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL, 'baseUrl');
    const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    const own = options.dispatcher
      ? undefined
      : new Agent({
          connect: { timeout: timeouts.connectMs },
          headersTimeout: timeouts.headersMs,
          bodyTimeout: timeouts.bodyMs,
        });
    const clock = options.clock ?? systemClock;
    const random = options.random ?? Math.random;
    const closing = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, closing.signal]) : closing.signal;
    super({
      baseUrl,
      apiKey,
      userAgent: options.userAgent ?? `mint-admin/${VERSION} (library)`,
      dispatcher: options.dispatcher ?? own!,
      clock,
      random,
      signal,
      retry: options.retry,
      timeouts,
      debug: options.debug,
      onRetry: options.onRetry,
      requestLedger: options.requestLedger,
    });
    this.ownDispatcher = own;
    this.clientClock = clock;
    this.clientRandom = random;
    this.clientSignal = signal;
    this.closing = closing;
    rememberSettings(this, { baseUrl: baseUrl.replace(/\/+$/, ''), clock, random });
  }

  // The iterators: every item of a paged endpoint, page after page (the CLI's `--all`), each page
  // fetched when the loop needs it. The CLI's paging guards apply (a repeated cursor or page, an
  // empty page claiming more, more than the totals allow, is an ApiError rather than a loop), a `break` stops the requests, an
  // abort (the call's signal or the client's) ends the loop at once with the signal's reason, and the
  // query is checked before anything is sent. Without a `limit` each page is the largest the
  // endpoint serves: all analytics endpoints share 100 requests per organization an hour.

  /** Every search term for the query, most searched first (`analytics searches --all`). */
  searchTerms(
    projectId: string,
    query: SearchesQuery = {},
    call?: CallOptions,
  ): AsyncGenerator<SearchTerm, void, undefined> {
    return this.walk(SEARCHES, projectId, query, call);
  }

  /** Every feedback entry for the query, newest first (`analytics feedback --all`). */
  feedbackEntries(
    projectId: string,
    query: FeedbackQuery = {},
    call?: CallOptions,
  ): AsyncGenerator<FeedbackItem, void, undefined> {
    return this.walk(FEEDBACK, projectId, query, call);
  }

  /** Every assistant conversation for the query, newest first (`analytics conversations --all`). */
  conversations(
    projectId: string,
    query: ConversationsQuery = {},
    call?: CallOptions,
  ): AsyncGenerator<Conversation, void, undefined> {
    return this.walk(CONVERSATIONS, projectId, query, call);
  }

  /** Views of every page for the query, most viewed first (`analytics views --all`). */
  pageViews(
    projectId: string,
    query: TrafficQuery = {},
    call?: CallOptions,
  ): AsyncGenerator<PageTraffic, void, undefined> {
    return this.walk(VIEWS, projectId, query, call);
  }

  /** Unique visitors of every page for the query, most visited first (`analytics visitors --all`). */
  pageVisitors(
    projectId: string,
    query: TrafficQuery = {},
    call?: CallOptions,
  ): AsyncGenerator<PageTraffic, void, undefined> {
    return this.walk(VISITORS, projectId, query, call);
  }

  private walk<
    Page extends object,
    Item,
    Query extends { cursor?: string | undefined; offset?: number | undefined; limit?: number | undefined },
  >(
    route: PagedRoute<Page, Item, Query>,
    projectId: string,
    query: Query,
    call: CallOptions | undefined,
  ): AsyncGenerator<Item, void, undefined> {
    // Checked now, not at the first next(): a bad query is an error where the iterator is made.
    checkProjectId(projectId, 'projectId');
    // Read once, so a duration before now (`7d`) is one instant for every page of the walk.
    const checked = checkAnalyticsQuery(route, query, this.clientClock.now());
    const signals = [this.clientSignal, call?.signal].filter((s): s is AbortSignal => s !== undefined);
    return pagedItems(
      walkOf(route, this, projectId, checked, call),
      startOf(route, checked),
      signals.length > 1 ? AbortSignal.any(signals) : signals[0],
    );
  }

  // The one-page calls: the same checks as the iterators, before anything is sent (a typo is a
  // UsageError, not a 400 that spent one of the organization's 100 requests an hour).

  override listSearches(projectId: string, query: SearchesQuery, call?: CallOptions): Promise<SearchesPage> {
    return this.checked(() =>
      super.listSearches(projectId, checkAnalyticsQuery(SEARCHES, query, this.clientClock.now()), call),
    );
  }

  override listFeedback(projectId: string, query: FeedbackQuery, call?: CallOptions): Promise<FeedbackPage> {
    return this.checked(() =>
      super.listFeedback(projectId, checkAnalyticsQuery(FEEDBACK, query, this.clientClock.now()), call),
    );
  }

  override listConversations(
    projectId: string,
    query: ConversationsQuery,
    call?: CallOptions,
  ): Promise<ConversationsPage> {
    return this.checked(() =>
      super.listConversations(projectId, checkAnalyticsQuery(CONVERSATIONS, query, this.clientClock.now()), call),
    );
  }

  override listViews(projectId: string, query: TrafficQuery, call?: CallOptions): Promise<ViewsPage> {
    return this.checked(() =>
      super.listViews(projectId, checkAnalyticsQuery(VIEWS, query, this.clientClock.now()), call),
    );
  }

  override listVisitors(projectId: string, query: TrafficQuery, call?: CallOptions): Promise<VisitorsPage> {
    return this.checked(() =>
      super.listVisitors(projectId, checkAnalyticsQuery(VISITORS, query, this.clientClock.now()), call),
    );
  }

  override feedbackByPage(
    projectId: string,
    query: FeedbackByPageQuery,
    call?: CallOptions,
  ): Promise<FeedbackByPagePage> {
    return this.checked(() => super.feedbackByPage(projectId, checkQueryDates(query, this.clientClock.now()), call));
  }

  override callerStats(projectId: string, query: CallerStatsQuery, call?: CallOptions): Promise<CallerStats> {
    return this.checked(() => super.callerStats(projectId, checkQueryDates(query, this.clientClock.now()), call));
  }

  /** A check's UsageError as a rejected promise, as the call's other failures are. */
  private checked<T>(call: () => Promise<T>): Promise<T> {
    try {
      return call();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Polls a jobs-flow export (`startExport`, a domain) until it is `completed` or `failed` (or reports
   * a status this version does not know), through the CLI's one polling loop: transient failures are
   * waited out, a 404 is not. Returns the last job seen; the caller decides what `failed` means for it.
   * A project-flow job is not on this route: waitForStaticExport follows either flow.
   */
  async waitForExport(jobId: string, options: WaitOptions = {}): Promise<ExportJob> {
    return pollExportJob((id, call) => this.getExport(id, call), jobId, options, this.clientClock, this.clientRandom);
  }

  /**
   * Closes the connections this client opened (not a dispatcher that was passed in). A call, iterator
   * or wait of this client still running ends, and one made afterwards fails at once with a
   * UsageError that says the client is closed; nothing is sent.
   */
  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort(new UsageError('this AdminClient is closed: make a new one to call the API again'));
    await this.ownDispatcher?.close();
  }
}
