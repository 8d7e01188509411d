import { Agent, request } from 'node:http';
import { existsSync, mkdirSync, readdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSiteServer, type SiteServer } from '../../src/site/serve.js';
import { checkSiteDirectory } from '../../src/site/site-files.js';
import { CLI, tempDir } from '../helpers/cli.js';
import { spawn } from 'node:child_process';
import { CSS, writeSite } from './fixture.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  bytes: number;
}

/** A raw request: the path goes on the wire exactly as written (fetch would normalise `..`). */
function get(base: string, path: string, method = 'GET', agent?: Agent): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const all = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: all.toString('utf8'), bytes: all.length });
      });
      res.on('error', reject);
    });
    req.on('error', reject).end();
  });
}

const title = (body: string) => /<title>(.*?)<\/title>/.exec(body)?.[1];

describe('export serve (the server, over loopback)', () => {
  const dir = tempDir('mint-admin-serve-');
  const outside = tempDir('mint-admin-outside-');
  let server: SiteServer;
  beforeAll(async () => {
    writeSite(dir.path);
    writeFileSync(join(outside.path, 'secret.html'), '<title>secret</title>');
    writeFileSync(join(dir.path, 'plain.txt'), 'text');
    symlinkSync(join(outside.path, 'secret.html'), join(dir.path, 'leak.html'));
    symlinkSync(outside.path, join(dir.path, 'leakdir'));
    server = await startSiteServer({
      root: await checkSiteDirectory(dir.path),
      basePath: '',
      host: '127.0.0.1',
      port: 0,
    });
  });
  afterAll(async () => {
    await server.close();
    dir.cleanup();
    outside.cleanup();
  });

  it('prints a loopback URL', () => expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/));

  it.each([
    ['the home page', '/', 'Home'],
    ['an extensionless page', '/guides/intro', 'Intro'],
    ['the .html name itself', '/guides/intro.html', 'Intro'],
    ['a directory index, with the slash', '/guides/', 'Guides'],
    ['a directory index, without it', '/guides', 'Guides'],
    ['a query string and a fragment', '/guides/intro?tab=1', 'Intro'],
    ['a percent-encoded name', '/guides/with%20space', 'With space'],
  ])('serves %s', async (_name, path, expected) => {
    const r = await get(server.url, path);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(title(r.body)).toBe(expected);
  });

  it.each([
    [CSS, 'text/css; charset=utf-8'],
    ['_next/static/chunks/main-8e7d4a06.js', 'text/javascript; charset=utf-8'],
    ['images/logo.png', 'image/png'],
    ['fonts/inter.woff2', 'font/woff2'],
    ['sitemap.xml', 'application/xml; charset=utf-8'],
    ['plain.txt', 'text/plain; charset=utf-8'],
    ['images/demo.mp4', 'video/mp4'],
  ])('serves /%s as %s, with its length and nosniff', async (path, type) => {
    const r = await get(server.url, `/${path}`);
    expect(r.status).toBe(200);
    expect(r.headers).toMatchObject({
      'content-type': type,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    });
    expect(Number(r.headers['content-length'])).toBe(r.bytes);
  });

  it('answers a missing page with 404.html and status 404', async () => {
    const r = await get(server.url, '/guides/nope');
    expect(r.status).toBe(404);
    expect(title(r.body)).toBe('Not found');
  });

  it('never lists a directory', async () => {
    const r = await get(server.url, '/images/');
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('logo.png');
  });

  it('HEAD gets the headers without the body', async () => {
    const r = await get(server.url, '/guides/intro', 'HEAD');
    expect(r).toMatchObject({ status: 200, body: '' });
    expect(Number(r.headers['content-length'])).toBeGreaterThan(100);
  });

  it('refuses other methods with 405', async () => {
    const r = await get(server.url, '/', 'POST');
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET, HEAD');
  });

  it.each([
    ['../', '/../../../etc/passwd', 400],
    ['encoded ..', '/%2e%2e/%2e%2e/etc/passwd', 400],
    ['an encoded slash', '/..%2f..%2f..%2fetc%2fpasswd', 400],
    ['an encoded backslash', '/..%5c..%5cetc%5cpasswd', 400],
    ['a NUL', '/index.html%00.png', 400],
    ['a symbolic link to a file outside', '/leak', 404],
    ['a symbolic link to a directory outside', '/leakdir/secret', 404],
  ])('refuses %s', async (_name, path, status) => {
    const r = await get(server.url, path);
    expect(r.status).toBe(status);
    expect(r.body).not.toMatch(/secret|root:/);
  });

  it('without 404.html, a plain 404', async () => {
    const bare = tempDir();
    writeFileSync(join(bare.path, 'index.html'), 'home');
    const s = await startSiteServer({
      root: await checkSiteDirectory(bare.path),
      basePath: '',
      host: '127.0.0.1',
      port: 0,
    });
    try {
      expect(await get(s.url, '/nope')).toMatchObject({ status: 404, body: '404 not found\n' });
    } finally {
      await s.close();
      bare.cleanup();
    }
  });
});

