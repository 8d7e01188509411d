// `export serve`: a static server for previewing an export as production will serve it. URLs resolve
// exactly as verify and the generated host configs resolve them (resolve.ts); a directory is never
// listed; nothing outside the root is ever read, not through `..`, encoded slashes or symbolic links,
// nor through a link swapped in while an answer is made: the file is checked after it is opened.
import { constants } from 'node:fs';
import { open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MintAdminError, UsageError } from '../errors.js';
import { contentTypeFor } from './content-types.js';
import { parseUrlPath } from './resolve.js';

export interface SiteServerOptions {
  /** the site's root, already resolved (checkSiteDirectory) */
  root: string;
  /** '' or '/docs' (normalizeBasePath) */
  basePath: string;
  host: string;
  port: number;
}

export interface SiteServer {
  /** where the site's home page is, e.g. http://127.0.0.1:4173/docs/ */
  url: string;
  close(): Promise<void>;
}

/** Every answer says the same about caching and sniffing: a preview must never be cached stale. */
const COMMON_HEADERS = { 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' };

export async function startSiteServer(opts: SiteServerOptions): Promise<SiteServer> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res, opts).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', ...COMMON_HEADERS });
      res.end('500 internal error\n');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await listen(server, opts);
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${host}:${port}${opts.basePath}/`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function listen(server: Server, opts: SiteServerOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(new UsageError(`port ${opts.port} on ${opts.host} is in use; pass --port <n> (0 picks a free one)`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
        reject(new UsageError(`--host ${opts.host}: not an address of this machine`));
      else if (error.code === 'EACCES')
        reject(new UsageError(`port ${opts.port} needs privileges; choose one above 1023`));
      else reject(new MintAdminError(`cannot listen on ${opts.host}:${opts.port}: ${error.message}`));
    });
    server.listen(opts.port, opts.host, () => resolve());
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, opts: SiteServerOptions): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8', ...COMMON_HEADERS });
    res.end('405 method not allowed\n');
    return;
  }
  const rawPath = req.url ?? '/';
  // The base path itself without its slash: send the browser to the home page, as hosts do.
  if (opts.basePath !== '' && rawPath.split(/[?#]/)[0] === opts.basePath) {
    res.writeHead(301, { location: `${opts.basePath}/`, ...COMMON_HEADERS }).end();
    return;
  }
  const parsed = parseUrlPath(rawPath, opts.basePath);
  if (parsed.kind === 'refused') {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', ...COMMON_HEADERS });
    res.end(`400 bad request: the path has ${parsed.reason}\n`);
    return;
  }
  const file = parsed.kind === 'site' ? await openFirst(opts.root, parsed.candidates) : undefined;
  if (file) return sendFile(req, res, file, 200);
  const notFoundPage = await openFirst(opts.root, ['404.html']);
  if (notFoundPage) return sendFile(req, res, notFoundPage, 404);
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...COMMON_HEADERS });
  res.end(req.method === 'HEAD' ? undefined : '404 not found\n');
}

/** A file opened for an answer, with what was checked of it: the answer sends exactly this. */
interface OpenedFile {
  handle: FileHandle;
  /** where the open file is (inside the root), for its content type */
  path: string;
  size: number;
  mtime: Date;
}

/**
 * Read-only; a FIFO or device never blocks a thread waiting for a writer (O_NONBLOCK) nor becomes
 * the controlling terminal (O_NOCTTY); a last segment that became a link since realpath is refused
 * (O_NOFOLLOW). Flags a platform lacks are left out: what decides is the check of the open file.
 */
const OPEN_FLAGS =
  constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** The first candidate that opens as a regular file lying inside the root; its caller closes it. */
async function openFirst(root: string, candidates: string[]): Promise<OpenedFile | undefined> {
  for (const candidate of candidates) {
    const file = await openInside(root, join(root, ...candidate.split('/')));
    if (file) return file;
  }
  return undefined;
}

/**
 * Opens first, then checks what was opened: a path checked and then opened can be switched in
 * between (a directory swapped for a link to outside), and the answer would carry another file.
 * The realpath before opening only keeps from opening what is plainly outside.
 */
async function openInside(root: string, path: string): Promise<OpenedFile | undefined> {
  const real = await realpath(path).catch(() => undefined);
  if (!real || !isInside(root, real)) return undefined;
  const handle = await open(real, OPEN_FLAGS).catch((error: NodeJS.ErrnoException) => {
    // Out of descriptors is the server's trouble, not a missing page: a 500, not a 404.
    if (error.code === 'EMFILE' || error.code === 'ENFILE') throw error;
    return undefined;
  });
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    const where = info.isFile() ? await whereOpened(handle, real) : undefined;
    if (where !== undefined && isInside(root, where))
      return { handle, path: where, size: info.size, mtime: info.mtime };
  } catch {
    // Unreadable or gone: not an answer.
  }
  await handle.close().catch(() => undefined);
  return undefined;
}

/**
 * Where the open file is. Linux names it (/proc/self/fd), whatever happened to the path since.
 * Elsewhere: the path's real location now, if that is the same file (device and inode) as the open one.
 */
async function whereOpened(handle: FileHandle, path: string): Promise<string | undefined> {
  const named = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  if (named !== undefined) return named;
  const now = await realpath(path).catch(() => undefined);
  if (!now) return undefined;
  const [opened, there] = await Promise.all([
    handle.stat({ bigint: true }),
    stat(now, { bigint: true }).catch(() => undefined),
  ]);
  return there && there.dev === opened.dev && there.ino === opened.ino ? now : undefined;
}

function isInside(root: string, path: string): boolean {
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Sends the open file and closes it, however the answer ends. The body is exactly the size checked:
 * a file that grew is cut there; one that shrank ends the connection, so no answer is short of its
 * Content-Length. A client that goes mid-download ends the read too (pipeline destroys the stream).
 */
async function sendFile(req: IncomingMessage, res: ServerResponse, file: OpenedFile, status: number): Promise<void> {
  try {
    res.writeHead(status, {
      'content-type': contentTypeFor(file.path),
      'content-length': file.size,
      'last-modified': file.mtime.toUTCString(),
      ...COMMON_HEADERS,
    });
    if (req.method === 'HEAD' || file.size === 0) {
      res.end();
      return;
    }
    await pipeline(
      file.handle.createReadStream({ start: 0, end: file.size - 1, autoClose: false }),
      exactly(file.size),
      res,
    ).catch(() => {
      // The headers are gone and pipeline has cut the connection: the client sees a failed download,
      // never a wrong one, and a client that left needs no answer.
    });
  } finally {
    await file.handle.close().catch(() => undefined);
  }
}

function exactly(size: number): (source: AsyncIterable<Buffer>) => AsyncGenerator<Buffer> {
  return async function* (source) {
    let sent = 0;
    for await (const chunk of source) {
      sent += chunk.length;
      yield chunk;
    }
    if (sent !== size) throw new Error(`the file changed while it was sent: ${sent} of ${size} bytes`);
  };
}
