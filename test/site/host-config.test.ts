// The generated configs, proven by the servers themselves: nginx and Caddy are started on loopback
// ports against a generated site (CI installs both: .ci/run), and the CloudFront function runs in Node.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostConfig } from '../../src/site/hosts/index.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { externalProgram } from '../helpers/programs.js';
import { CSS, DOMAIN, writeSite } from './fixture.js';

// CI installs both servers (.ci/run); there a missing one is a failure, not a skip. nginx lives in
// /usr/sbin, which a user's PATH may lack: externalProgram looks there too.
const nginx = externalProgram('nginx', { installedByCi: true });
const caddy = externalProgram('caddy', { installedByCi: true });

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function fetchUntilUp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${log()}`);
    try {
      await fetch(url, { redirect: 'manual' });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server did not answer: ${log()}`);
}

const title = (body: string) => /<title>(.*?)<\/title>/.exec(body)?.[1];
const LONG = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=300, must-revalidate';

/** What both servers must do with the generated site, under a base path or not. */
function behaviour(base: () => string, bp: string) {
  it.each([
    ['the home page', `${bp}/`, 'Home'],
    ['an extensionless page', `${bp}/guides/intro`, 'Intro'],
    ['a directory index', `${bp}/guides/`, 'Guides'],
    ['a percent-encoded name', `${bp}/guides/with%20space`, 'With space'],
  ])('serves %s, with a short cache', async (_name, path, expected) => {
    const r = await fetch(base() + path);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.headers.get('cache-control')).toBe(SHORT);
    expect(title(await r.text())).toBe(expected);
  });

  it('compresses pages with gzip', async () => {
    const r = await fetch(`${base()}${bp}/`, { headers: { 'accept-encoding': 'gzip' } });
    expect(r.headers.get('content-encoding')).toBe('gzip');
    expect(title(await r.text())).toBe('Home');
  });

  it('caches hashed assets for a year', async () => {
    const r = await fetch(`${base()}${bp}/${CSS}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe(LONG);
    expect(await r.text()).toContain('background: url(../../../images/logo.png)');
  });

  it('answers a missing page with the 404 page and status 404', async () => {
    const r = await fetch(`${base()}${bp}/guides/nope`);
    expect(r.status).toBe(404);
    expect(title(await r.text())).toBe('Not found');
  });

  it('never lists a directory', async () => {
    const r = await fetch(`${base()}${bp}/images/`);
    expect(r.status).not.toBe(200);
    expect(await r.text()).not.toContain('logo.png');
  });

  if (bp !== '') {
    it('keeps the site under the base path', async () => {
      expect((await fetch(`${base()}/guides/intro`)).status).toBe(404);
    });
  }
}

/** An nginx.conf in dir that includes the server block, runnable without root privileges; returns its path. */
function writeNginxConf(dir: string, server: string): string {
  writeFileSync(join(dir, 'site.conf'), server);
  mkdirSync(join(dir, 'tmp'));
  const nginxConf = join(dir, 'nginx.conf');
  writeFileSync(
    nginxConf,
    // Workers as this user: run as root (CI), nginx would otherwise switch them to nobody, who cannot read a private temp dir.
    `daemon off;\nuser ${userInfo().username};\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  include /etc/nginx/mime.types;\n  access_log off;\n` +
      ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/tmp/${t};\n`).join('') +
      `  include ${dir}/site.conf;\n}\n`,
  );
  return nginxConf;
}

describe.each([
  ['', 'at the root'],
  ['/docs', 'under /docs'],
])('nginx%s (%s)', (bp) => {
  const enabled = nginx.path !== undefined;
  const dir = tempDir('mint-admin-nginx-');
  let child: ChildProcess;
  let base = '';
  let log = '';
  beforeAll(async () => {
    if (!enabled) return;
    const root = join(dir.path, 'site');
    writeSite(root, { basePath: bp });
    const port = await freePort();
    const generated = hostConfig('nginx', { root, domain: DOMAIN, basePath: bp });
    // The only change: listen on a loopback port instead of 80 (no root privileges in a test).
    const server = generated.replace('    listen 80;\n    listen [::]:80;\n', `    listen 127.0.0.1:${port};\n`);
    expect(server).not.toBe(generated);
    const nginxConf = writeNginxConf(dir.path, server);
    const test = spawnSync(nginx.path!, ['-t', '-p', dir.path, '-c', nginxConf], { encoding: 'utf8' });
    expect(test.stderr).toMatch(/syntax is ok[\s\S]*test is successful/);
    child = spawn(nginx.path!, ['-p', dir.path, '-c', nginxConf], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (log += c));
    base = `http://127.0.0.1:${port}`;
    await fetchUntilUp(base, child, () => log);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGQUIT');
      await new Promise((r) => child.on('close', r));
    }
    dir.cleanup();
  });
  if (!enabled) it.skip(`serves the site${nginx.skipNote}`, () => undefined);
  else behaviour(() => base, bp);
});