describe('export serve --base-path', () => {
  const dir = tempDir('mint-admin-serve-');
  let server: SiteServer;
  beforeAll(async () => {
    writeSite(dir.path, { basePath: '/docs' });
    server = await startSiteServer({
      root: await checkSiteDirectory(dir.path),
      basePath: '/docs',
      host: '127.0.0.1',
      port: 0,
    });
  });
  afterAll(async () => {
    await server.close();
    dir.cleanup();
  });

  it('serves the site under it, and its URL names it', async () => {
    expect(server.url).toMatch(/\/docs\/$/);
    expect(title((await get(server.url, '/docs/guides/intro')).body)).toBe('Intro');
    expect(title((await get(server.url, '/docs/')).body)).toBe('Home');
  });

  it('redirects the bare base path to its slash', async () => {
    expect(await get(server.url, '/docs')).toMatchObject({ status: 301, headers: { location: '/docs/' } });
  });

  it('answers 404 outside it', async () => {
    const r = await get(server.url, '/guides/intro');
    expect(r.status).toBe(404);
    expect(title(r.body)).toBe('Not found');
  });
});

describe('mint-admin export serve', () => {
  /** Starts the CLI, waits for the URL on stdout, runs `use`, then sends `signal` and waits for the exit. */
  async function withServe(args: string[], signal: NodeJS.Signals, use: (url: string) => Promise<void>) {
    const child = spawn(process.execPath, [CLI, 'export', 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, sig) => resolve({ code, signal: sig })),
    );
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        stdout += c;
        if (stdout.endsWith('\n')) resolve(stdout.trim());
      });
      child.on('close', () => reject(new Error(`exited early: ${stderr}`)));
    });
    try {
      await use(url);
    } finally {
      child.kill(signal);
    }
    return { ...(await exited), stdout, stderr };
  }

  it('prints its URL, serves, and stops on Ctrl-C with exit 0', async () => {
    const dir = tempDir();
    writeSite(dir.path);
    try {
      const r = await withServe([dir.path, '--port', '0'], 'SIGINT', async (url) => {
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
        expect(title((await get(url, '/guides/intro')).body)).toBe('Intro');
      });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(
        /^Serving .* on http:\/\/127\.0\.0\.1:\d+\/ \(no directory listings, 404\.html for missing pages\)\. Stop with Ctrl-C\.\n$/,
      );
    } finally {
      dir.cleanup();
    }
  });

  it('stops on SIGTERM', async () => {
    const dir = tempDir();
    writeSite(dir.path);
    try {
      const r = await withServe([dir.path, '--port', '0'], 'SIGTERM', async () => undefined);
      expect(r.code === 143 || r.code === 0 || r.signal === 'SIGTERM').toBe(true);
    } finally {
      dir.cleanup();
    }
  });

  it('refuses a port that is taken, with exit 2', async () => {
    const dir = tempDir();
    writeSite(dir.path);
    try {
      await withServe([dir.path, '--port', '0'], 'SIGINT', async (url) => {
        const port = new URL(url).port;
        const { runCli } = await import('../helpers/cli.js');
        const r = await runCli(['export', 'serve', dir.path, '--port', port]);
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(`error: port ${port} on 127.0.0.1 is in use; pass --port <n> (0 picks a free one)\n`);
      });
    } finally {
      dir.cleanup();
    }
  });
});

