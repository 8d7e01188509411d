// The CLI's side of the error model: the library's errors say what went wrong (src/errors.ts); this
// table says, for each class, which exit code the CLI ends with and what it advises a person to do
// with its flags and commands. run.ts's report is its reader; an error a command made with its own
// next step (nextStepSaid, errors.ts) already says what to do, so the table's advice is not added.
import { API_KEYS_PAGE } from '../config/settings.js';
import {
  ApiError,
  ArchiveRefusedError,
  BundleStorageError,
  ConfigError,
  InterruptedError,
  JobFailedError,
  MintAdminError,
  NetworkError,
  RateLimitError,
  SiteProblemsError,
  TargetRefusedError,
  UsageError,
  WaitTimeoutError,
  type StopSignal,
} from '../errors.js';
import {
  ExportAlreadyRunningError,
  ExportJobNotFoundError,
  ExportMayHaveStartedError,
  ExportNotEnabledError,
  FlowInputMismatchError,
  FlowNeedsDomainError,
  FlowNeedsProjectError,
  NotFinishedError,
  UnknownExportStatusError,
} from '../export-flows/errors.js';
import { ListOutputError } from '../list-export/errors.js';
import {
  DatabaseBusyError,
  DatabaseWriteError,
  DuckDbMissingError,
  IncompatibleDatabaseError,
} from '../analytics-store/errors.js';
import { InvalidQueryError, NoDatabaseError, QueryRefusedError } from '../analytics-store/read-errors.js';
import {
  AgentJobFailedError,
  AgentJobTimeoutError,
  BuildFailedError,
  BuildTimeoutError,
  UnknownStatusError,
} from '../waits/errors.js';

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

/** Each stop signal's exit code; the clean-up is the same for all. */
export const STOP_SIGNALS: Record<StopSignal, ExitCode> = {
  SIGINT: EXIT_CODES.interrupted,
  SIGTERM: EXIT_CODES.terminated,
  SIGHUP: EXIT_CODES.hungUp,
};

/**
 * An engine error in a command's own words, with the command's next step: the command knows what was
 * being done (a download of an export that is complete points at downloading it, never at a new
 * export) and writes its sentence from the failure's data. The exit code is the failure's.
 */
export class CommandSaidError extends MintAdminError {
  constructor(
    readonly failure: MintAdminError,
    sentence: string,
  ) {
    super(sentence, { cause: failure, nextStepSaid: true });
  }
}

interface Row {
  exitCode: (error: never) => ExitCode;
  /** Appended to the message as it stands, separator included ("; check ..."). */
  advice?: (error: never) => string | undefined;
}

type ErrorClass = abstract new (...args: never[]) => MintAdminError;

function row<E extends MintAdminError>(
  _class: abstract new (...args: never[]) => E,
  r: { exitCode: (error: E) => ExitCode; advice?: (error: E) => string | undefined },
): [ErrorClass, Row] {
  return [_class, r as Row];
}

const always = (code: ExitCode) => () => code;

/**
 * Every class of src/errors.ts and of the library's exports has its own row (test/cli-errors.test.ts);
 * a subclass elsewhere takes its parent's.
 */
