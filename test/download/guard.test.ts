import { describe, expect, it } from 'vitest';
import { EntryGuard, type EntryInfo } from '../../src/download/guard.js';

const file = (path: string, size = 10): EntryInfo => ({ path, type: 'File', size });
const dir = (path: string): EntryInfo => ({ path, type: 'Directory', size: 0 });
const symlink = (path: string, linkpath: string): EntryInfo => ({ path, type: 'SymbolicLink', linkpath, size: 0 });
const hardlink = (path: string, linkpath: string): EntryInfo => ({ path, type: 'Link', linkpath, size: 0 });
const special = (path: string, type: string): EntryInfo => ({ path, type, size: 0 });

/** Checks every entry in order and returns the first refusal (or undefined). */
function firstRefusal(entries: EntryInfo[]): string | undefined {
  const guard = new EntryGuard();
  for (const entry of entries) {
    const refusal = guard.check(entry);
    if (refusal) return refusal;
  }
  return undefined;
}

describe('entries that are refused', () => {
  it.each([
    ['a parent-directory path', [file('../x')], `entry "../x" has a '..' component`],
    ['a parent component in the middle', [file('a/../../x')], `entry "a/../../x" has a '..' component`],
    ['a Windows-style parent component', [file('a\\..\\..\\x')], `entry "a\\\\..\\\\..\\\\x" has a '..' component`],
    ['an absolute path', [file('/abs')], 'entry "/abs" has an absolute path'],
    ['a drive-letter path', [file('C:/x')], 'entry "C:/x" has an absolute path'],
    ['a file at the root of the tree', [file('./')], 'entry "./" has no name'],
    [
      'a symlink to an absolute path',
      [symlink('etc', '/etc')],
      'entry "etc" is a symlink to an absolute path ("/etc")',
    ],
    [
      'a symlink climbing out',
      [symlink('link', '../../outside')],
      'entry "link" is a symlink pointing outside the bundle ("../../outside")',
    ],
    [
      'a nested symlink climbing one level too many',
      [symlink('a/b/link', '../../../x')],
      'entry "a/b/link" is a symlink pointing outside the bundle ("../../../x")',
    ],
    [
      'a symlink going down then up',
      [symlink('link', 'sub/../..')],
      'entry "link" is a symlink whose target goes down then up ("sub/../..")',
    ],
    [
      'a file under an earlier symlink',
      [symlink('a', 'sub'), file('a/x')],
      'entry "a/x" is inside "a", which is a link',
    ],
    [
      'a file under a symlink of another case',
      [symlink('A', 'sub'), file('a/x')],
      'entry "a/x" is inside "a", which is a link',
    ],
    [
      'a hard link out of the tree',
      [hardlink('h', '../outside')],
      'entry "h" is a hard link to "../outside", outside the bundle',
    ],
    [
      'a hard link to an absolute path',
      [hardlink('h', '/etc/passwd')],
      'entry "h" is a hard link to "/etc/passwd", outside the bundle',
    ],
    [
      'a hard link to a symlink',
      [symlink('s', 'x'), hardlink('h', 's')],
      'entry "h" is a hard link to "s", which is not an earlier file of the bundle',
    ],
    [
      'a hard link to a later file',
      [hardlink('h', 'later'), file('later')],
      'entry "h" is a hard link to "later", which is not an earlier file of the bundle',
    ],
    [
      'a hard link through a symlink',
      [file('real/f'), symlink('s', 'real'), hardlink('h', 's/f')],
      'entry "h" is a hard link through another link ("s/f")',
    ],
    ['a FIFO', [special('pipe', 'FIFO')], 'entry "pipe" is a FIFO; only files, directories and links are allowed'],
    [
      'a character device',
      [special('tty', 'CharacterDevice')],
      'entry "tty" is a character device; only files, directories and links are allowed',
    ],
    [
      'a block device',
      [special('sda', 'BlockDevice')],
      'entry "sda" is a block device; only files, directories and links are allowed',
    ],
  ])('%s', (_name, entries, message) => {
    expect(firstRefusal(entries)).toBe(message);
  });
});

describe('types that cannot be extracted as they are, refused before their path is looked at', () => {
  it.each([
    [
      { path: '../x', type: 'File', size: 1, sparse: true },
      'entry "../x" is a sparse file (PAX GNU.sparse), which mint-admin cannot extract with its real contents',
    ],
    [
      { path: '/s', type: 'SparseFile', typeKey: 'S', size: 0 },
      'entry "/s" is a GNU sparse file, which mint-admin cannot extract with its real contents',
    ],
    [
      { path: 'label', type: 'TapeVolumeHeader', typeKey: 'V', size: 0 },
      'entry "label" is a TapeVolumeHeader entry (tar type \'V\'), which mint-admin does not extract',
    ],
    [
      { path: 'q', type: 'Unsupported', typeKey: 'Q', size: 0 },
      'entry "q" is of a tar entry type unknown to mint-admin, which it does not extract',
    ],
  ] satisfies [EntryInfo, string][])('%o', (entry, message) => {
    expect(new EntryGuard().check(entry)).toBe(message);
  });
});

