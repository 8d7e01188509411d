// The data each error carries for the faces to word it (test/errors-structure.test.ts holds that no face
// reads a message back): set where the error is thrown, and worded the same by every face that needs it.
import { describe, expect, it } from 'vitest';
import { DatabaseBusyError, DatabaseWriteError } from '../src/analytics-store/errors.js';
import { toNetworkError } from '../src/api/http.js';
import { CommandSaidError, exitCodeOf, forPeople } from '../src/cli/cli-errors.js';
import { wordExportError } from '../src/cli/commands/export/api.js';
import { checkApiKey, keyFaultText } from '../src/config/validators.js';
import { givenUp, RetryableFailure } from '../src/download/response.js';
import { NotGzipError } from '../src/download/live-extraction.js';
import { StalledError } from '../src/download/stall.js';
import {
  ApiError,
  ArchiveRefusedError,
  BundleStorageError,
  briefReason,
  ConfigError,
  InterruptedError,
  MintAdminError,
  NetworkError,
} from '../src/errors.js';
import { networkProblem } from '../src/network-problem.js';
import { ExportMayHaveStartedError, ExportNotEnabledError, explainExportError } from '../src/export-flows/errors.js';

const refused = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code });

describe('NetworkError: what it was talking to and how it failed', () => {
  it('keeps code and target, so a retry note says what happened in a few words', () => {
    const error = toNetworkError(refused('ECONNRESET'), 'the bundle storage', 'GET https://storage.test/b');
    expect(error).toMatchObject({ code: 'ECONNRESET', target: 'the bundle storage' });
    expect(error.message).toBe(
      'the connection to the bundle storage was dropped; tried GET https://storage.test/b; check your connection or proxy settings (HTTPS_PROXY, NO_PROXY)',
    );
    expect(briefReason(error)).toBe('the connection to the bundle storage was dropped');
  });

  it.each([
    ['ECONNREFUSED', 'connection refused by the API'],
    ['ENOTFOUND', 'cannot resolve the host of the API'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timed out connecting to the API'],
    ['UND_ERR_HEADERS_TIMEOUT', 'the API did not answer in time'],
    ['UND_ERR_BODY_TIMEOUT', 'the API stopped sending data'],
    ['EPIPE', 'network error talking to the API (EPIPE)'],
  ])('%s: %s', (code, words) => {
    expect(networkProblem(code, 'the API')).toBe(words);
  });

  it('one made without a target is told by its message', () => {
    expect(briefReason(new NetworkError('reset', 'ECONNRESET'))).toBe('reset');
  });
});

describe('withoutNextStep: the message without "run the command again"', () => {
  it.each<[string, MintAdminError, string]>([
    [
      'a stalled download',
      new StalledError(30_000, 1024),
      'the download stalled: less than 1024 bytes arrived in 30s (check your connection or proxy settings)',
    ],
    [
      'a bundle that is not gzip',
      new NotGzipError('an HTML page'),
      'the downloaded bundle is an HTML page, not a tar.gz archive (gzip data starts with the bytes 1f 8b); nothing was installed; if it persists, report it to Mintlify',
    ],
    [
      'a storage that kept failing',
      givenUp(new RetryableFailure('the bundle storage answered 503', false, 503), 6),
      'the bundle storage answered 503 (gave up after 6 tries)',
    ],
    [
      'a download that kept failing without a status',
      givenUp(new RetryableFailure('the download stopped at byte 5 of 9'), 6),
      'download failed: the download stopped at byte 5 of 9 (gave up after 6 tries)',
    ],
  ])('%s', (_name, error, withoutNextStep) => {
    expect(error.withoutNextStep).toBe(withoutNextStep);
    expect(error.nextStep).toBe('run the command again');
    expect(error.message).toBe(`${withoutNextStep}; run the command again`);
  });

  it('is made by the error from what went wrong and the next step, given apart', () => {
    const error = new MintAdminError('the storage went away', { nextStep: 'try later' });
    expect([error.message, error.withoutNextStep, error.nextStep]).toEqual([
      'the storage went away; try later',
      'the storage went away',
      'try later',
    ]);
  });

  it('a connection that kept dropping keeps its class, code and target', () => {
    const error = givenUp(toNetworkError(refused('ECONNRESET'), 'the bundle storage'), 3);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'ECONNRESET' });
    expect(error.withoutNextStep).toBe(
      'the connection to the bundle storage was dropped; check your connection or proxy settings (HTTPS_PROXY, NO_PROXY) (gave up after 3 tries)',
    );
    expect(givenUp(new RetryableFailure('x', false, 503), 2)).toBeInstanceOf(BundleStorageError);
  });

  it('is undefined when the message says only what went wrong', () => {
    expect(new MintAdminError('what went wrong').withoutNextStep).toBeUndefined();
    expect(new MintAdminError('what went wrong').nextStep).toBeUndefined();
    expect(new ArchiveRefusedError('entry "../x" leaves the target').brokenRule).toBeUndefined();
  });
});

