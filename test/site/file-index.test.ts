// The file list verify looks paths up in (src/site/file-index.ts): exact lookups whatever the paths
// hold, path order as strings order, and every file found again after its table grew.
import { describe, expect, it } from 'vitest';
import { FileIndex } from '../../src/site/file-index.js';

describe('FileIndex', () => {
  it('finds each of 50,000 paths by number and nothing else, across its growth', () => {
    const index = new FileIndex();
    const paths = Array.from({ length: 50_000 }, (_, i) => `section-${i % 37}/page-${i}.html`);
    paths.forEach((path, i) => expect(index.add(path)).toBe(i));
    index.trim();
    expect(index.count).toBe(50_000);
    for (let i = 0; i < paths.length; i += 997) {
      expect(index.find(paths[i]!)).toBe(i);
      expect(index.pathAt(i)).toBe(paths[i]);
    }
    expect(index.has('section-0/page-0.htm')).toBe(false);
    expect(index.has('section-0/page-0.html ')).toBe(false);
    expect(index.has('')).toBe(false);
    // Adding after trim() still works; a path added twice keeps its number.
    expect(index.add('late.html')).toBe(50_000);
    expect(index.add(paths[7]!)).toBe(7);
    expect(index.count).toBe(50_001);
  });

  it('keeps paths beyond Latin-1 exact, those added before them too', () => {
    const index = new FileIndex();
    const paths = ['café/index.html', 'docs/guide.html', '文档/入门.html', 'emoji/😀.html', 'ÿ.html'];
    for (const path of paths) index.add(path);
    paths.forEach((path, i) => {
      expect(index.find(path)).toBe(i);
      expect(index.pathAt(i)).toBe(path);
    });
    // A different character with the same low byte is another path.
    expect(index.has('\u0163.html')).toBe(false);
  });

  it('orders files as their paths compare as strings, and reads extensions in any case', () => {
    const index = new FileIndex();
    const paths = ['b.html', 'a/b.html', 'a.html', 'a', 'A.HTML', 'é.html', '\uffff.css', '😀.css', 'a/'];
    for (const path of paths) index.add(path);
    const order = paths.map((_, i) => i).sort((a, b) => index.compare(a, b));
    expect(order.map((i) => paths[i])).toEqual([...paths].sort());
    expect(paths.map((_, i) => index.endsWith(i, '.html'))).toEqual([
      true,
      true,
      true,
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('gives back a path longer than one fromCharCode call takes', () => {
    const index = new FileIndex();
    const long = `${'d/'.repeat(5000)}page.html`;
    index.add(long);
    expect(index.pathAt(0)).toBe(long);
    expect(index.find(long)).toBe(0);
  });
});
