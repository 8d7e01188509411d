import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cssUrls, srcsetUrls } from '../../src/site/references.js';
import { normalizeBasePath, parseUrlPath } from '../../src/site/resolve.js';
import { OFFLINE_NOTE, verifySite } from '../../src/site/verify.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { DOMAIN, writeSite } from './fixture.js';

const dirs: Array<{ cleanup: () => void }> = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
function site(opts: Parameters<typeof writeSite>[1] = {}) {
  const dir = tempDir('mint-admin-site-');
  dirs.push(dir);
  const planted = writeSite(dir.path, opts);
  return { root: dir.path, planted };
}

describe('URL resolution (shared by verify and serve)', () => {
  it.each([
    ['the home page', '/', '', ['index.html']],
    ['an extensionless page', '/guides/intro', '', ['guides/intro', 'guides/intro.html', 'guides/intro/index.html']],
    ['a trailing slash: the directory index only', '/guides/', '', ['guides/index.html']],
    ['query and fragment ignored', '/a?x=1#y', '', ['a', 'a.html', 'a/index.html']],
    [
      'percent-decoding, segment by segment',
      '/with%20space',
      '',
      ['with space', 'with space.html', 'with space/index.html'],
    ],
    ['the base path taken off', '/docs/a', '/docs', ['a', 'a.html', 'a/index.html']],
    ['the base path with a slash is the home page', '/docs/', '/docs', ['index.html']],
    ['the base path alone is the home page', '/docs', '/docs', ['index.html']],
  ])('%s', (_name, path, basePath, candidates) => {
    expect(parseUrlPath(path, basePath)).toEqual({ kind: 'site', candidates });
  });

  it.each([
    ['a .. segment', '/a/../../etc/passwd', 'a .. segment'],
    ['an encoded ..', '/%2e%2e/%2E%2E/etc/passwd', 'a .. segment'],
    ['an encoded slash', '/..%2f..%2fetc/passwd', 'an encoded slash'],
    ['an encoded backslash', '/..%5cetc', 'an encoded slash'],
    ['a NUL', '/index.html%00.png', 'a NUL byte'],
    ['bad percent-encoding', '/%zz', 'bad percent-encoding'],
  ])('refuses %s', (_name, path, reason) => {
    expect(parseUrlPath(path, '')).toEqual({ kind: 'refused', reason });
  });

  it('says when a path is outside the base path', () => {
    expect(parseUrlPath('/documentation/a', '/docs')).toEqual({ kind: 'outside-base' });
    expect(parseUrlPath('/a', '/docs')).toEqual({ kind: 'outside-base' });
  });

  it.each([
    [undefined, ''],
    ['', ''],
    ['/', ''],
    ['docs', '/docs'],
    ['/docs/', '/docs'],
    ['/en/docs', '/en/docs'],
  ])('normalizes --base-path %j to %j', (input, expected) => expect(normalizeBasePath(input)).toBe(expected));

  it.each(['/../x', '/a b', '/a?b', '//x/../y'])('refuses --base-path %j', (input) => {
    expect(() => normalizeBasePath(input)).toThrow(/--base-path: .* is not a URL path prefix/);
  });
});

describe('reference extraction', () => {
  it.each([
    ['descriptors', 'a.png 1x, b.png 2x', ['a.png', 'b.png']],
    ['no spaces after commas', 'a.png 1x,b.png 2x', ['a.png', 'b.png']],
    ['widths', '/img/a-640.png 640w, /img/a-1280.png 1280w', ['/img/a-640.png', '/img/a-1280.png']],
    ['a single URL', 'only.png', ['only.png']],
    ['a comma inside a URL', 'a,b.png 1x', ['a,b.png']],
  ])('srcset with %s', (_name, srcset, urls) => expect(srcsetUrls(srcset)).toEqual(urls));

  it('finds url() in every quoting and @import', () => {
    expect(
      cssUrls(`a{b:url(x.png)} c{d:url( "y.png" )} e{f:url('z.woff2')} @import "base.css"; @import 'more.css';`),
    ).toEqual(['x.png', 'y.png', 'z.woff2', 'base.css', 'more.css']);
  });
});