describe('nextStepSaid: a face that said what to do gets no advice added', () => {
  it('a 404 with the advice of its own is printed as it is, and keeps its exit code', () => {
    const error = new ApiError('no thread t_1 in this project (404); check --project', 404, {}, { nextStepSaid: true });
    expect(forPeople(error)).toBe('no thread t_1 in this project (404); check --project');
    expect(exitCodeOf(error)).toBe(1);
    expect(forPeople(new ApiError('no thread t_1 (404)', 404))).toBe('no thread t_1 (404); check the id and --project');
  });

  it("a command's own sentence for any failure exits as that failure does", () => {
    const said = new CommandSaidError(new InterruptedError('interrupted', 'SIGTERM'), 'stopped; run it again');
    expect(said).toMatchObject({ message: 'stopped; run it again', nextStepSaid: true });
    expect(said.cause).toBe(said.failure);
    expect(exitCodeOf(said)).toBe(143);
  });
});

describe('ConfigError.keyFault: what is wrong with a key that was given', () => {
  it.each([
    [
      'an assistant key',
      'mint_dsc_assistantkey0123',
      { fault: 'wrong-type', keyType: 'an assistant API', masked: 'mint_****0123' },
      'the `api-key` input holds an assistant API key (mint_****0123); mint-admin needs an admin API key (mint_...) from https://app.mintlify.com/settings/organization/api-keys',
    ],
    [
      'not a key at all',
      'mint key with spaces',
      { fault: 'malformed' },
      'the `api-key` input is not an admin API key: it should start with "mint_" and have no spaces; create one at https://app.mintlify.com/settings/organization/api-keys',
    ],
  ])('%s: the same words wherever the key came from', (_name, key, fault, inActionWords) => {
    let caught: unknown;
    try {
      checkApiKey(key, 'MINTLIFY_ADMIN_API_KEY');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error).toMatchObject({ setting: 'api-key', keyFault: fault });
    expect(error.message).toBe(keyFaultText(error.keyFault!, 'MINTLIFY_ADMIN_API_KEY'));
    expect(error.message.startsWith('MINTLIFY_ADMIN_API_KEY ')).toBe(true);
    expect(keyFaultText(error.keyFault!, 'the `api-key` input')).toBe(inActionWords);
  });
});

describe("the export flow's own answers", () => {
  const unreadable = new ApiError(
    'unexpected answer from the API to POST /v1/static-export/jobs: the body is not JSON',
    201,
    {
      code: 'not_json',
      method: 'POST',
      route: '/v1/static-export/jobs',
    },
  );

  it('a start whose 2xx is unreadable: the job may exist, with what was wrong kept as data', () => {
    const error = explainExportError(unreadable) as ExportMayHaveStartedError;
    expect(error).toBeInstanceOf(ExportMayHaveStartedError);
    expect(error).toMatchObject({ unreadable, status: 201, code: 'not_json', method: 'POST', cause: unreadable });
    expect(error.message).toBe(
      'unexpected answer from the API to POST /v1/static-export/jobs: the body is not JSON; the export may have started anyway: look for it in the Mintlify dashboard before starting another',
    );
    expect(exitCodeOf(error)).toBe(1);
  });

  it('the CLI words the unreadable answer with its own advice, then the same next step', () => {
    const error = wordExportError(explainExportError(unreadable)) as ExportMayHaveStartedError;
    expect(error).toBeInstanceOf(ExportMayHaveStartedError);
    expect(forPeople(error)).toBe(
      'unexpected answer from the API to POST /v1/static-export/jobs: the body is not JSON (a proxy or gateway page? check --base-url and your proxy settings); the export may have started anyway: look for it in the Mintlify dashboard before starting another',
    );
  });

  it('a 403 on start is the plan: the refusal kept, the exit code of a refused key', () => {
    const refusedStart = new ApiError('the API refused the request (403)', 403, { serverMessage: 'not on your plan' });
    const error = explainExportError(refusedStart) as ExportNotEnabledError;
    expect(error).toBeInstanceOf(ExportNotEnabledError);
    expect(error).toMatchObject({
      status: 403,
      code: 'forbidden',
      serverMessage: 'not on your plan',
      cause: refusedStart,
    });
    expect(forPeople(error)).toBe(
      'static export needs an Enterprise plan (403: not on your plan); ask Mintlify to enable it for your organization, or check that the admin key belongs to it',
    );
    expect(exitCodeOf(error)).toBe(3);
  });
});

describe("the analytics store's errors take a face's words", () => {
  it('a failed write with a next step keeps the words without it and its kind', () => {
    const cause = new Error('IO Error: Could not write file "x.duckdb": No space left on device');
    const error = new DatabaseWriteError('x.duckdb', 'No space left on device', cause, 'make room');
    expect(error).toMatchObject({ kind: 'disk-full', nextStepSaid: true, cause });
    expect(error.withoutNextStep).toBe(
      'the analytics database x.duckdb could not be written (No space left on device): every page stored before it is kept',
    );
    expect(error.message).toBe(`${error.withoutNextStep}; make room`);
  });

  it("a held database in a reader's words keeps its path and holder", () => {
    const error = new DatabaseBusyError('x.duckdb', 42, undefined, 'x.duckdb is being written; read it later');
    expect(error).toMatchObject({ path: 'x.duckdb', holderPid: 42, nextStepSaid: true });
    expect(forPeople(error)).toBe('x.duckdb is being written; read it later');
  });
});
