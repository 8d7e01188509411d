// Memory figures quoted outside docs/performance.md must be the ones it measured last: a reader who
// finds 76 MB in one page and 117 MB in another cannot tell which to believe. CHANGELOG.md is history:
// it keeps what each release measured.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(`${root}${file}`, 'utf8');
const performance = read('docs/performance.md');

/** A figure from a row of performance.md's result tables, in MB, rounded as the other pages quote it. */
function measured(row: string): number {
  const match = new RegExp(`^\\| ${row.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\| ([\\d.]+) MB \\|`, 'm').exec(
    performance,
  );
  if (!match) throw new Error(`docs/performance.md has no row "${row}"`);
  return Math.round(Number(match[1]));
}

describe('memory figures agree with docs/performance.md', () => {
  const small = measured('peak RSS, 50 MB archive');
  const large = measured('peak RSS, 499 MB archive');
  const searchesGrowth = measured('peak RSS growth 20k -> 100k (must be < 20 MB)');
  const searchesLarge = measured('peak RSS, 100,000 terms');

  it.each([
    ['README.md', `| ${small} / ${large} MB |`],
    ['docs/export.md', `${small} MB for a 50 MB bundle, ${large} MB for a 500 MB one`],
    ['docs/analytics.md', `peak RSS ${searchesLarge} MB for 100,000 terms, ${searchesGrowth} MB more than for 20,000`],
  ])('%s quotes the latest measurement', (file, text) => {
    expect(read(file).replace(/\s+/g, ' ')).toContain(text);
  });

  it.each(['README.md', 'docs/export.md', 'docs/analytics.md'])('%s quotes no other peak for a bundle', (file) => {
    const quoted = [
      ...read(file)
        .replace(/\s+/g, ' ')
        .matchAll(/(\d+) MB for a (?:50|500) MB (?:bundle|one)/g),
    ].map((m) => Number(m[1]));
    for (const figure of quoted) expect([small, large]).toContain(figure);
  });
});
