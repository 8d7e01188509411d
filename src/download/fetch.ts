// Streams a presigned bundle link to its consumer (the live extraction) and, with --archive, to a file, never into
// memory. A drop resumes with a Range request, an expired link (403) is exchanged for a fresh one, and nothing but a
// User-Agent and a Range goes to the storage origin: no credential of ours.
import { open, type FileHandle } from 'node:fs/promises';
import { request, type Dispatcher } from 'undici';
import type { Bundle } from '../api/types.js';
import { backoffDelay } from '../api/http.js';
import { throwIfAborted, type Clock } from '../clock.js';
import { BundleStorageError, MintAdminError, RUN_AGAIN } from '../errors.js';
import { redactUrl } from '../redact.js';
import { VERSION } from '../version.js';
import { SITE_FILE_MODE } from './limits.js';
import {
  givenUp,
  LinkExpired,
  planBody,
  redirectTarget,
  retryable,
  RetryableFailure,
  storageErrorCode,
} from './response.js';
import { watchForStall, type WatchedDownload } from './stall.js';

export const FETCH_LIMITS = {
  /** Further tries after a dropped connection, a short body or a 5xx. */
  retries: 5,
  /** Fresh links asked for after the storage answered 403 (an expired link). */
  linkRefreshes: 3,
  redirects: 5,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  /** Fewer than stallMinBytes in stallMs is a stall. */
  stallMs: 60_000,
  stallMinBytes: 1024,
};

export interface FetchBundleOptions {
  getBundle: () => Promise<Bundle>;
  /** Where the archive is kept (--archive); created here, removed by the caller on failure. */
  file?: string;
  dispatcher: Dispatcher;
  clock: Clock;
  random: () => number;
  signal: AbortSignal;
  debug: (line: string) => void;
  onProgress: (bytes: number, total: number | undefined) => void;
  // Each chunk with the archive offset of its first byte (back to 0 after a restart). A returned promise holds the
  // next read until it settles (backpressure), and that wait is never a stall; what it throws ends the download.
  // The consumer settles it when the signal aborts.
  onData?: (chunk: Buffer, offset: number) => void | Promise<void>;
  limits?: Partial<typeof FETCH_LIMITS>;
}

export interface FetchBundleResult {
  /** The link the bytes finally came from (a fresh one after a 403). */
  bundle: Bundle;
  bytes: number;
}

/** What one download holds across tries: the open file, if any, how many bytes are good, and what the stall watch reads. */
interface Download extends WatchedDownload {
  opts: FetchBundleOptions;
  handle: FileHandle | undefined;
  /** Bytes in the file, or without one, handed to onData. */
  have: number;
  /** Aborted by the Ctrl-C signal, or by the stall watch with a StalledError. */
  signal: AbortSignal;
}

export async function fetchBundle(opts: FetchBundleOptions): Promise<FetchBundleResult> {
  const limits = { ...FETCH_LIMITS, ...opts.limits };
  const handle = opts.file === undefined ? undefined : await open(opts.file, 'w', SITE_FILE_MODE);
  const started: Omit<Download, 'signal'> = {
    opts,
    handle,
    have: 0,
    received: 0,
    consumerMs: 0,
    consumerSince: undefined,
  };
  const watch = watchForStall(started, limits);
  const download: Download = Object.assign(started, { signal: watch.signal });
  try {
    let bundle = await freshBundle(opts);
    let failures = 0;
    let refreshes = 0;
    for (;;) {
      throwIfAborted(opts.signal);
      const expected = usableSize(bundle.sizeBytes);
      try {
        await attempt(download, bundle.bundleUrl, expected, limits.redirects);
        return { bundle, bytes: download.have };
      } catch (error) {
        if (opts.signal.aborted) throw opts.signal.reason;
        if (download.signal.aborted) throw download.signal.reason;
        if (error instanceof LinkExpired) {
          if (++refreshes > limits.linkRefreshes) {
            const refused = `the bundle storage refused ${refreshes} download links in a row (403${error.message ? ` ${error.message}` : ''})`;
            const nextStep = `${RUN_AGAIN}, and check the machine's clock if it keeps happening`;
            throw new BundleStorageError(refused, 403, {}, { nextStep });
          }
          const next = await freshBundle(opts);
          // A different size means a different object: bytes of the old one are no use.
          const why = `a fresh link is to a bundle of ${next.sizeBytes} bytes, not ${bundle.sizeBytes}`;
          if (usableSize(next.sizeBytes) !== expected) await truncate(download, 0, why);
          bundle = next;
          continue;
        }
        const failure = retryable(error);
        if (++failures > limits.retries) throw givenUp(failure, failures);
        if (failure instanceof RetryableFailure && failure.restart) await truncate(download, 0, failure.message);
        const delayMs = backoffDelay(failures, limits.baseDelayMs, limits.maxDelayMs, opts.random);
        opts.debug(`download: ${failure.message}; try ${failures + 1} in ${delayMs} ms from byte ${download.have}`);
        await opts.clock.sleep(delayMs, opts.signal);
      }
    }
  } finally {
    watch.stop();
    await handle?.close();
  }
}

