import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: IncomingMessage & { body: string }, res: ServerResponse) => void;

/** JSON response helper for route tables. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** A handler that serves each response in turn, then repeats the last. */
export function sequence(...handlers: Handler[]): Handler {
  let i = 0;
  return (req, res) => handlers[Math.min(i++, handlers.length - 1)]!(req, res);
}

/** Drops the connection without answering, after reading the request. */
export const dropConnection: Handler = (req) => req.socket.destroy();

/**
 * A loopback HTTP server with a route table keyed "METHOD /path". A request no route expects gets a
 * 599 and is listed in `unexpected`, so a test can assert nothing stray was sent.
 */
export async function startServer(routes: Record<string, Handler>) {
  const requests: Recorded[] = [];
  const unexpected: Recorded[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      const path = (req.url ?? '').split('?')[0];
      const handler = routes[`${req.method} ${path}`];
      if (!handler) {
        unexpected.push(recorded);
        res.writeHead(599).end();
        return;
      }
      handler(Object.assign(req, { body }), res);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    unexpected,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
