// `export verify` on a generated site of 300 pages (bench/site-generator.mjs, the bench's own sites)
// with planted broken links, missing images, stylesheets and scripts, bad #fragments (of the page
// itself and of other pages; the good ones use id= and name=) and sitemap entries of missing pages:
// it must report exactly what was planted, nothing more.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSite } from '../../bench/site-generator.mjs';
import { verifySite, type Problem } from '../../src/site/verify.js';
import { tempDir } from '../helpers/cli.js';

const dirs: Array<{ cleanup: () => void }> = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

const byPlace = (a: Problem, b: Problem) => (a.page + ' ' + a.target).localeCompare(b.page + ' ' + b.target);

function plantedSite(pages: number, seed: number): { root: string; planted: Problem[] } {
  const dir = tempDir('mint-admin-planted-');
  dirs.push(dir);
  const planted = (generateSite(dir.path, { pages, seed }) as Array<Problem & { plantedAs: string }>).map(
    ({ page, target, kind }) => ({ page, target, kind }),
  );
  return { root: dir.path, planted };
}

describe('export verify on a generated site with planted problems', () => {
  it.each([1, 2])('finds exactly what was planted (seed %i)', async (seed) => {
    const { root, planted } = plantedSite(300, seed);
    const kinds = new Set(planted.map((p) => p.kind));
    expect([...kinds].sort()).toEqual(['broken-fragment', 'broken-link', 'missing-asset', 'missing-sitemap-entry']);

    const report = await verifySite({ directory: root, basePath: '', listLimit: 10_000 });

    expect(report.pages).toBe(300);
    expect(report.problemCount).toBe(planted.length);
    expect([...report.problems].sort(byPlace)).toEqual([...planted].sort(byPlace));
  });

  it('counts every problem when it lists only the first few', async () => {
    const { root, planted } = plantedSite(300, 4);
    const report = await verifySite({ directory: root, basePath: '', listLimit: 5 });
    expect(report.problemCount).toBe(planted.length);
    expect(report.problems).toHaveLength(5);
    expect(report.truncated).toBe(true);
  });

  it('the generator is deterministic by seed: the same bytes and the same list', () => {
    const [a, b, c] = [plantedSite(50, 9), plantedSite(50, 9), plantedSite(50, 10)];
    expect(b.planted).toEqual(a.planted);
    for (const file of ['index.html', 's-0/p-7.html', 'sitemap.xml'])
      expect(readFileSync(join(b.root, file), 'utf8')).toBe(readFileSync(join(a.root, file), 'utf8'));
    expect(c.planted).not.toEqual(a.planted);
  });

  it('lists problems in the same order every run', async () => {
    const { root } = plantedSite(300, 3);
    const first = await verifySite({ directory: root, basePath: '' });
    const second = await verifySite({ directory: root, basePath: '', concurrency: 3 });
    expect(second.problems).toEqual(first.problems);
  });
});

describe('#fragments as the HTML spec finds them', () => {
  it('accepts #top, the empty fragment, percent-encoded ids and files that are not pages; reports the rest', async () => {
    const dir = tempDir('mint-admin-fragments-');
    dirs.push(dir);
    mkdirSync(join(dir.path, 'files'));
    writeFileSync(join(dir.path, 'files/guide.pdf'), '%PDF');
    writeFileSync(
      join(dir.path, 'index.html'),
      '<a href="#top">top</a><a href="#">empty</a><a href="#caf%C3%A9">encoded</a><h2 id="café">Café</h2>' +
        '<a href="/files/guide.pdf#page=2">pdf</a><a href="/other#Named">case differs</a><a href="other.html#named">named</a><a href="#later">defined after the link</a><p id="later"></p>',
    );
    writeFileSync(
      join(dir.path, 'other.html'),
      '<a name="named"></a><div name="not-an-anchor"></div><a href="/#not-an-anchor">div name</a>',
    );

    const report = await verifySite({ directory: dir.path, basePath: '' });

    expect(report.problems).toEqual([
      { page: 'index.html', target: '/other#Named', kind: 'broken-fragment' },
      { page: 'other.html', target: '/#not-an-anchor', kind: 'broken-fragment' },
    ]);
  });
});