describe('export serve while the site changes under it', () => {
  const base = tempDir('mint-admin-serve-race-');
  const site = join(base.path, 'site');
  const outside = join(base.path, 'outside');
  const INSIDE = '<title>inside</title>';
  const NOT_FOUND = '<title>not found</title>';
  const OUTSIDE = `<title>OUTSIDE</title>${'x'.repeat(5000)}`;
  let server: SiteServer;
  beforeAll(async () => {
    mkdirSync(join(site, 'dir'), { recursive: true });
    mkdirSync(join(outside, 'dir'), { recursive: true });
    writeFileSync(join(site, 'index.html'), 'home');
    writeFileSync(join(site, '404.html'), NOT_FOUND);
    writeFileSync(join(site, 'dir', 'page.html'), INSIDE);
    writeFileSync(join(outside, 'dir', 'page.html'), OUTSIDE);
    server = await startSiteServer({ root: await checkSiteDirectory(site), basePath: '', host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server.close();
    base.cleanup();
  });

  it('never sends a file outside the root, nor a length from one file and bytes from another, while a directory is swapped for a symbolic link', async () => {
    // Another process swaps site/dir for a link to outside/dir and back, as fast as it can, so the
    // swap lands between any two steps of the server's own.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); const [dir, held, target] = process.argv.slice(1);
         for (;;) { try { fs.renameSync(dir, held); fs.symlinkSync(target, dir); fs.unlinkSync(dir); fs.renameSync(held, dir); } catch {} }`,
        join(site, 'dir'),
        join(site, 'dir.held'),
        join(outside, 'dir'),
      ],
      { stdio: 'ignore' },
    );
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const answers: Answer[] = [];
    try {
      let left = 1000;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (left-- > 0) {
            // A body longer than its Content-Length breaks the next answer on the connection: count it.
            answers.push(
              await get(server.url, '/dir/page', 'GET', agent).catch((e: Error) => ({
                status: -1,
                headers: {},
                body: e.message,
                bytes: -1,
              })),
            );
          }
        }),
      );
    } finally {
      swapper.kill('SIGKILL');
      agent.destroy();
    }
    const served = answers.filter((a) => a.status === 200);
    const broken = {
      connections: answers.filter((a) => a.status === -1).length,
      outside: answers.filter((a) => a.body.includes('OUTSIDE')).length,
      lengths: answers.filter(
        (a) => a.headers['content-length'] !== undefined && Number(a.headers['content-length']) !== a.bytes,
      ).length,
    };
    expect(broken).toEqual({ connections: 0, outside: 0, lengths: 0 });
    expect(served.every((a) => a.body === INSIDE)).toBe(true);
    expect(answers.every((a) => a.status !== 404 || a.body === NOT_FOUND)).toBe(true);
    // Both the swapped and the unswapped states were seen, so the loop raced the server.
    expect(served.length).toBeGreaterThan(0);
    expect(answers.some((a) => a.status === 404)).toBe(true);
  });
  it('cuts the connection, rather than end an answer short of its Content-Length, when the file shrinks while it is sent', async () => {
    const big = join(site, 'big.bin');
    const size = 64 * 1024 * 1024;
    writeFileSync(big, '');
    truncateSync(big, size); // sparse: no disk written
    writeFileSync(join(site, 'small.txt'), 'small');
    const { hostname, port } = new URL(server.url);
    // Two requests on one connection: an answer short of its length would run into the next one.
    const socket = connect(Number(port), hostname, () =>
      socket.write('GET /big.bin HTTP/1.1\r\nHost: preview\r\n\r\nGET /small.txt HTTP/1.1\r\nHost: preview\r\n\r\n'),
    );
    const received = await new Promise<string>((resolve) => {
      let text = '';
      let shrunk = false;
      socket.on('data', (c: Buffer) => {
        text += c.toString('latin1');
        if (!shrunk && text.includes('\r\n\r\n')) {
          // The headers are out, so the file was opened and measured: now it shrinks.
          shrunk = true;
          truncateSync(big, 10);
        }
        if (text.endsWith('small')) socket.destroy();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', () => undefined);
    });
    const head = received.slice(0, received.indexOf('\r\n\r\n'));
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 200 OK\\r\\n[\\s\\S]*content-length: ${size}`, 'i'));
    expect(received.length - head.length - 4).toBeLessThan(size);
    expect(received.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(1);
  });
});

describe('mint-admin export serve, downloads the client abandons', () => {
  const fds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

  it.skipIf(!existsSync('/proc/self/fd'))('closes the file of each download abandoned after the headers', async () => {
    const dir = tempDir();
    writeSite(dir.path);
    // Larger than the socket buffers, so every download is still sending when its client goes.
    writeFileSync(join(dir.path, 'big.bin'), Buffer.alloc(16 * 1024 * 1024, 7));
    const child = spawn(process.execPath, [CLI, 'export', 'serve', dir.path, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (c: string) => {
          out += c;
          if (out.endsWith('\n')) resolve(out.trim());
        });
        child.on('close', () => reject(new Error('exited early')));
      });
      const { hostname, port } = new URL(url);
      /** One download: read up to the end of the headers, then drop the connection. */
      const abandon = () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(Number(port), hostname, () =>
            socket.write('GET /big.bin HTTP/1.1\r\nHost: preview\r\n\r\n'),
          );
          let head = '';
          socket.on('data', (c: Buffer) => {
            head += c.toString('latin1');
            if (head.includes('\r\n\r\n')) {
              expect(head).toMatch(/^HTTP\/1\.1 200 /);
              socket.destroy();
              resolve();
            }
          });
          socket.on('error', reject);
        });
      await abandon();
      const baseline = fds(child.pid!);
      for (let round = 0; round < 5; round++) await Promise.all(Array.from({ length: 20 }, abandon));
      // The server closes sockets and files as it notices the clients gone: wait for that, boundedly.
      let open = fds(child.pid!);
      for (let i = 0; i < 100 && open > baseline + 3; i++) {
        await new Promise((r) => setTimeout(r, 20));
        open = fds(child.pid!);
      }
      expect(open).toBeLessThanOrEqual(baseline + 3);
      // And it still answers.
      expect((await get(url, '/')).status).toBe(200);
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => (child.exitCode === null ? child.on('close', r) : r(undefined)));
      dir.cleanup();
    }
  });
});