async function freshBundle(opts: FetchBundleOptions): Promise<Bundle> {
  const bundle = await opts.getBundle();
  const protocol = URL.canParse(bundle.bundleUrl) ? new URL(bundle.bundleUrl).protocol : undefined;
  if (protocol !== 'https:' && protocol !== 'http:') {
    throw new MintAdminError('the API returned a bundle link that is not an http(s) address; try again later');
  }
  opts.debug(`bundle link ${redactUrl(bundle.bundleUrl)} (${bundle.sizeBytes} bytes, expires ${bundle.expiresAt})`);
  return bundle;
}

/** sizeBytes is trusted only when it is a plausible byte count; otherwise the storage decides. */
function usableSize(size: unknown): number | undefined {
  return typeof size === 'number' && Number.isSafeInteger(size) && size > 0 ? size : undefined;
}

async function attempt(
  download: Download,
  url: string,
  expected: number | undefined,
  maxRedirects: number,
): Promise<void> {
  const { statusCode: status, headers, body } = await requestFollowingRedirects(download, url, maxRedirects);
  if (status === 200 || status === 206 || status === 416) {
    const plan = planBody(status, headers, download.have, expected);
    if (plan.kind !== 'body') {
      await body.dump();
      if (plan.kind === 'complete') return;
      throw new RetryableFailure(plan.reason, true);
    }
    // A storage that ignores Range starts at byte 0: the bytes we hold are skipped (the same object: its size agreed).
    await writeBody(download, body, plan.total, download.have - plan.start);
    if (plan.total !== undefined && download.have < plan.total) {
      throw new RetryableFailure(`the download stopped at byte ${download.have} of ${plan.total}`);
    }
    return;
  }
  const code = storageErrorCode(await body.text().catch(() => ''));
  if (status === 403) throw new LinkExpired(code ?? '');
  const what = `${status}${code ? ` ${code}` : ''}`;
  if (status === 429 || status >= 500) throw new RetryableFailure(`the bundle storage answered ${what}`, false, status);
  const refused = `the bundle storage refused the download (${what}) of ${redactUrl(url)}`;
  throw new BundleStorageError(refused, status, {}, { nextStep: `${RUN_AGAIN} for a fresh link` });
}

async function requestFollowingRedirects(
  download: Download,
  url: string,
  maxRedirects: number,
): Promise<Dispatcher.ResponseData> {
  const { opts, have } = download;
  // Built here, not merged from anywhere: the storage gets no Authorization and no cookie.
  const headers: Record<string, string> = { 'user-agent': `mint-admin/${VERSION}` };
  if (have > 0) headers.range = `bytes=${have}-`;
  const init = { method: 'GET', headers, dispatcher: opts.dispatcher, signal: download.signal } as const;
  let current = url;
  for (let hop = 0; ; hop++) {
    const started = opts.clock.now();
    const response = await request(current, init);
    opts.debug(
      `GET ${redactUrl(current)}${have > 0 ? ` (${headers.range})` : ''} -> ${response.statusCode} in ${opts.clock.now() - started} ms`,
    );
    if (![301, 302, 303, 307, 308].includes(response.statusCode)) return response;
    await response.body.dump();
    current = redirectTarget(current, response.headers, hop, maxRedirects);
  }
}

/** The body from byte `have - skip`: the first `skip` bytes are ones we already hold. */
async function writeBody(
  download: Download,
  body: Dispatcher.ResponseData['body'],
  total: number | undefined,
  skip: number,
): Promise<void> {
  for await (const received of body as AsyncIterable<Buffer>) {
    download.received += received.length;
    const chunk = skip > 0 ? received.subarray(Math.min(skip, received.length)) : received;
    skip -= received.length - chunk.length;
    if (chunk.length === 0) continue;
    if (total !== undefined && download.have + chunk.length > total) {
      // Not a byte past the announced size goes to disk: a misbehaving storage cannot fill it.
      throw new RetryableFailure(`the bundle storage sent more than the ${total} bytes of the bundle`, true);
    }
    await handOver(download, chunk, download.have);
    // Each chunk is in the file (or handed on) before it counts, so a resume starts after the bytes kept.
    await download.handle?.write(chunk, 0, chunk.length, download.have).catch((error: Error) => {
      throw new MintAdminError(`cannot write the download to ${download.opts.file}: ${error.message}`, {
        cause: error,
      });
    });
    download.have += chunk.length;
    // Progress counts bytes received; its reader (output/progress.ts) decides how often that is drawn.
    download.opts.onProgress(download.have, total);
  }
}

// Gives a chunk to onData and waits for its promise, if any. That time is the consumer's, not the network's:
// the stall watch gives it back (the synchronous part too, which delays a timer rather than firing it).
function handOver(download: Download, chunk: Buffer, offset: number): Promise<void> | undefined {
  const { onData, clock } = download.opts;
  if (!onData) return undefined;
  const since = clock.now();
  download.consumerSince = since;
  const done = () => {
    download.consumerMs += clock.now() - since;
    download.consumerSince = undefined;
  };
  let busy: void | Promise<void> = undefined;
  try {
    busy = onData(chunk, offset);
  } finally {
    if (!busy) done();
  }
  return busy ? busy.finally(done) : undefined;
}

/** Drops the bytes after `length`: the next body goes on from there, and onData is told by its offset. */
async function truncate(download: Download, length: number, why: string): Promise<void> {
  download.opts.debug(`download: starting again from byte ${length}: ${why}`);
  await download.handle?.truncate(length);
  download.have = length;
}
