// The error model. Commands throw these; only main.ts turns one into a message and an exit code.
// Every message says what went wrong and what to do next, on one line.

export const EXIT_CODES = {
  ok: 0,
  api: 1,
  usage: 2,
  auth: 3,
  jobFailed: 4,
  timeout: 5,
  rateLimited: 6,
  interrupted: 130,
  /** 128 + the signal's number, as a shell reports a process a signal ended. */
  hungUp: 129,
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

export class CliError extends Error {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** Bad flags or input: nothing was sent. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT_CODES.usage);
  }
}

/** Missing or unusable credentials or settings (no key, a malformed key, no project). */
export class ConfigError extends CliError {
  constructor(message: string) {
    super(message, EXIT_CODES.auth);
  }
}

/** The server answered with a non-2xx status. */
export class ApiError extends CliError {
  readonly status: number;
  readonly serverMessage: string | undefined;
  readonly details: string[];
  constructor(
    message: string,
    status: number,
    opts: { serverMessage?: string | undefined; details?: string[]; exitCode?: ExitCode } = {},
  ) {
    super(message, opts.exitCode ?? exitCodeForStatus(status));
    this.status = status;
    this.serverMessage = opts.serverMessage;
    this.details = opts.details ?? [];
  }
}

/** A 429 that outlasted the retries we allow ourselves. */
export class RateLimitError extends ApiError {
  /** When the server said a retry may succeed (epoch ms), if it said. */
  readonly retryAt: number | undefined;
  constructor(message: string, retryAt: number | undefined, serverMessage?: string) {
    super(message, 429, { serverMessage, exitCode: EXIT_CODES.rateLimited });
    this.retryAt = retryAt;
  }
}

/** The request never got an HTTP answer (refused, reset, timed out). */
export class NetworkError extends CliError {
  readonly code: string | undefined;
  constructor(message: string, code?: string, options?: { cause?: unknown }) {
    super(message, EXIT_CODES.api, options);
    this.code = code;
  }
}

/** The job reached its failure state (agent `failed`, export `failed`). */
export class JobFailedError extends CliError {
  constructor(message: string) {
    super(message, EXIT_CODES.jobFailed);
  }
}

/** `--timeout` ran out while waiting for a job. */
/** Exit 4 when the check found problems (cli.md); the problems themselves are already printed. */
export class SiteProblemsError extends CliError {
  constructor(message: string) {
    super(message, EXIT_CODES.jobFailed);
  }
}

export class WaitTimeoutError extends CliError {
  constructor(message: string) {
    super(message, EXIT_CODES.timeout);
  }
}

/** The signals that stop a command, each with the same clean-up and its own exit code. */
export const STOP_SIGNALS = { SIGINT: EXIT_CODES.interrupted, SIGTERM: EXIT_CODES.terminated, SIGHUP: EXIT_CODES.hungUp } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/**
 * Ctrl-C, SIGTERM (CI cancelling a job, `docker stop`) or SIGHUP (a dropped SSH session). The message
 * says what was left running and how to pick it up again.
 */
export class InterruptedError extends CliError {
  readonly signal: StopSignal;
  constructor(message = 'interrupted', signal: StopSignal = 'SIGINT') {
    super(message, STOP_SIGNALS[signal]);
    this.signal = signal;
  }
}

export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT_CODES.auth;
  if (status === 429) return EXIT_CODES.rateLimited;
  return EXIT_CODES.api;
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
  if (error instanceof ApiError) return error.status === 429 ? 'rate limited (429)' : `the API answered ${error.status}`;
  if (error instanceof NetworkError) return error.message.split(';')[0] ?? 'network error';
  return error instanceof Error ? error.message : String(error);
}