export const ERROR_TABLE: ReadonlyMap<ErrorClass, Row> = new Map([
  row(MintAdminError, { exitCode: always(EXIT_CODES.api) }),
  row(UsageError, { exitCode: always(EXIT_CODES.usage) }),
  row(ConfigError, { exitCode: always(EXIT_CODES.auth) }),
  row(ApiError, { exitCode: apiExitCode, advice: apiAdvice }),
  row(RateLimitError, { exitCode: always(EXIT_CODES.rateLimited) }),
  // The storage's 403 is an expired link and its 429 not the API's budget: neither is about the key.
  row(BundleStorageError, { exitCode: always(EXIT_CODES.api) }),
  row(NetworkError, { exitCode: always(EXIT_CODES.api) }),
  row(JobFailedError, { exitCode: always(EXIT_CODES.jobFailed) }),
  // cli.md: exit 4 when the site check found problems.
  row(SiteProblemsError, { exitCode: always(EXIT_CODES.jobFailed) }),
  row(WaitTimeoutError, { exitCode: always(EXIT_CODES.timeout) }),
  row(ArchiveRefusedError, { exitCode: always(EXIT_CODES.api) }),
  // The download engine's words name no flag: the export commands word it with theirs (withFlags in
  // commands/export/target-flags.ts).
  row(TargetRefusedError, { exitCode: always(EXIT_CODES.usage) }),
  row(InterruptedError, { exitCode: (error) => STOP_SIGNALS[error.signal] }),
  // The export engine's (src/export-flows/errors.ts): the CLI words them with the command to run
  // next (commands/export/api.ts), so the API's advice (a 404's "check the id") is not added.
  row(NotFinishedError, { exitCode: always(EXIT_CODES.api) }),
  row(ExportJobNotFoundError, { exitCode: always(EXIT_CODES.api) }),
  row(ExportAlreadyRunningError, { exitCode: always(EXIT_CODES.api) }),
  row(UnknownExportStatusError, { exitCode: always(EXIT_CODES.api) }),
  // A start's unreadable 2xx: the CLI words the answer with its advice (commands/export/api.ts).
  row(ExportMayHaveStartedError, { exitCode: always(EXIT_CODES.api) }),
  // The plan, or a key of another organization: the key's exit code, as for any 403.
  row(ExportNotEnabledError, { exitCode: always(EXIT_CODES.auth) }),
  row(FlowInputMismatchError, { exitCode: always(EXIT_CODES.usage) }),
  row(FlowNeedsDomainError, { exitCode: always(EXIT_CODES.usage) }),
  row(FlowNeedsProjectError, { exitCode: always(EXIT_CODES.auth) }),
  // The waits' (src/waits/errors.ts).
  row(AgentJobFailedError, { exitCode: always(EXIT_CODES.jobFailed) }),
  row(BuildFailedError, { exitCode: always(EXIT_CODES.jobFailed) }),
  row(AgentJobTimeoutError, { exitCode: always(EXIT_CODES.timeout) }),
  row(BuildTimeoutError, { exitCode: always(EXIT_CODES.timeout) }),
  row(UnknownStatusError, { exitCode: always(EXIT_CODES.api) }),
  // The list export's (src/list-export/errors.ts): a full disk under --output.
  row(ListOutputError, { exitCode: always(EXIT_CODES.api) }),
  // The analytics store's (src/analytics-store/errors.ts): the optional package missing, the database held.
  row(DuckDbMissingError, { exitCode: always(EXIT_CODES.api) }),
  row(DatabaseBusyError, { exitCode: always(EXIT_CODES.api) }),
  row(DatabaseWriteError, { exitCode: always(EXIT_CODES.api) }),
  // The --db given is the wrong file: the caller's input, nothing read or written.
  row(IncompatibleDatabaseError, { exitCode: always(EXIT_CODES.usage) }),
  // Reading it (src/analytics-store/read-errors.ts): no database yet, a refused or unreadable query; nothing ran.
  row(NoDatabaseError, { exitCode: always(EXIT_CODES.usage) }),
  row(QueryRefusedError, { exitCode: always(EXIT_CODES.usage) }),
  row(InvalidQueryError, { exitCode: always(EXIT_CODES.usage) }),
  // The CLI's own (above): the failure it words decides.
  row(CommandSaidError, { exitCode: (error) => exitCodeOf(error.failure) }),
]);

function apiExitCode(error: ApiError): ExitCode {
  if (error.status === 401 || error.status === 403) return EXIT_CODES.auth;
  if (error.status === 429) return EXIT_CODES.rateLimited;
  return EXIT_CODES.api;
}

function apiAdvice(error: ApiError): string | undefined {
  switch (error.code) {
    case 'unauthorized':
      return `; check it with \`mint-admin config list\` or create a new one at ${API_KEYS_PAGE}`;
    case 'not_found':
      return '; check the id and --project';
    case 'not_json':
      // A 2xx names the call and its problem; the advice sits in the problem's parenthesis.
      return error.status < 300
        ? ' (a proxy or gateway page? check --base-url and your proxy settings)'
        : '; check --base-url and your proxy settings';
    case 'too_large':
      return '; check --base-url';
    default:
      return undefined;
  }
}

function rowOf(error: MintAdminError): Row | undefined {
  for (
    let proto: object | null = Object.getPrototypeOf(error) as object | null;
    proto !== null;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    const found = ERROR_TABLE.get((proto as { constructor: ErrorClass }).constructor);
    if (found) return found;
  }
  return undefined;
}

/** The exit code the CLI ends with for `error`: 1 for anything it did not throw on purpose. */
export function exitCodeOf(error: unknown): ExitCode {
  if (!(error instanceof MintAdminError)) return EXIT_CODES.api;
  return (rowOf(error)?.exitCode as ((e: MintAdminError) => ExitCode) | undefined)?.(error) ?? EXIT_CODES.api;
}

/** What the CLI prints for `error` (without "error: "): its message and the table's advice. */
export function forPeople(error: Error): string {
  if (!(error instanceof MintAdminError) || error.nextStepSaid) return error.message;
  const advice = (rowOf(error)?.advice as ((e: MintAdminError) => string | undefined) | undefined)?.(error);
  return advice === undefined ? error.message : `${error.message}${advice}`;
}
