// Reading a storage response: what its status and headers mean for a download that may be resuming, and which
// failures another try can fix. Pure functions, so every case is tested without a server.
import { toNetworkError } from '../api/http.js';
import { BundleStorageError, MintAdminError, NetworkError, RUN_AGAIN } from '../errors.js';
import { redactUrl } from '../redact.js';

export type Headers = Record<string, string | string[] | undefined>;

/** Where the body of a 200/206 starts, and how big the whole object is (when the storage says). */
export type BodyPlan =
  | { kind: 'body'; start: number; total: number | undefined }
  /** The answer does not continue what we have: start again from byte 0. */
  | { kind: 'restart'; reason: string }
  /** 416 for a range starting at the end: we already have every byte. */
  | { kind: 'complete' };

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `bytes 100-199/1000` -> { start, end, total }; `*` as total -> undefined. */
export function parseContentRange(
  text: string | undefined,
): { start: number; end: number; total: number | undefined } | undefined {
  const m = text === undefined ? null : /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(text.trim());
  if (!m) return undefined;
  return { start: Number(m[1]), end: Number(m[2]), total: m[3] === '*' ? undefined : Number(m[3]) };
}

/** What a 200, 206 or 416 means when we hold `have` bytes and expect `expected` (a usable sizeBytes). */
export function planBody(status: number, headers: Headers, have: number, expected: number | undefined): BodyPlan {
  if (status === 200) {
    // What we asked for, or a server that ignores Range: the body starts at byte 0, as good as a new request.
    const length = header(headers, 'content-length')?.trim();
    const total = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
    if (total !== undefined && expected !== undefined && total > expected) {
      return { kind: 'restart', reason: `the storage announced ${total} bytes but the bundle is ${expected} bytes` };
    }
    return { kind: 'body', start: 0, total: expected ?? total };
  }
  if (status === 206) {
    const given = header(headers, 'content-range');
    const range = parseContentRange(given);
    if (!range || range.start !== have || range.end < range.start) {
      return {
        kind: 'restart',
        reason: `the storage answered a different range (${given ?? 'none'}) than bytes=${have}-`,
      };
    }
    if (range.total !== undefined && expected !== undefined && range.total !== expected) {
      return { kind: 'restart', reason: `the storage holds ${range.total} bytes but the bundle is ${expected} bytes` };
    }
    return { kind: 'body', start: have, total: expected ?? range.total };
  }
  if (status === 416) {
    const range = header(headers, 'content-range');
    const total = range === undefined ? undefined : /^bytes \*\/(\d+)$/.exec(range.trim())?.[1];
    if (have > 0 && total !== undefined && Number(total) === have && (expected === undefined || expected === have))
      return { kind: 'complete' };
    return { kind: 'restart', reason: 'the storage refused the resume range (416)' };
  }
  throw new Error(`planBody called with status ${status}`);
}

/** The S3-style `<Code>` of an error body, to name the refusal without echoing the whole page. */
export function storageErrorCode(body: string): string | undefined {
  return /<Code>([A-Za-z0-9.]{1,64})<\/Code>/.exec(body)?.[1];
}

/** Follows a storage redirect only to http(s), never from https down to http, and not forever. */
export function redirectTarget(from: string, headers: Headers, hop: number, maxRedirects: number): string {
  const location = header(headers, 'location');
  // Another try may get a better answer.
  if (!location) throw new RetryableFailure('the bundle storage sent a redirect without a Location');
  if (hop >= maxRedirects)
    throw new MintAdminError(`the bundle storage redirected more than ${maxRedirects} times; try again later`);
  const next = new URL(location, from);
  const downgrade = new URL(from).protocol === 'https:' && next.protocol !== 'https:';
  if (downgrade || (next.protocol !== 'https:' && next.protocol !== 'http:')) {
    throw new MintAdminError(
      `the bundle storage redirected to ${redactUrl(next.href)}, which is not a secure address; not following it`,
    );
  }
  return next.href;
}

/** A try that failed in a way another try can fix; `restart` drops the bytes we have. */
export class RetryableFailure extends Error {
  constructor(
    message: string,
    readonly restart = false,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The storage answered 403: the presigned link has expired. */
export class LinkExpired extends Error {}

export function retryable(error: unknown): RetryableFailure | NetworkError {
  if (error instanceof RetryableFailure || error instanceof NetworkError) return error;
  if (error instanceof MintAdminError) throw error;
  return toNetworkError(error, 'the bundle storage');
}

export function givenUp(failure: RetryableFailure | NetworkError, tries: number): MintAdminError {
  const problem = `${failure.message} (gave up after ${tries} tries)`;
  if (failure instanceof NetworkError)
    return new NetworkError(problem, failure.code, { cause: failure, nextStep: RUN_AGAIN });
  if (failure.status !== undefined) return new BundleStorageError(problem, failure.status, {}, { nextStep: RUN_AGAIN });
  return new MintAdminError(`download failed: ${problem}`, { nextStep: RUN_AGAIN });
}