describe('entries that are accepted', () => {
  it.each([
    ['plain files and directories', [dir('./'), dir('site/'), file('site/index.html'), file('./site/a.css')]],
    ['a symlink to a sibling', [file('assets/app.css'), symlink('app.css', 'assets/app.css')]],
    ['a symlink climbing within the tree', [symlink('docs/v1/latest', '../v2')]],
    ['a symlink to its own directory', [symlink('docs/self', '.')]],
    ['a hard link to an earlier file', [file('a.html'), hardlink('b.html', 'a.html')]],
    ['a directory entry after a symlink of that name', [symlink('a', 'b'), dir('a/')]],
  ])('%s', (_name, entries) => {
    expect(firstRefusal(entries)).toBeUndefined();
  });
});

describe('totals', () => {
  it('counts each regular file once, hard links included, and sums their sizes', () => {
    const guard = new EntryGuard();
    for (const entry of [
      dir('d/'),
      file('d/a', 100),
      file('d/b', 20),
      file('d/a', 30),
      hardlink('d/c', 'd/b'),
      symlink('d/s', 'a'),
    ]) {
      expect(guard.check(entry)).toBeUndefined();
    }
    expect({ files: guard.fileCount, bytes: guard.totalBytes }).toEqual({ files: 3, bytes: 70 });
  });
});

describe('paths the guard lets through quickly', () => {
  // splitPath answers plain relative paths with one split and a scan; every other path takes the
  // checks one by one. This holds the two to the same verdicts, over paths made of the parts that
  // matter (dots, empty parts, backslashes, drives, NUL, leading slashes).
  const PARTS = ['a', 'b.c', '.x', '..y', 'y..', '.', '..', '', 'a\\..', '..\\b', 'C:', 'c:x', 'a\0b', 'é', 'A'];
  function reference(path: string): string | undefined {
    if (path.includes('\0')) return 'has a NUL byte in its name';
    if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return 'has an absolute path';
    const parts = path.split('/').filter((part) => part !== '' && part !== '.');
    if (parts.some((part) => part.split('\\').includes('..'))) return "has a '..' component";
    return parts.length === 0 ? 'has no name' : undefined;
  }
  it('gives the same verdict as the checks one by one for 20,000 generated paths', () => {
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 20_000; i++) {
      const parts = Array.from({ length: 1 + next(4) }, () => PARTS[next(PARTS.length)]!);
      const path = (next(5) === 0 ? '/' : '') + parts.join('/');
      const verdict = new EntryGuard().check({ path, type: 'File', size: 1 });
      const expected = reference(path);
      expect(verdict, path).toBe(expected === undefined ? undefined : `entry ${JSON.stringify(path)} ${expected}`);
    }
  });

  // Paths where a scan that drops `.` and empty components could go wrong.
  const TRICKY = [
    '',
    '.',
    '..',
    '...',
    './',
    './/',
    '/',
    '//',
    './.',
    '././a',
    './a',
    './/a',
    'a/./b',
    'a//b',
    'a/',
    'a//',
    'a/.',
    'a/..',
    'a/../b',
    './../a',
    '../a',
    '.a',
    'a.',
    '..a',
    'a..',
    'a/.b',
    'a/..b',
    'a/b..',
    '.../a',
    '/a',
    '/./a',
    '\\a',
    'a\\b',
    'a\\..\\b',
    '..\\a',
    'a\\..',
    'C:a',
    'c:/a',
    'C:',
    'a:b',
    '1:a',
    ':a',
    'ab:c',
    'a\0b',
    './a\0',
    '\0',
    'é',
    './é/ü',
    'ü/./页.html',
    'a/\u{1F600}/b',
    './section-3/page-12.html',
    'section-3/page-12.html',
    'docs/',
    './docs/',
  ];
  it.each(TRICKY)('gives %j the verdicts of the checks one by one', (path) => {
    const expected = reference(path);
    const message = (reason: string | undefined) =>
      reason === undefined ? undefined : `entry ${JSON.stringify(path)} ${reason}`;
    expect(new EntryGuard().check(file(path))).toBe(message(expected));
    expect(new EntryGuard().check(dir(path))).toBe(message(expected === 'has no name' ? undefined : expected));
  });

  it('gives a path the same key however it is spelled: totals, links and hard links', () => {
    const guard = new EntryGuard();
    for (const entry of [
      file('./a/b', 5),
      file('a/b', 6),
      file('a//./b', 7),
      dir('./a/'),
      file('./a/c', 1),
      hardlink('./h', 'a/./c'),
    ]) {
      expect(guard.check(entry)).toBeUndefined();
    }
    expect({ files: guard.fileCount, bytes: guard.totalBytes }).toEqual({ files: 3, bytes: 9 });
    expect(guard.check(symlink('./s/', 'a'))).toBeUndefined();
    expect(guard.check(file('s/x'))).toBe('entry "s/x" is inside "s", which is a link');
    expect(guard.check(file('./S//x'))).toBe('entry "./S//x" is inside "S", which is a link');
    expect(guard.check(hardlink('h2', './s/b'))).toBe('entry "h2" is a hard link through another link ("./s/b")');
    expect(guard.check(symlink('./a/./up', '..'))).toBeUndefined();
    expect(guard.check(symlink('./up2/', '..'))).toBe('entry "./up2/" is a symlink pointing outside the bundle ("..")');
  });
});
