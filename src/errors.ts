// The error model, for programs: each class says what kind of failure it is, and carries what a
// program branches on (an HTTP status, a code, the call it answers, when to come back). Messages say
// what went wrong in plain words, on one line. They carry no exit codes and no advice about the CLI's
// flags or commands: the CLI maps each class to its exit code and its hint in one table
// (src/cli/cli-errors.ts), and only run.ts prints.

import { networkProblem } from './network-problem.js';

/** What every error class takes besides its message and its own data. */
export interface FailureOptions {
  cause?: unknown;
  /**
   * What to do about it ("run the command again"): the message is `<what went wrong>; <nextStep>`, and
   * a face that says its own next step takes `withoutNextStep` instead.
   */
  nextStep?: string | undefined;
  /**
   * The message already says what to do next, in the words of the face that made it (a CLI command
   * that knows what was being done): that face adds no advice of its own to it.
   */
  nextStepSaid?: boolean | undefined;
}

/** Every error the library throws on purpose. `MintAdminError` in the public exports. */
export class MintAdminError extends Error {
  /** What went wrong without the message's next step; undefined when the message has none. */
  readonly withoutNextStep: string | undefined;
  /** The next step the message ends with (FailureOptions.nextStep); undefined when it has none. */
  readonly nextStep: string | undefined;
  /** The message already says what to do next (FailureOptions.nextStepSaid). */
  readonly nextStepSaid: boolean;
  /** `problem` is what went wrong; with `options.nextStep` the message goes on to say what to do. */
  constructor(problem: string, options: FailureOptions = {}) {
    const { nextStep, cause } = options;
    super(nextStep === undefined ? problem : `${problem}; ${nextStep}`, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.withoutNextStep = nextStep === undefined ? undefined : problem;
    this.nextStep = nextStep;
    this.nextStepSaid = options.nextStepSaid ?? false;
  }
}

/** The engine's next step after a failure that may pass: a face with a better one says its own. */
export const RUN_AGAIN = 'run the command again';

/**
 * @deprecated The old name of MintAdminError, from when errors carried the CLI's exit codes; kept so
 * `instanceof CliError` and `CliError` types still compile.
 */
export const CliError = MintAdminError;
/** @deprecated See the value of the same name. */
export type CliError = MintAdminError;

/** Bad flags or input: nothing was sent. */
export class UsageError extends MintAdminError {}

/**
 * Why a download's target (or its archive path) was refused before anything was sent:
 * `not-empty` a target with contents and replacing not allowed; `protected` a directory never
 * replaced even when replacing is allowed (see `protectedAs`); `dangling-link` a symbolic link to
 * nothing, outside the link layout; `link-over-directory` the link layout asked for over a non-empty
 * directory; `mount-point` a mount point, which no rename can replace; `archive-inside` the archive
 * path inside what is replaced; `archive-is-directory` the archive path names a directory.
 */
export type TargetRefusal =
  | 'not-empty'
  | 'protected'
  | 'dangling-link'
  | 'link-over-directory'
  | 'mount-point'
  | 'archive-inside'
  | 'archive-is-directory';

/** What a `protected` target is: the filesystem root, the home directory, the working directory or one of its parents. */
export type ProtectedDirectory = 'filesystem-root' | 'home' | 'working-directory' | 'working-directory-parent';

/** Each protected directory in words, for messages. */
export const PROTECTED_NAMES: Record<ProtectedDirectory, string> = {
  'filesystem-root': 'the filesystem root',
  home: 'your home directory',
  'working-directory': 'the current directory',
  'working-directory-parent': 'a parent of the current directory',
};

/** A download's target or archive path refused before the first request: nothing was sent or changed. */
export class TargetRefusedError extends UsageError {
  readonly reason: TargetRefusal;
  /** The target as given. */
  readonly target: string;
  /** The archive path as given, for the `archive-*` reasons. */
  readonly archivePath: string | undefined;
  /** For `protected`: which directory it is. */
  readonly protectedAs: ProtectedDirectory | undefined;
  constructor(
    message: string,
    reason: TargetRefusal,
    target: string,
    more: { archivePath?: string | undefined; protectedAs?: ProtectedDirectory | undefined } = {},
  ) {
    super(message);
    this.reason = reason;
    this.target = target;
    this.archivePath = more.archivePath;
    this.protectedAs = more.protectedAs;
  }
}

/** A given key's fault: `wrong-type` another kind of Mintlify key (`keyType`: "an assistant API"), masked; `malformed`. */
export type KeyFault = { fault: 'wrong-type'; keyType: string; masked: string } | { fault: 'malformed' };

/** Missing or unusable credentials or settings (no key, a malformed key, no project). */
export class ConfigError extends MintAdminError {
  /**
   * The setting at fault, when it is one (`api-key`, `project-id`), so a face that sets it some other
   * way (the action's inputs) can say which of its own to fix.
   */
  readonly setting: 'api-key' | 'project-id' | undefined;
  /** For a key that was given but is unusable: what is wrong with it, for a face to say where it came from in its own terms. */
  readonly keyFault: KeyFault | undefined;
  constructor(message: string, setting?: 'api-key' | 'project-id', keyFault?: KeyFault) {
    super(message);
    this.setting = setting;
    this.keyFault = keyFault;
  }
}

/**
 * What kind of non-2xx (or unusable 2xx) answer an ApiError is, for a program to branch on:
 * `unauthorized` 401, `forbidden` 403, `not_found` 404, `rate_limited` 429, `server_error` 5xx,
 * `rejected` any other 4xx; `not_json` a body that is not JSON (a proxy's or gateway's page, most
 * often), `too_large` a 2xx body past the size cap, `unexpected_answer` a 2xx that does not fit the
 * API's documents.
 */
export type ApiErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'server_error'
  | 'rejected'
  | 'not_json'
  | 'too_large'
  | 'unexpected_answer';

export interface ApiErrorDetails {
  serverMessage?: string | undefined;
  details?: string[];
  /** Derived from the status when not given. */
  code?: ApiErrorCode | undefined;
  method?: string | undefined;
  /** The documented route of the call, with its `{placeholders}`: `GET /v1/static-export/jobs/{jobId}`'s path. */
  route?: string | undefined;
  /** The body was the API's own JSON error (`{"error": "..."}`), not a proxy's or another server's page. */
  fromApi?: boolean | undefined;
}

/** An ApiError's data about its call, to make another error about the same answer. */
export function answerOf(error: ApiError): ApiErrorDetails {
  const { serverMessage, details, code, method, route, fromApi } = error;
  return { serverMessage, details, code, method, route, fromApi };
}

/** The server answered with a non-2xx status, or with a 2xx the library cannot use. */
export class ApiError extends MintAdminError {
  readonly status: number;
  readonly code: ApiErrorCode;
  /** What the server said about it, scrubbed of the key and flattened to one line. */
  readonly serverMessage: string | undefined;
  readonly details: string[];
  readonly method: string | undefined;
  readonly route: string | undefined;
  /** The body was the API's own JSON error: only then does a 404 say the request got past authentication. */
  readonly fromApi: boolean;
  constructor(message: string, status: number, opts: ApiErrorDetails = {}, options?: FailureOptions) {
    super(message, options);
    this.status = status;
    this.code = opts.code ?? apiErrorCodeForStatus(status);
    this.serverMessage = opts.serverMessage;
    this.details = opts.details ?? [];
    this.method = opts.method;
    this.route = opts.route;
    this.fromApi = opts.fromApi ?? false;
  }
}

/** A 429 that outlasted the retries we allow ourselves. */
export class RateLimitError extends ApiError {
  /** When the server said a retry may succeed (epoch ms), if it said. */
  readonly retryAt: number | undefined;
  constructor(
    message: string,
    retryAt: number | undefined,
    serverMessage?: string,
    call: Pick<ApiErrorDetails, 'method' | 'route'> = {},
  ) {
    super(message, 429, { serverMessage, code: 'rate_limited', ...call });
    this.retryAt = retryAt;
  }
}

/**
 * The bundle storage (not the Admin API) refused a download or gave up answering. Its status is the
 * storage's: a 403 there is an expired link, not a refused admin key.
 */
export class BundleStorageError extends ApiError {}

/** The request never got an HTTP answer (refused, reset, timed out). */
export class NetworkError extends MintAdminError {
  /** The system's or undici's code (`ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`), when there is one. */
  readonly code: string | undefined;
  /** What the request was talking to ("the API", "the bundle storage"), when the thrower said. */
  readonly target: string | undefined;
  constructor(message: string, code?: string, options?: FailureOptions & { target?: string | undefined }) {
    super(message, options);
    this.code = code;
    this.target = options?.target;
  }
}

/** The job reached its failure state (agent `failed`, export `failed`). */
export class JobFailedError extends MintAdminError {
  constructor(message: string) {
    super(message);
  }
}

/** The site check found problems; the problems themselves are already printed. */
export class SiteProblemsError extends MintAdminError {
  constructor(message: string) {
    super(message);
  }
}

/** The deadline ran out while waiting for a job; the job keeps running. */
export class WaitTimeoutError extends MintAdminError {
  constructor(message: string) {
    super(message);
  }
}

/** The archive breaks a rule of the extraction guard; names the entry. */
export class ArchiveRefusedError extends MintAdminError {
  /** The size cap in bytes (`maxBytes`) the extraction would have gone past, when that is why it was refused. */
  readonly sizeLimit: number | undefined;
  /**
   * The rule broken, when the message goes on to say what to do about it (the size cap's "allow a
   * larger size"): a face that names its own way to allow more words it from this.
   */
  readonly brokenRule: string | undefined;
  constructor(rule: string, more: { sizeLimit?: number | undefined; nextStep?: string | undefined } = {}) {
    super(`the bundle was refused, nothing was installed: ${rule}`, { nextStep: more.nextStep });
    this.sizeLimit = more.sizeLimit;
    this.brokenRule = more.nextStep === undefined ? undefined : rule;
  }
}

/** The signals that stop a command, each with the same clean-up. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/**
 * Ctrl-C, SIGTERM (CI cancelling a job, `docker stop`) or SIGHUP (a dropped SSH session). The message
 * says what was left running and how to pick it up again.
 */
export class InterruptedError extends MintAdminError {
  readonly signal: StopSignal;
  constructor(message = 'interrupted', signal: StopSignal = 'SIGINT', options?: FailureOptions) {
    super(message, options);
    this.signal = signal;
  }
}

export function apiErrorCodeForStatus(status: number): ApiErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  if (status < 300) return 'unexpected_answer';
  return 'rejected';
}

/**
 * Errors worth another try when nothing depends on the request being sent only once: a dropped
 * connection, a 5xx, a 429. A 4xx other than 429 is an answer, not a fault.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (error instanceof ApiError) return error.status === 429 || error.status >= 500;
  return false;
}

/** A few words for a transient failure, for "…; retrying" notes (the full message is for final errors). */
export function briefReason(error: unknown): string {
  if (error instanceof ApiError)
    return error.status === 429 ? 'rate limited (429)' : `the API answered ${error.status}`;
  if (error instanceof NetworkError)
    return error.target === undefined ? error.message : networkProblem(error.code, error.target);
  return error instanceof Error ? error.message : String(error);
}