describe('verifySite', () => {
  it('finds nothing on a clean site and counts what it checked', async () => {
    const { root } = site();
    const report = await verifySite({ directory: root, basePath: '' });
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ pages: 5, files: 12, externalLinks: 2, sitemapEntries: 3, notes: [OFFLINE_NOTE] });
  });

  it('finds each planted problem, and nothing else', async () => {
    const { root, planted } = site({ plant: true });
    expect(planted.length).toBe(6);
    expect((await verifySite({ directory: root, basePath: '' })).problems).toEqual(planted);
  });

  it('honours a base path: links must carry it, and links without it are reported', async () => {
    const { root, planted } = site({ basePath: '/docs', plant: true });
    expect(planted.map((p) => p.kind)).toContain('outside-base-path');
    expect((await verifySite({ directory: root, basePath: '/docs' })).problems).toEqual(planted);
  });

  it('a clean site built for a base path is clean under it, and broken without it', async () => {
    const { root } = site({ basePath: '/docs' });
    expect((await verifySite({ directory: root, basePath: '/docs' })).problems).toEqual([]);
    const withoutBase = await verifySite({ directory: root, basePath: '' });
    expect(withoutBase.problems).toContainEqual({
      page: 'index.html',
      target: '/docs/guides/intro',
      kind: 'broken-link',
    });
  });

  it("treats absolute links to the sitemap's host as internal", async () => {
    const { root } = site();
    writeFileSync(join(root, 'extra.html'), `<a href="https://${DOMAIN}/nowhere">x</a>`);
    expect((await verifySite({ directory: root, basePath: '' })).problems).toEqual([
      { page: 'extra.html', target: `https://${DOMAIN}/nowhere`, kind: 'broken-link' },
    ]);
  });

  it('does not count a symbolic link that leads out of the site', async () => {
    const { root } = site();
    const outside = tempDir();
    dirs.push(outside);
    writeFileSync(join(outside.path, 'secret.html'), 'secret');
    symlinkSync(join(outside.path, 'secret.html'), join(root, 'secret.html'));
    writeFileSync(join(root, 'extra.html'), '<a href="/secret">x</a>');
    expect((await verifySite({ directory: root, basePath: '' })).problems).toEqual([
      { page: 'extra.html', target: '/secret', kind: 'broken-link' },
    ]);
  });
});

describe('mint-admin export verify', () => {
  it('exits 0 on a clean site, with the summary and the offline note on stderr', async () => {
    const { root } = site();
    const r = await runCli(['export', 'verify', root]);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toBe(
      'Checked 5 pages, 12 files in all, 25 internal references, 3 sitemap entries: no problems; 2 external links not checked (offline)\n' +
        `Note: ${OFFLINE_NOTE}\n`,
    );
  });

  it('lists one line per problem on stdout and exits 4', async () => {
    const { root, planted } = site({ plant: true });
    const r = await runCli(['export', 'verify', root]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe(planted.map((p) => `${p.page}: ${p.kind} ${p.target}\n`).join(''));
    expect(r.stderr).toMatch(/: 6 problems; 2 external links not checked \(offline\)\n/);
    expect(r.stderr).toMatch(
      new RegExp(`error: 6 problems in ${root}; fix the export or its links and verify again\n$`),
    );
  });

  it('--json prints the report and still exits 4', async () => {
    const { root, planted } = site({ basePath: '/docs', plant: true });
    const r = await runCli(['export', 'verify', root, '--base-path', 'docs/', '--json']);
    expect(r.code).toBe(4);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      basePath: '/docs',
      pages: 5,
      externalLinks: 2,
      sitemapEntries: 4,
      problems: planted,
      notes: [OFFLINE_NOTE],
    });
  });

  it.each([
    [
      'a missing directory',
      ['/nonexistent/site'],
      /error: \/nonexistent\/site does not exist; give the directory an export was extracted into/,
    ],
    ['a bad base path', ['.', '--base-path', '/a b'], /error: --base-path: "\/a b" is not a URL path prefix/],
  ])('refuses %s with exit 2', async (_name, args, message) => {
    const r = await runCli(['export', 'verify', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