describe('mint-admin export serve at its descriptor limit', () => {
  it('answers 500, not 404, when it has no descriptor left to open a page', async () => {
    const dir = tempDir();
    writeSite(dir.path);
    // A small limit, reached by holding connections open one at a time: at some connection the
    // server can still accept but no longer open the page.
    const child = spawn(
      'sh',
      ['-c', 'ulimit -n 64 && exec "$0" "$@"', process.execPath, CLI, 'export', 'serve', dir.path, '--port', '0'],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const held: Array<ReturnType<typeof connect>> = [];
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (c: string) => {
          out += c;
          if (out.endsWith('\n')) resolve(out.trim());
        });
        child.on('close', () => reject(new Error('exited early')));
      });
      const { hostname, port } = new URL(url);
      /** The status line of one answer on a new connection that stays open, or '' if the connection closes first. */
      const ask = () =>
        new Promise<string>((resolve) => {
          const socket = connect(Number(port), hostname, () =>
            socket.write('GET /guides/intro HTTP/1.1\r\nHost: preview\r\n\r\n'),
          );
          held.push(socket);
          let head = '';
          socket.on('data', (c: Buffer) => {
            head += c.toString('latin1');
            if (head.includes('\r\n')) resolve(head.slice(0, head.indexOf('\r\n')));
          });
          socket.on('error', () => resolve(''));
          socket.on('close', () => resolve(head.split('\r\n')[0] ?? ''));
        });
      // The file of an answer is closed just after it is sent, so a round can miss the moment with one
      // descriptor left; then free one and go again, until some answer is not a 200.
      const statuses: string[] = [];
      const failed = () => statuses.filter((s) => s !== 'HTTP/1.1 200 OK' && s !== '');
      for (let round = 0; round < 20 && failed().length === 0; round++) {
        for (let i = 0; i < 100; i++) {
          const status = await ask();
          statuses.push(status);
          if (status !== 'HTTP/1.1 200 OK') break;
        }
        held.shift()?.destroy();
      }
      expect(statuses[0]).toBe('HTTP/1.1 200 OK');
      expect(failed()).toEqual(['HTTP/1.1 500 Internal Server Error']);
    } finally {
      for (const socket of held) socket.destroy();
      child.kill('SIGINT');
      await new Promise((r) => (child.exitCode === null ? child.on('close', r) : r(undefined)));
      dir.cleanup();
    }
  });
});
