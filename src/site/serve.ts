// `export serve`: a static server for previewing an export as production will serve it. URLs resolve
// exactly as verify and the generated host configs resolve them (resolve.ts); a directory is never
// listed; nothing outside the root is ever read, not through `..`, encoded slashes or symbolic links.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join, sep } from 'node:path';
import { CliError, EXIT_CODES, UsageError } from '../errors.js';
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
      if (error.code === 'EADDRINUSE') reject(new UsageError(`port ${opts.port} on ${opts.host} is in use; pass --port <n> (0 picks a free one)`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new UsageError(`--host ${opts.host}: not an address of this machine`));
      else if (error.code === 'EACCES') reject(new UsageError(`port ${opts.port} needs privileges; choose one above 1023`));
      else reject(new CliError(`cannot listen on ${opts.host}:${opts.port}: ${error.message}`, EXIT_CODES.api));
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
  const file = parsed.kind === 'site' ? await firstFile(opts.root, parsed.candidates) : undefined;
  if (file) return sendFile(req, res, file, 200);
  const notFoundPage = await firstFile(opts.root, ['404.html']);
  if (notFoundPage) return sendFile(req, res, notFoundPage, 404);
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...COMMON_HEADERS });
  res.end(req.method === 'HEAD' ? undefined : '404 not found\n');
}

/** The first candidate that is a regular file whose real path lies inside the root. */
async function firstFile(root: string, candidates: string[]): Promise<{ path: string; size: number; mtime: Date } | undefined> {
  for (const candidate of candidates) {
    const path = await realpath(join(root, ...candidate.split('/'))).catch(() => undefined);
    if (!path || !path.startsWith(root + sep)) continue;
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile()) return { path, size: info.size, mtime: info.mtime };
  }
  return undefined;
}

function sendFile(req: IncomingMessage, res: ServerResponse, file: { path: string; size: number; mtime: Date }, status: number): Promise<void> {
  res.writeHead(status, {
    'content-type': contentTypeFor(file.path),
    'content-length': file.size,
    'last-modified': file.mtime.toUTCString(),
    ...COMMON_HEADERS,
  });
  if (req.method === 'HEAD') {
    res.end();
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const stream = createReadStream(file.path);
    stream.on('error', (error) => {
      res.destroy(error);
      reject(error);
    });
    stream.pipe(res).on('finish', () => resolve());
  });
}
