// `export verify` on hostile sites (issue 28): many problems, stylesheets and attributes shaped to make
// a regex backtrack or a string grow without end. Wall bounds here are generous bounds on linear work
// (each case took minutes, or crashed, before), never benchmarks.
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CssUrlScanner } from '../../src/site/css-urls.js';
import { cssUrls, srcsetUrls } from '../../src/site/references.js';
import { verifySite } from '../../src/site/verify.js';
import { runCli, tempDir } from '../helpers/cli.js';

const dirs: Array<{ cleanup: () => void }> = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
function emptySite(): string {
  const dir = tempDir('mint-admin-site-');
  dirs.push(dir);
  writeFileSync(join(dir.path, 'index.html'), '<a href="/">home</a>');
  return dir.path;
}

/** A page with `count` links to pages that do not exist. */
function brokenLinks(count: number): string {
  let html = '';
  for (let i = 0; i < count; i++) html += `<a href="/missing-${i}">x</a>\n`;
  return html;
}

/** Writes `head`, then `repeat` `times` times, streamed so the test itself holds no large string. */
async function writeLarge(path: string, head: string, repeat: string, times: number): Promise<void> {
  const out = createWriteStream(path);
  out.write(head);
  const block = repeat.repeat(Math.max(1, Math.floor((1 << 20) / repeat.length)));
  const perBlock = block.length / repeat.length;
  for (let written = 0; written < times; written += perBlock) {
    if (!out.write(written + perBlock <= times ? block : repeat.repeat(times - written)))
      await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end(() => resolve()).on('error', reject));
}

// No clock here: a scanner that backtracks takes hours on 800 KB, so a regression never returns and the
// test fails on vitest's time limit; what each returns is checked so that the work is really done.
describe('reference extraction in linear time', () => {
  const KB800 = 800 * 1024;
  it.each([
    ['url( repeated', 'url('],
    ['url(" never closed', 'url("'],
    ["url(' never closed", "url('"],
    ['url( with spaces', 'url(   '],
    ['@import repeated', '@import '],
    ['@import " never closed', '@import "'],
  ])('an 800 KB stylesheet of %s', (_name, unit) => {
    const css = unit.repeat(Math.ceil(KB800 / unit.length));
    for (const url of cssUrls(css)) expect(css).toContain(url);
  });

  it('an 800 KB unquoted url( with no closing paren, and a long quoted one that closes', () => {
    const unclosed = `url(${'a'.repeat(KB800)}`;
    for (const url of cssUrls(unclosed)) expect(unclosed).toContain(url);
    expect(cssUrls(`url("${'a'.repeat(1000)}") url(b.png)`)).toEqual(['a'.repeat(1000), 'b.png']);
  });

  it('finds the same URLs whichever way the stylesheet is cut into chunks', () => {
    const css = `@import "a.css"; @IMPORT 'b.css'; x{y:URL( c.png )} z{w:url("d e.png")} bad{v:url(f g)} uurl(h.png) url() url(i.png`;
    const whole = cssUrls(css);
    expect(whole).toEqual(['a.css', 'b.css', 'c.png', 'd e.png', 'h.png']);
    for (let size = 1; size <= 7; size++) {
      const urls: string[] = [];
      const scanner = new CssUrlScanner((url) => urls.push(url));
      for (let i = 0; i < css.length; i += size) scanner.write(css.slice(i, i + size));
      scanner.end();
      expect(urls).toEqual(whole);
    }
  });

  it.each([
    ['commas inside one candidate', `a${','.repeat(KB800)}b`],
    ['only commas', ','.repeat(KB800)],
    ['a huge list', 'a.png 1x, '.repeat(KB800 / 10)],
    ['descriptors without end', `a.png ${'2x '.repeat(KB800 / 3)}`],
  ])('an 800 KB srcset of %s', (_name, srcset) => {
    for (const url of srcsetUrls(srcset)) expect(srcset).toContain(url);
  });
});

describe('problems beyond what is listed', () => {
  it('counts 130,000 problems on one page and lists the first 1,000', async () => {
    const root = emptySite();
    writeFileSync(join(root, 'many.html'), brokenLinks(130_000));
    const report = await verifySite({ directory: root, basePath: '' });
    expect(report.problemCount).toBe(130_000);
    expect(report.truncated).toBe(true);
    expect(report.problems.length).toBe(1000);
    expect(report.problems[0]).toEqual({ page: 'many.html', target: '/missing-0', kind: 'broken-link' });
    expect(report.problems[999]).toEqual({ page: 'many.html', target: '/missing-999', kind: 'broken-link' });
  }, 60_000);

  it('lists problems in file order whichever page finishes first, and counts them all', async () => {
    const root = emptySite();
    writeFileSync(join(root, 'a.html'), brokenLinks(3000));
    writeFileSync(join(root, 'b.html'), brokenLinks(2));
    writeFileSync(join(root, 'sitemap.xml'), '<urlset><url><loc>https://d.example/gone</loc></url></urlset>');
    const report = await verifySite({ directory: root, basePath: '', listLimit: 2 });
    expect(report).toMatchObject({ problemCount: 3003, truncated: true });
    expect(report.problems).toEqual([
      { page: 'sitemap.xml', target: 'https://d.example/gone', kind: 'missing-sitemap-entry' },
      { page: 'a.html', target: '/missing-0', kind: 'broken-link' },
    ]);
  });

  it('export verify prints 1,000 problems, says how many more there are, and exits 4; --json carries the count', async () => {
    const root = emptySite();
    writeFileSync(join(root, 'many.html'), brokenLinks(3000));
    const r = await runCli(['export', 'verify', root]);
    expect(r.code).toBe(4);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines.length).toBe(1000);
    expect(lines[999]).toBe('many.html: broken-link /missing-999');
    expect(r.stderr).toContain('and 2,000 more problems (not listed)\n');
    expect(r.stderr).toMatch(/: 3,000 problems; /);
    expect(r.stderr).toMatch(/error: 3,000 problems in .*; fix the export or its links and verify again\n$/);
    const json = await runCli(['export', 'verify', root, '--json']);
    expect(json.code).toBe(4);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ problemCount: 3000, truncated: true });
    expect(report.problems.length).toBe(1000);
  });
});

