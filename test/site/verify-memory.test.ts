// `export verify` keeps what it must for the whole run (the file list, each page's anchors, the links
// into other pages' anchors) in memory that grows little with the site. Measured as what survives a
// full collection (the heap, and the typed arrays' memory outside it) when the last page has been
// checked, everything the run keeps then being alive, on a site of 2,000 pages and one of 12,000:
// bytes, not time, so a loaded machine changes the run's length but not what it keeps. The pages are
// small (a few links and anchors each), so that 14,000 of them are written and checked in seconds.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { verifySite } from '../../src/site/verify.js';
import { tempDir } from '../helpers/cli.js';

const dirs: Array<{ cleanup: () => void }> = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const pathOf = (i: number) => (i === 0 ? 'index.html' : `section-${i % 50}/page-${i}.html`);
const urlOf = (i: number) => (i === 0 ? '/' : `/section-${i % 50}/page-${i}`);

/** A site of `pages` small pages, linked to each other and into each other's anchors; one page in 500 holds a broken link. */
function site(pages: number): string {
  const dir = tempDir('mint-admin-verify-memory-');
  dirs.push(dir);
  for (let i = 0; i < pages; i++) {
    const others = [1, 2, 3].map((k) => (i * 7919 + k * 104_729) % pages);
    const broken = i % 500 === 1 ? `<a href="/section-0/gone-${i}">gone</a>` : '';
    const file = join(dir.path, pathOf(i));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      `<link rel="stylesheet" href="/app.css"><h1 id="top-${i}">Page ${i}</h1><h2 id="install">Install</h2><a name="legacy"></a>` +
        `${others.map((o) => `<a href="${urlOf(o)}">next</a>`).join('')}<a href="${urlOf(others[0]!)}#install">install</a><a href="#install">here</a>${broken}`,
    );
  }
  writeFileSync(join(dir.path, 'app.css'), 'body { color: black }');
  return dir.path;
}

/** What is alive: the heap, and the ArrayBuffers' memory outside it (where typed arrays keep their data). */
function alive(): number {
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** Bytes alive when verify has checked the last file of the site, above what was alive before it began. */
async function keptAtTheEnd(root: string, pages: number): Promise<{ bytes: number; problems: number }> {
  const before = alive();
  let bytes = -1;
  const report = await verifySite({
    directory: root,
    basePath: '',
    onProgress: (checked, total) => {
      if (checked === total) bytes = alive() - before;
    },
  });
  expect(report.pages).toBe(pages);
  return { bytes, problems: report.problemCount };
}

describe('export verify: memory as the site grows', () => {
  it('keeps under 175 bytes a page more on 12,000 pages than on 2,000', async () => {
    const small = site(2000);
    const large = site(12_000);
    // Warm (the modules compiled, the parse optimized), so neither size pays for it. Each size twice,
    // the lesser kept: what else the process holds at the moment (a test runner's own work) only adds.
    await keptAtTheEnd(small, 2000);
    const least = (runs: Array<{ bytes: number; problems: number }>) =>
      runs.reduce((x, y) => (y.bytes < x.bytes ? y : x));
    const a = least([await keptAtTheEnd(small, 2000), await keptAtTheEnd(small, 2000)]);
    const b = least([await keptAtTheEnd(large, 12_000), await keptAtTheEnd(large, 12_000)]);
    // The findings, still exact: one broken link in 500 pages.
    expect([a.problems, b.problems]).toEqual([4, 24]);
    const perPage = (b.bytes - a.bytes) / 10_000;
    expect(
      perPage,
      `${(a.bytes / 1048576).toFixed(2)} MB kept on 2,000 pages, ${(b.bytes / 1048576).toFixed(2)} MB on 12,000`,
    ).toBeLessThan(175);
  }, 60_000);
});