describe.each([
  ['', 'at the root'],
  ['/docs', 'under /docs'],
])('caddy%s (%s)', (bp) => {
  const enabled = caddy.path !== undefined;
  const dir = tempDir('mint-admin-caddy-');
  let child: ChildProcess;
  let base = '';
  let log = '';
  beforeAll(async () => {
    if (!enabled) return;
    const root = join(dir.path, 'site');
    writeSite(root, { basePath: bp });
    const port = await freePort();
    const generated = hostConfig('caddy', { root, domain: DOMAIN, basePath: bp });
    // The only changes: plain HTTP on a loopback port for the site address, no admin endpoint.
    const site = generated.replace(`\n${DOMAIN} {\n`, `\nhttp://127.0.0.1:${port} {\n`);
    expect(site).not.toBe(generated);
    const caddyfile = join(dir.path, 'Caddyfile');
    writeFileSync(caddyfile, `{\n\tadmin off\n\tstorage file_system ${dir.path}/data\n}\n${site}`);
    const env = {
      ...process.env,
      HOME: dir.path,
      XDG_DATA_HOME: join(dir.path, 'data'),
      XDG_CONFIG_HOME: join(dir.path, 'config'),
    };
    const validate = spawnSync(caddy.path!, ['validate', '--adapter', 'caddyfile', '--config', caddyfile], {
      encoding: 'utf8',
      env,
    });
    expect(validate.status, validate.stderr).toBe(0);
    child = spawn(caddy.path!, ['run', '--adapter', 'caddyfile', '--config', caddyfile], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env,
    });
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (log += c));
    base = `http://127.0.0.1:${port}`;
    await fetchUntilUp(base, child, () => log);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('close', r));
    }
    dir.cleanup();
  });
  if (!enabled) it.skip(`serves the site${caddy.skipNote}`, () => undefined);
  else behaviour(() => base, bp);
});

describe.each(['/', '//'])('--root %s, checked by the servers themselves', (root) => {
  it.skipIf(nginx.path === undefined)(`nginx -t accepts it${nginx.skipNote}`, () => {
    const dir = tempDir('mint-admin-nginx-');
    try {
      const server = hostConfig('nginx', { root, domain: DOMAIN, basePath: '' }).replace(
        '    listen 80;\n    listen [::]:80;\n',
        '    listen 127.0.0.1:8080;\n',
      );
      const test = spawnSync(nginx.path!, ['-t', '-p', dir.path, '-c', writeNginxConf(dir.path, server)], {
        encoding: 'utf8',
      });
      expect(test.stderr).toMatch(/syntax is ok[\s\S]*test is successful/);
    } finally {
      dir.cleanup();
    }
  });
  it.skipIf(caddy.path === undefined)(`caddy validate accepts it${caddy.skipNote}`, () => {
    const dir = tempDir('mint-admin-caddy-');
    try {
      const site = hostConfig('caddy', { root, domain: DOMAIN, basePath: '' }).replace(
        `\n${DOMAIN} {\n`,
        '\nhttp://127.0.0.1:8080 {\n',
      );
      const caddyfile = join(dir.path, 'Caddyfile');
      writeFileSync(caddyfile, `{\n\tadmin off\n\tstorage file_system ${dir.path}/data\n}\n${site}`);
      const env = {
        ...process.env,
        HOME: dir.path,
        XDG_DATA_HOME: join(dir.path, 'data'),
        XDG_CONFIG_HOME: join(dir.path, 'config'),
      };
      const validate = spawnSync(caddy.path!, ['validate', '--adapter', 'caddyfile', '--config', caddyfile], {
        encoding: 'utf8',
        env,
      });
      expect(validate.status, validate.stderr).toBe(0);
    } finally {
      dir.cleanup();
    }
  });
});

describe('the CloudFront function', () => {
  /** Evaluates the printed text as CloudFront would, and runs its handler on one URI. */
  function viewerRequest(basePath: string, uri: string): string {
    const code = hostConfig('cloudfront', { root: '/var/www/docs', domain: DOMAIN, basePath });
    const sandbox: { handler?: (event: unknown) => { uri: string } } = {};
    runInNewContext(`${code}\nthis.handler = handler;`, sandbox);
    return sandbox.handler!({ request: { uri, method: 'GET', headers: {}, querystring: {} } }).uri;
  }

  it.each([
    ['', '/', '/index.html'],
    ['', '/guides/intro', '/guides/intro.html'],
    ['', '/guides/', '/guides/index.html'],
    ['', `/${CSS}`, `/${CSS}`],
    ['', '/images/logo.png', '/images/logo.png'],
    ['', '/guides/with%20space', '/guides/with%20space.html'],
    ['/docs', '/docs', '/docs/index.html'],
    ['/docs', '/docs/', '/docs/index.html'],
    ['/docs', '/docs/guides/intro', '/docs/guides/intro.html'],
  ])('with base path %j, %s -> %s', (basePath, uri, expected) => {
    expect(viewerRequest(basePath, uri)).toBe(expected);
  });
});

