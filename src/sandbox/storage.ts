import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Faults } from './faults.js';
import { applyFault, s3ErrorXml, sendReply, sleep } from './http-util.js';
import type { LinkSigner } from './presign.js';

/** The bytes behind a bundle link: the generated archive on disk, or a test's own buffer. */
export interface ArchiveSource {
  size: number;
  /** `end` is inclusive, as in a Range header. */
  open(start: number, end: number): Readable;
}

export function fileSource(path: string, size: number): ArchiveSource {
  return { size, open: (start, end) => createReadStream(path, { start, end, highWaterMark: 64 * 1024 }) };
}

export function bufferSource(buf: Buffer): ArchiveSource {
  return { size: buf.length, open: (start, end) => Readable.from([buf.subarray(start, end + 1)]) };
}

export interface StorageDeps {
  faults: Faults;
  signer: LinkSigner;
  now: () => number;
  bundleExists: (jobId: string) => boolean;
  archive: () => Promise<ArchiveSource>;
  signal: AbortSignal;
}

function xmlError(res: ServerResponse, status: number, code: string, message: string): void {
  sendReply(res, { status, body: s3ErrorXml(code, message), headers: { 'content-type': 'application/xml' } });
}

/** Serves presigned bundle links the way S3 does, including its refusals. */
export async function handleStorage(req: IncomingMessage, res: ServerResponse, deps: StorageDeps): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://storage.invalid');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return xmlError(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  }
  if (await applyFault(deps.faults.take('storage.get'), res, 'xml', deps.signal)) return;
  if (req.headers.authorization !== undefined) {
    // S3 refuses a presigned URL that also carries an Authorization header: clients must not send one.
    return xmlError(
      res,
      400,
      'InvalidArgument',
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
    );
  }
  const link = deps.signer.check(url.pathname, url.searchParams, deps.now());
  if (!link.ok && link.reason === 'expired') return xmlError(res, 403, 'AccessDenied', 'Request has expired');
  if (!link.ok) {
    return xmlError(
      res,
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided.',
    );
  }
  if (!deps.bundleExists(link.jobId)) return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');

  const archive = await deps.archive();
  const range = parseRange(req.headers.range, archive.size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { 'content-range': `bytes */${archive.size}`, 'content-type': 'application/xml' });
    res.end(s3ErrorXml('InvalidRange', 'The requested range is not satisfiable'));
    return;
  }
  const { start, end } = range ?? { start: 0, end: archive.size - 1 };
  const headers: Record<string, string> = {
    'content-type': 'application/gzip',
    'content-length': String(end - start + 1),
    'accept-ranges': 'bytes',
  };
  if (range) headers['content-range'] = `bytes ${start}-${end}/${archive.size}`;
  res.writeHead(range ? 206 : 200, headers);
  if (req.method === 'HEAD' || end < start) {
    res.end();
    return;
  }
  await pump(
    archive.open(start, end),
    res,
    deps.faults.takeTruncation(),
    deps.faults.throttleBytesPerSecond,
    deps.signal,
  );
}

/** Single ranges only (`N-`, `N-M`, `-N`); anything else is ignored and the whole object is sent. */
function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Writes the body with backpressure, optionally throttled, and optionally cut after `cutAt` bytes
 * with the full Content-Length already promised, which is what a dropped download looks like.
 */
async function pump(
  source: Readable,
  res: ServerResponse,
  cutAt: number | undefined,
  bytesPerSecond: number | undefined,
  signal: AbortSignal,
): Promise<void> {
  let sent = 0;
  const pieceSize = bytesPerSecond ? Math.max(1, Math.floor(bytesPerSecond / 20)) : Infinity;
  res.once('close', () => source.destroy());
  if (cutAt !== undefined) res.flushHeaders();
  for await (const chunk of source as AsyncIterable<Buffer>) {
    let data = cutAt === undefined ? chunk : chunk.subarray(0, Math.max(0, cutAt - sent));
    while (data.length > 0) {
      if (res.destroyed || signal.aborted) return;
      const piece = data.subarray(0, pieceSize);
      data = data.subarray(piece.length);
      sent += piece.length;
      await write(res, piece);
      if (bytesPerSecond) await sleep((piece.length / bytesPerSecond) * 1000, signal);
    }
    if (cutAt !== undefined && sent >= cutAt) break;
  }
  if (cutAt !== undefined && sent >= cutAt) {
    source.destroy();
    res.socket?.destroy();
    return;
  }
  res.end();
}

/** Resolves once the bytes reached the socket (so a cut after it still delivers them) or it closed. */
function write(res: ServerResponse, piece: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('close', done);
      resolve();
    };
    res.once('close', done);
    res.write(piece, () => done());
  });
}
