// AdminClient: the library's face over the one API client the CLI uses (src/api/client.ts). It only
// supplies defaults a script should not have to choose (a dispatcher, the real clock, a user agent)
// and checks the settings it is handed; validation of answers, retries, rate-limit rules and
// redaction are ApiClient's own. Nothing here reads process.env or writes to a terminal: every
// setting is passed in.
import { Agent, type Dispatcher } from 'undici';
import { ApiClient, type CallOptions, type RetryNotice, type RetryPolicy } from '../api/client.js';
import { DEFAULT_TIMEOUTS, type Timeouts } from '../api/http.js';
import type { ExportJob, ExportJobStatus, SearchesPage, SearchesQuery, SearchTerm } from '../api/types.js';
import { systemClock, type Clock } from '../clock.js';
import { checkApiKey, checkBaseUrl, checkProjectId, DEFAULT_BASE_URL } from '../config.js';
import { pagedItems } from '../paging/iterate.js';
import { VERSION } from '../version.js';
import { pollUntil } from '../wait.js';
import { WaitTimeoutError } from '../errors.js';

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
  /** For tests: time and the jitter of backoffs. */
  clock?: Clock;
  random?: () => number;
}

export interface WaitOptions extends CallOptions {
  /** Give up after this long (default 30 minutes) with a WaitTimeoutError; the job keeps running. */
  timeoutMs?: number;
  /** First pause between looks (default 2 s); it grows toward 30 s. */
  intervalMs?: number;
  /** Every look at the job. */
  onProgress?: (job: ExportJob) => void;
}

// A Record, not a list: a state added to the schema's enum fails to compile here until it is placed.
const STILL_RUNNING: Record<ExportJobStatus, boolean> = { queued: true, running: true, completed: false, failed: false };

export class AdminClient extends ApiClient {
  /** The dispatcher this client made itself, closed by close(); one passed in belongs to the caller. */
  private readonly ownDispatcher: Dispatcher | undefined;
  private readonly clientClock: Clock;
  private readonly clientRandom: () => number;

  constructor(options: AdminClientOptions) {
    // Settings are checked before anything is sent, with the same words the CLI uses.
    const apiKey = checkApiKey(String(options.apiKey ?? ''), 'apiKey');
    const baseUrl = checkBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL, 'baseUrl');
    const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    const own = options.dispatcher
      ? undefined
      : new Agent({ connect: { timeout: timeouts.connectMs }, headersTimeout: timeouts.headersMs, bodyTimeout: timeouts.bodyMs });
    const clock = options.clock ?? systemClock;
    const random = options.random ?? Math.random;
    super({
      baseUrl,
      apiKey,
      userAgent: options.userAgent ?? `mint-admin/${VERSION} (library)`,
      dispatcher: options.dispatcher ?? own!,
      clock,
      random,
      signal: options.signal,
      retry: options.retry,
      timeouts,
      debug: options.debug,
      onRetry: options.onRetry,
    });
    this.ownDispatcher = own;
    this.clientClock = clock;
    this.clientRandom = random;
  }

  /**
   * Every search term of the project for the query, page after page (`searches list --all`): the
   * paging guards of the CLI apply, and a `break` stops the requests.
   */
  searchTerms(projectId: string, query: SearchesQuery = {}, call?: CallOptions): AsyncGenerator<SearchTerm, void, undefined> {
    checkProjectId(projectId, 'projectId');
    const { cursor, ...rest } = query;
    return pagedItems<SearchesPage, SearchTerm>(
      {
        style: 'cursor',
        itemsKey: 'searches',
        noun: 'search terms',
        fetch: (position) => this.listSearches(projectId, { ...rest, cursor: position.cursor }, call),
      },
      { cursor },
    );
  }

  /**
   * Polls an export until it is `completed` or `failed` (or reports a status this version does not
   * know), through the CLI's one polling loop: transient failures are waited out, a 404 is not.
   * Returns the last job seen; the caller decides what `failed` means for it.
   */
  waitForExport(jobId: string, options: WaitOptions = {}): Promise<ExportJob> {
    const timeoutMs = options.timeoutMs ?? 30 * 60_000;
    return pollUntil({
      fetch: () => this.getExport(jobId, options),
      // A status this version does not know ends the wait too: it cannot tell whether the job will finish.
      isDone: (job) => !Object.hasOwn(STILL_RUNNING, job.status) || !STILL_RUNNING[job.status as ExportJobStatus],
      onValue: (job) => options.onProgress?.(job),
      timeoutError: () => new WaitTimeoutError(`export ${jobId} did not finish within ${Math.round(timeoutMs / 1000)} s; it keeps running on the server`),
      intervalMs: options.intervalMs ?? 2000,
      timeoutMs,
      clock: this.clientClock,
      random: this.clientRandom,
      signal: options.signal,
    });
  }

  /** Closes the connections this client opened (not a dispatcher that was passed in). */
  async close(): Promise<void> {
    await this.ownDispatcher?.close();
  }
}