describe('bounded memory on values without end', () => {
  it('a 50 MB attribute never closed: found as a problem, within a 40 MB heap', async () => {
    const root = emptySite();
    await writeLarge(join(root, 'open.html'), '<p>start</p><a href="/x', 'x', 50 * 1024 * 1024);
    // Before the bound, the parser held the whole value as one string: more than this heap can hold.
    const r = await runCli(['export', 'verify', root], {
      env: { NODE_OPTIONS: '--max-old-space-size=40' },
      subprocess: true,
    });
    expect(r.stderr).not.toMatch(/heap out of memory|Invalid string length/);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^open\.html: overlong-reference \/xxxx.*\n$/);
  }, 60_000);

  it('a 50 MB stylesheet url( never closed: found, within a 40 MB heap', async () => {
    const root = emptySite();
    await writeLarge(join(root, 'open.css'), 'a { background: url(/x', 'x', 50 * 1024 * 1024);
    const r = await runCli(['export', 'verify', root], {
      env: { NODE_OPTIONS: '--max-old-space-size=40' },
      subprocess: true,
    });
    expect(r.stderr).not.toMatch(/heap out of memory|Invalid string length/);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^open\.css: overlong-reference \/xxxx.*\n$/);
  }, 60_000);

  it.each([
    ['a comment', '<!--', 'x'],
    ['a tag name', '<a', 'a'],
    ['an attribute name', '<a ', 'h'],
  ])(
    '%s of 50 MB that never ends: the page is reported, within a 40 MB heap',
    async (_name, head, repeat) => {
      const root = emptySite();
      await writeLarge(join(root, 'open.html'), `<a href="/gone">x</a>${head}`, repeat, 50 * 1024 * 1024);
      const r = await runCli(['export', 'verify', root], {
        env: { NODE_OPTIONS: '--max-old-space-size=40' },
        subprocess: true,
      });
      expect(r.stderr).not.toMatch(/heap out of memory|Invalid string length/);
      expect(r.code).toBe(4);
      expect(r.stdout).toBe(
        'open.html: broken-link /gone\nopen.html: overlong-markup a tag or comment of more than 16 MiB (the rest of the file was not checked)\n',
      );
    },
    60_000,
  );

  it('a large page of ordinary markup is read to its end: long text, a long script, a long comment that ends', async () => {
    const root = emptySite();
    const text = `<p>${'word '.repeat(4 * 1024 * 1024)}</p>`;
    const script = `<script>${'var a = 1; '.repeat(1024 * 1024)}</script>`;
    const comment = `<!-- ${'c'.repeat(8 * 1024 * 1024)} -->`;
    const image = `<img src="data:image/png;base64,${'A'.repeat(900 * 1024)}" alt="${'b'.repeat(900 * 1024)}">`;
    writeFileSync(join(root, 'big.html'), `${text}${script}${comment}${image}<a href="/at-the-end">x</a>`);
    const report = await verifySite({ directory: root, basePath: '' });
    expect(report.problems).toEqual([{ page: 'big.html', target: '/at-the-end', kind: 'broken-link' }]);
  });

  it('a sitemap <loc> of 20 MB that never closes is one problem, and the entries before it are checked', async () => {
    const root = emptySite();
    await writeLarge(
      join(root, 'sitemap.xml'),
      '<urlset><url><loc>https://d.example/</loc></url><url><loc>https://d.example/gone</loc></url><url><loc>https://d.example/',
      'z',
      20 * 1024 * 1024,
    );
    const report = await verifySite({ directory: root, basePath: '' });
    expect(report.problems.map((p) => [p.page, p.kind, p.target.slice(0, 24)])).toEqual([
      ['sitemap.xml', 'missing-sitemap-entry', 'https://d.example/gone'],
      ['sitemap.xml', 'overlong-reference', 'https://d.example/zzzzzz'],
    ]);
  });

  it('a reference over 64 KiB is a problem; a data: URL of any size is not', async () => {
    const root = emptySite();
    const long = `/${'y'.repeat(70 * 1024)}`;
    const data = `data:image/png;base64,${'A'.repeat(2 * 1024 * 1024)}`;
    writeFileSync(
      join(root, 'page.html'),
      `<a href="${long}">x</a><img src="${data}"><div style="background:url(${data})"></div>`,
    );
    writeFileSync(join(root, 'font.css'), `@font-face { src: url(${data}) } a { background: url("${long}") }`);
    const report = await verifySite({ directory: root, basePath: '' });
    expect(report.problems.map((p) => [p.page, p.kind, p.target.length < 200])).toEqual([
      ['font.css', 'overlong-reference', true],
      ['page.html', 'overlong-reference', true],
    ]);
    expect(report.problems[0]!.target).toMatch(/^\/yyyy.*… \(more than 64 KiB\)$/);
  });
});
