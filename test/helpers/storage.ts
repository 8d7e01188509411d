// Route handlers for startServer that act as a bundle storage origin: Range support, dropped
// connections, short bodies, a server that ignores Range, S3-style refusals.
import type { ServerResponse } from 'node:http';
import type { Handler } from './server.js';

type Request = Parameters<Handler>[0];

/** The byte range a request asks for (single `bytes=N-` / `bytes=N-M` ranges only). */
function requestedRange(req: Request, size: number): { start: number; end: number } | undefined {
  const m = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
  if (!m) return undefined;
  return { start: Number(m[1]), end: m[2] ? Math.min(Number(m[2]), size - 1) : size - 1 };
}

function head(
  res: ServerResponse,
  archive: Buffer,
  range: { start: number; end: number } | undefined,
  length: number,
): void {
  const headers: Record<string, string> = { 'content-type': 'application/gzip', 'content-length': String(length) };
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${archive.length}`;
  res.writeHead(range ? 206 : 200, headers);
}

/** Serves the archive as S3 does: 200, or 206 for a Range, or 416 past the end. */
export function serveArchive(archive: () => Buffer): Handler {
  return (req, res) => {
    const buf = archive();
    const range = requestedRange(req, buf.length);
    if (range && range.start >= buf.length) {
      res.writeHead(416, { 'content-range': `bytes */${buf.length}` }).end();
      return;
    }
    const body = range ? buf.subarray(range.start, range.end + 1) : buf;
    head(res, buf, range, body.length);
    res.end(body);
  };
}

/** Announces the whole (remaining) body, sends `bytes` of it, then drops the connection. */
export function cutAfter(archive: () => Buffer, bytes: number): Handler {
  return (req, res) => {
    const buf = archive();
    const range = requestedRange(req, buf.length);
    const body = range ? buf.subarray(range.start, range.end + 1) : buf;
    head(res, buf, range, body.length);
    res.write(body.subarray(0, bytes), () => setTimeout(() => res.socket?.destroy(), 20));
  };
}

/** Sends only the first `bytes` of the archive as a complete 200 response (an honest short body). */
export function shortBody(archive: () => Buffer, bytes: number): Handler {
  return (_req, res) => {
    const body = archive().subarray(0, bytes);
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': String(body.length) });
    res.end(body);
  };
}

/** Always the whole archive with 200, whatever Range says. */
export function ignoreRange(archive: () => Buffer): Handler {
  return (_req, res) => {
    const buf = archive();
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': String(buf.length) });
    res.end(buf);
  };
}

/** Sends `bytes` of the body, then stalls until the client goes away; calls `onStalled` once stalled. */
export function stallAfter(archive: () => Buffer, bytes: number, onStalled: () => void): Handler {
  return (_req, res) => {
    const buf = archive();
    head(res, buf, undefined, buf.length);
    res.write(buf.subarray(0, bytes), () => onStalled());
  };
}

/** An S3-style XML error. */
export function storageError(status: number, code: string): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>refused</Message></Error>`);
  };
}