describe('S3 and Apache', () => {
  it('S3: website settings with index and error documents, the extensionless copies, and the limits', () => {
    const text = hostConfig('s3', { root: '/srv/site', domain: DOMAIN, basePath: '/docs' });
    expect(text).toContain(
      `--website-configuration '{"IndexDocument":{"Suffix":"index.html"},"ErrorDocument":{"Key":"docs/404.html"}}'`,
    );
    expect(text).toContain(
      `aws s3 cp "$page" "s3://$BUCKET/docs/\${page%.html}" --content-type 'text/html; charset=utf-8'`,
    );
    expect(text).toMatch(/HTTP only: the website endpoint has no HTTPS/);
    expect(text).toMatch(/No compression/);
    expect(spawnSync('sh', ['-n'], { input: text }).status).toBe(0);
  });

  it('Apache: rewrite to .html only when the file is missing, no listings, the 404 page', () => {
    const text = hostConfig('apache', { root: '/srv/site', domain: DOMAIN, basePath: '' });
    expect(text).toContain('Options -Indexes -MultiViews');
    expect(text).toContain(
      'RewriteCond %{REQUEST_FILENAME} !-f\n        RewriteCond %{REQUEST_FILENAME}.html -f\n        RewriteRule ^(.+)$ $1.html [L]',
    );
    expect(text).toContain('ErrorDocument 404 /404.html');
    expect(text).toContain(`Header set Cache-Control "${LONG}"`);
  });
});

describe('mint-admin export host-config', () => {
  it('prints the config for the host on stdout', async () => {
    const r = await runCli([
      'export',
      'host-config',
      'nginx',
      '--root',
      '/srv/docs/',
      '--domain',
      'Docs.Example.com',
      '--base-path',
      'docs',
    ]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe(hostConfig('nginx', { root: '/srv/docs', domain: 'docs.example.com', basePath: '/docs' }));
  });

  it.each([
    [
      'an unknown host',
      ['iis'],
      /error: command-argument value 'iis' is invalid for argument 'host'\. Allowed choices are nginx, caddy, apache, cloudfront, s3\./,
    ],
    ['a relative root', ['nginx', '--root', 'site'], /error: --root: "site" must be an absolute path/],
    [
      'a root that would break the syntax',
      ['nginx', '--root', '/srv/x; }'],
      /error: --root: "\/srv\/x; }" must be an absolute path/,
    ],
    [
      'a bad domain',
      ['caddy', '--domain', 'docs example.com'],
      /error: --domain: "docs example.com" is not a host name/,
    ],
  ])('refuses %s with exit 2', async (_name, args, message) => {
    const r = await runCli(['export', 'host-config', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});

describe('mint-admin export host-config --root at the file system root', () => {
  // What each host needs to see for the directory `/`: an empty root (`root ;`, `DocumentRoot `) is
  // refused by nginx, Caddy and Apache, and `//_next` is not the path the sync means.
  const expected: Record<string, string[]> = {
    nginx: ['\n    root /;\n'],
    caddy: ['\troot * /\n', '\t\t\troot * /\n'],
    apache: ['\n    DocumentRoot /\n', '\n    <Directory />\n', 'Extract the export into /,'],
    s3: ["\nSITE='/'\n"],
    cloudfront: ['aws s3 sync / s3://', 'aws s3 sync /_next/static/ s3://'],
  };
  it.each(Object.keys(expected).flatMap((host) => ['/', '//', '///'].map((root) => [host, root])))(
    '%s with --root %s',
    async (host, root) => {
      const r = await runCli(['export', 'host-config', host, '--root', root]);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      for (const text of expected[host]!) expect(r.stdout).toContain(text);
      expect(r.stdout).not.toMatch(/root \*? ?;|DocumentRoot \n|<Directory >|'\/\/|\/\/_next|SITE=''/);
    },
  );

  it('collapses repeated slashes inside a root', async () => {
    const r = await runCli(['export', 'host-config', 'nginx', '--root', '//srv//docs//']);
    expect(r.stdout).toContain('\n    root /srv/docs;\n');
  });
});
