// The CLI's one table from error class to exit code and advice (src/cli/cli-errors.ts): every class of the
// error model has its own row, so a class added without one fails here rather than exiting 1 by
// inheritance; the advice the library leaves out is what the CLI prints after the message.
import { describe, expect, it } from 'vitest';
import { CommandSaidError, ERROR_TABLE, exitCodeOf, forPeople } from '../src/cli/cli-errors.js';
import * as errors from '../src/errors.js';
import * as library from '../src/index.js';

const {
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
  UsageError,
  WaitTimeoutError,
} = errors;

/** A subclass from outside the error model, like a command's own 409 "not finished yet". */
class NotFinishedYet extends ApiError {}

/** Every class of the error model: what src/errors.ts and the library's entry export that is an Error. */
const errorClasses = [...new Set<unknown>([...Object.values(errors), ...Object.values(library)])].filter(
  (value): value is abstract new (...args: never[]) => errors.MintAdminError =>
    typeof value === 'function' && value.prototype instanceof Error,
);

describe('the table', () => {
  it('has found the classes (a guard against a test that checks nothing)', () => {
    expect(errorClasses.map((c) => c.name).sort()).toEqual(
      [
        'AgentJobFailedError',
        'AgentJobTimeoutError',
        'ApiError',
        'ArchiveRefusedError',
        'BuildFailedError',
        'BuildTimeoutError',
        'BundleStorageError',
        'ConfigError',
        'ExportAlreadyRunningError',
        'ExportJobNotFoundError',
        'ExportMayHaveStartedError',
        'ExportNotEnabledError',
        'FlowInputMismatchError',
        'FlowNeedsDomainError',
        'FlowNeedsProjectError',
        'InterruptedError',
        'JobFailedError',
        'MintAdminError',
        'NetworkError',
        'NotFinishedError',
        'RateLimitError',
        'SiteProblemsError',
        'TargetRefusedError',
        'UnknownExportStatusError',
        'UnknownStatusError',
        'UsageError',
        'WaitTimeoutError',
      ].sort(),
    );
  });

  it.each(errorClasses.map((c) => [c.name, c] as const))('%s has a row of its own', (_name, errorClass) => {
    expect(ERROR_TABLE.has(errorClass)).toBe(true);
  });
});

describe('exit codes (cli.md)', () => {
  it.each<[string, Error, number]>([
    ['a usage error', new UsageError('x'), 2],
    ['a refused download target', new errors.TargetRefusedError('x', 'not-empty', 'site'), 2],
    ['a config error', new ConfigError('x'), 3],
    ['a 400', new ApiError('x', 400), 1],
    ['a 401', new ApiError('x', 401), 3],
    ['a 403', new ApiError('x', 403), 3],
    ['a 404', new ApiError('x', 404), 1],
    ['a 500', new ApiError('x', 500), 1],
    ['a 2xx that does not fit', new ApiError('x', 200), 1],
    ['a rate limit', new RateLimitError('x', undefined), 6],
    ['the bundle storage refusing a link (403)', new BundleStorageError('x', 403), 1],
    ['the bundle storage rate limiting (429)', new BundleStorageError('x', 429), 1],
    ['no answer', new NetworkError('x', 'ECONNRESET'), 1],
    ['a failed job', new JobFailedError('x'), 4],
    ['problems in the site', new SiteProblemsError('x'), 4],
    ['a wait that ran out', new WaitTimeoutError('x'), 5],
    ['a refused archive', new ArchiveRefusedError('x'), 1],
    ['Ctrl-C', new InterruptedError('x', 'SIGINT'), 130],
    ['SIGTERM', new InterruptedError('x', 'SIGTERM'), 143],
    ['SIGHUP', new InterruptedError('x', 'SIGHUP'), 129],
    ['any other failure of ours', new MintAdminError('x'), 1],
    ["a subclass without a row of its own takes its parent's (a 409 not finished)", new NotFinishedYet('x', 409), 1],
    [
      'a 401 a command worded with its next step keeps its exit code',
      new ApiError('y', 401, {}, { nextStepSaid: true }),
      3,
    ],
    [
      'a failure a command said in its own words: the exit code of what failed',
      new CommandSaidError(new RateLimitError('x', undefined), 'y'),
      6,
    ],
    ['an error that is not ours', new TypeError('x'), 1],
  ])('%s: exit %i', (_name, error, code) => {
    expect(exitCodeOf(error)).toBe(code);
  });
});

describe("advice the CLI adds to the library's words", () => {
  const apiError = (status: number, code?: errors.ApiErrorCode) => new ApiError('what went wrong', status, { code });
  it.each<[string, Error, string]>([
    [
      'a refused key: how to check it',
      apiError(401),
      'what went wrong; check it with `mint-admin config list` or create a new one at https://app.mintlify.com/settings/organization/api-keys',
    ],
    ['a 404: the id and --project', apiError(404), 'what went wrong; check the id and --project'],
    [
      'a proxy page on a failure',
      apiError(502, 'not_json'),
      'what went wrong; check --base-url and your proxy settings',
    ],
    [
      'a proxy page on a 2xx',
      apiError(200, 'not_json'),
      'what went wrong (a proxy or gateway page? check --base-url and your proxy settings)',
    ],
    ['a body past the cap', apiError(200, 'too_large'), 'what went wrong; check --base-url'],
    ['a 403: nothing to add', apiError(403), 'what went wrong'],
    ['a 500: nothing to add', apiError(500), 'what went wrong'],
    ['a rate limit: nothing to add', new RateLimitError('what went wrong', undefined), 'what went wrong'],
    [
      'a 404 a command worded with its next step: the caller already said what to do',
      new ApiError('no job se_1; check the job id', 404, {}, { nextStepSaid: true }),
      'no job se_1; check the job id',
    ],
    [
      'a failure a command said in its own words: nothing added',
      new CommandSaidError(apiError(404), 'no job se_1; download it again'),
      'no job se_1; download it again',
    ],
    ['an error that is not ours', new Error('what went wrong'), 'what went wrong'],
  ])('%s', (_name, error, printed) => {
    expect(forPeople(error)).toBe(printed);
  });
});
