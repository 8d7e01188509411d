// PAX headers read ahead of tar's parser (src/download/pax-ahead.ts) must change nothing but the
// time: every archive here, made by real GNU tar in each of its formats, by node-tar, and by hand
// where a careful packer would not go, is extracted with and without the reader, fed in chunks
// that cut it everywhere, and both must see the same entries (every field tar gives the guard),
// make the same tree (names, types, modes, contents, links, mtimes) and refuse it alike.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tar from 'tar';
import { afterEach, describe, expect, it } from 'vitest';
import { plainOctal, readPaxHeadersAhead, wellFormedSize } from '../../src/download/pax-ahead.js';
import { createExtraction } from '../../src/download/unpacker.js';
import { tempDir } from '../helpers/cli.js';
import { paxRecords, rawTar, type RawEntry } from '../helpers/tar-evil.js';
import { chunker, describeTree, GNU_TAR, gnuTar, NOW, writeSite } from '../helpers/tar-sites.js';

let root: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  root?.cleanup();
  root = undefined;
});

/** What one extraction saw and made. */
interface Outcome {
  entries: string[];
  refusal: string | undefined;
  errors: string[];
  tree: Record<string, string>;
  readAhead: number;
}

function extract(archive: Buffer, dir: string, paxAhead: boolean, nextSize: () => number): Outcome {
  mkdirSync(dir, { recursive: true });
  const extraction = createExtraction(tar, dir, { maxBytes: 1e9, maxEntries: 100_000, given: false, now: NOW }, undefined, { paxAhead });
  const entries: string[] = [];
  const errors: string[] = [];
  const record = (kind: string) => (entry: tar.ReadEntry) => entries.push(`${kind} ${describeEntry(entry)}`);
  extraction.unpack.on('entry', record('entry'));
  extraction.unpack.on('ignoredEntry', record('ignored'));
  extraction.unpack.on('meta', (text: string) => entries.push(`meta ${JSON.stringify(text)}`));
  extraction.unpack.on('error', (error: Error) => errors.push(error.message));
  extraction.unpack.on('warn', (code: string, message: string) => errors.push(`${code} ${message}`));
  try {
    for (let at = 0; at < archive.length; ) {
      const end = Math.min(archive.length, at + nextSize());
      extraction.unpack.write(archive.subarray(at, end));
      at = end;
    }
    extraction.unpack.end();
  } catch (error) {
    errors.push(`thrown: ${(error as Error).message}`);
  }
  return { entries, refusal: extraction.refusal(), errors, tree: describeTree(dir), readAhead: extraction.paxHeadersReadAhead() };
}

/** Every field tar gives an entry (the guard and the unpacker read some of them), and the extended headers it came with. */
function describeEntry(entry: tar.ReadEntry): string {
  const time = (date: Date | undefined) => (date instanceof Date ? date.getTime() : String(date));
  const { path, type, size, mode, uid, gid, uname, gname, linkpath, dev, ino, nlink, absolute } = entry;
  const extra = entry as unknown as Record<string, unknown>;
  return JSON.stringify({
    path, type, size, mode, uid, gid, uname, gname, linkpath, dev, ino, nlink, absolute,
    mtime: time(entry.mtime), atime: time(entry.atime), ctime: time(entry.ctime),
    charset: extra.charset, comment: extra.comment, global: extra.global,
    extended: entry.extended ? { ...entry.extended, mtime: time(entry.extended.mtime), atime: time(entry.extended.atime), ctime: time(entry.extended.ctime), class: classOf(entry.extended) } : undefined,
    globalExtended: entry.globalExtended ? { ...entry.globalExtended, class: classOf(entry.globalExtended) } : undefined,
    header: { path: entry.header.path, size: entry.header.size, mtime: time(entry.header.mtime), type: entry.header.type, linkpath: entry.header.linkpath },
  });
}

/** tar's Pax, or the bare object a GNU long name makes. */
function classOf(value: object): string {
  return (Object.getPrototypeOf(value) as { constructor?: { name: string } } | null)?.constructor?.name ?? 'null prototype';
}

/** Both ways, in chunks of whole blocks (as the live extraction's batches) and of any length (as tar's inflater gives them), must agree; returns how many headers the reader took. */
function expectSameBothWays(archive: Buffer, name: string): { readAhead: number; outcome: Outcome } {
  let readAhead = 0;
  let outcome: Outcome | undefined;
  for (const [label, blocks, seed] of [['whole blocks', true, 7], ['any length', false, 11]] as const) {
    const ours = extract(archive, join(root!.path, `${name}-${seed}-ahead`), true, chunker(seed, blocks));
    const theirs = extract(archive, join(root!.path, `${name}-${seed}-tar`), false, chunker(seed, blocks));
    const strip = (o: Outcome) => ({ ...o, readAhead: 0, entries: o.entries.map((e) => e.replaceAll(`${name}-${seed}-ahead`, '<dir>').replaceAll(`${name}-${seed}-tar`, '<dir>')) });
    expect(strip(ours), `${name}, ${label}`).toEqual(strip(theirs));
    expect(theirs.readAhead).toBe(0);
    readAhead += ours.readAhead;
    outcome = ours;
  }
  return { readAhead, outcome: outcome! };
}

describe('PAX headers read ahead of tar', () => {
  it('finds the tar internals it needs in the installed tar (a rename in a tar upgrade fails here, not silently)', () => {
    root = tempDir();
    expect(readPaxHeadersAhead(tar.x({ cwd: root.path, sync: true }), tar.Pax)).toBeDefined();
  });

  it.skipIf(!GNU_TAR)("extracts GNU tar's archives in every format exactly as tar's parser alone does, and reads their PAX headers itself", () => {
    root = tempDir();
    const site = join(root.path, 'site');
    writeSite(site, { beyondUstar: true });
    const pax = expectSameBothWays(gnuTar(['--format=pax'], site, join(root.path, 'pax.tar')), 'pax');
    // A PAX header per entry, twice over (two ways of cutting): the reader took most, the rest were cut by a chunk.
    const entries = pax.outcome.entries.filter((e) => e.startsWith('entry ')).length;
    expect(pax.readAhead).toBeGreaterThan(entries);
    expect(pax.outcome.refusal).toBeUndefined();
    expect(pax.outcome.tree['future.html']).toContain(`mtime=${BigInt(NOW) * 1_000_000n}`);
    // Sub-second, as tar sets it from the header's 1704164645.123 (a float: ...122.999 ms).
    expect(Number(/mtime=(\d+)/.exec(pax.outcome.tree['index.html']!)![1]) / 1e6).toBeCloseTo(1704164645123, -1);
    // A global header ('g', here GNU tar's comment) and a key tar does not know, in every header: tar reads those headers.
    expect(expectSameBothWays(gnuTar(['--format=pax', '--pax-option=comment=made-by-ci'], site, join(root.path, 'global.tar')), 'global').readAhead).toBeGreaterThan(0);
    expect(expectSameBothWays(gnuTar(['--format=pax', '--pax-option=build.id:=42'], site, join(root.path, 'unknown.tar')), 'unknown').readAhead).toBe(0);
    const gnu = expectSameBothWays(gnuTar(['--format=gnu'], site, join(root.path, 'gnu.tar')), 'gnu');
    expect(gnu.readAhead).toBe(0);
    // The same site from either format, but for the sub-second mtimes only PAX carries.
    const withoutMtimes = (tree: Record<string, string>) => Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, v.replace(/ mtime=\d+/, '')]));
    expect(withoutMtimes(gnu.outcome.tree)).toEqual(withoutMtimes(pax.outcome.tree));
    const ustarSite = join(root.path, 'ustar-site');
    writeSite(ustarSite, { beyondUstar: false });
    expectSameBothWays(gnuTar(['--format=ustar'], ustarSite, join(root.path, 'ustar.tar')), 'ustar');
  });

  it.skipIf(!GNU_TAR)('refuses a GNU tar sparse file alike (its GNU.sparse keys go to tar)', () => {
    root = tempDir();
    const site = join(root.path, 'site');
    mkdirSync(site);
    writeFileSync(join(site, 'index.html'), 'home\n');
    const sparse = join(site, 'sparse.bin');
    writeFileSync(sparse, '');
    spawnSync('truncate', ['-s', '2M', sparse]);
    writeFileSync(sparse, 'end', { flag: 'a' });
    const { outcome } = expectSameBothWays(gnuTar(['--format=pax', '--sparse'], site, join(root.path, 'sparse.tar')), 'sparse');
    expect(outcome.refusal).toMatch(/sparse/);
  });

  it("extracts node-tar's archives alike (no PAX headers but for long or unicode names)", async () => {
    root = tempDir();
    const site = join(root.path, 'site');
    // node-tar 7.5's asynchronous create never settles on a tree with a hard link in it.
    writeSite(site, { beyondUstar: true, hardLink: false });
    const file = join(root.path, 'node.tar');
    await tar.c({ cwd: site, file, portable: true }, ['.']);
    expect(expectSameBothWays(readFileSync(file), 'node').readAhead).toBeGreaterThan(0);
  });

  it('reads hand-made headers, hostile and odd, as tar does: the same entries, trees and refusals', () => {
    root = tempDir();
    const x = (records: Record<string, string> | string | Buffer, path = 'PaxHeader/x'): RawEntry => ({ type: 'raw', flag: 'x', path, content: typeof records === 'string' || Buffer.isBuffer(records) ? records : paxRecords(records) });
    const g = (records: Record<string, string>): RawEntry => ({ type: 'raw', flag: 'g', path: 'GlobalHead', content: paxRecords(records) });
    const file = (path: string, content = `${path}\n`): RawEntry => ({ type: 'file', path, content });
    const cases: Record<string, RawEntry[]> = {
      'a path and times': [x({ path: 'docs/a-long-name.html', mtime: '1700000000.987654321', atime: '1700000001.5', ctime: '1700000002' }), file('short')],
      'a link target': [file('target.html'), x({ linkpath: 'target.html' }), { type: 'symlink', path: 'link', target: 'x' }],
      'a hard link target': [file('target.html'), x({ linkpath: 'target.html', path: 'hard.html' }), { type: 'hardlink', path: 'h', target: 'x' }],
      'a path climbing out': [x({ path: '../evil.html' }), file('fine')],
      'an absolute path': [x({ path: '/etc/evil' }), file('fine')],
      'a link out of the tree': [x({ linkpath: '../../etc/passwd' }), { type: 'symlink', path: 'out', target: 'x' }],
      'a larger size': [x({ size: '20' }), file('grown', 'short\n'), file('after')],
      'uid, gid and names': [x({ uid: '3000000', gid: '3000001', uname: 'builder', gname: 'ci', mode: '4777', comment: 'hi', charset: 'ISO-IR 10646 2000 UTF-8', type: '5' }), file('owned')],
      'headers in a row, merged': [x({ path: 'first-name' }), x({ mtime: '1600000000.25' }), file('merged')],
      'a GNU long name then a PAX header': [{ type: 'raw', flag: 'L', path: '././@LongLink', content: `${'l'.repeat(120)}\0` }, x({ mtime: '1650000000.75' }), file('gnu-long')],
      'a PAX header then a GNU long name': [x({ path: 'pax-name', mtime: '1650000000.75' }), { type: 'raw', flag: 'L', path: '././@LongLink', content: `${'m'.repeat(120)}\0` }, file('gnu-long')],
      'a global header then local ones': [g({ mtime: '1500000000', uname: 'global' }), x({ mtime: '1600000000.5' }), file('a'), file('b')],
      'unknown and vendor keys': [x({ 'SCHILY.xattr.user.x': 'y', hdrcharset: 'BINARY', 'LIBARCHIVE.creationtime': '1' }), file('vendor')],
      'SCHILY device numbers': [x({ 'SCHILY.dev': '1', 'SCHILY.ino': '2', 'SCHILY.nlink': '1' }), file('schily')],
      'a sparse map': [x({ 'GNU.sparse.size': '1000', 'GNU.sparse.numblocks': '0' }), file('sparse')],
      'an empty header': [x(''), file('after-empty')],
      'a wrong record length': [x('25 path=wrong-length.html\n30 mtime=1700000000.5\n'), file('kept-name')],
      'a length with a leading zero': [x('021 path=leading0.html\n'), file('kept-name')],
      'a value with a newline': [x(paxRecords({ path: 'two\nlines' })), file('kept-name')],
      'no newline at the end': [x('19 path=no-newline'), file('kept-name')],
      'a NUL in the value': [x(paxRecords({ path: 'nul\0hidden' })), file('kept-name')],
      'an empty value and key': [x('7 path=\n7 =value\n'), file('kept-name')],
      'a negative size': [x({ size: '-5' }), file('negative', 'abc\n')],
      'unicode and invalid UTF-8': [x(Buffer.concat([Buffer.from(paxRecords({ path: 'ünï-页.html' })), Buffer.from('12 path=ab\xff\n', 'latin1')])), file('kept-name')],
      // 12 bytes as written, 14 once tar has decoded the bad byte to U+FFFD: tar skips the record.
      'invalid UTF-8 alone': [x(Buffer.from('12 path=ab\xff\n', 'latin1')), file('kept-name')],
      'a record of two equals signs': [x({ comment: 'a=b=c', path: 'eq=name.html' }), file('kept-name')],
    };
    for (const [name, entries] of Object.entries(cases)) expectSameBothWays(rawTar(entries), name.replaceAll(' ', '-'));

    // Headers that tar itself reads differently or refuses: a bad checksum, a base-256 number, a size past tar's 1 MB for them.
    const plain = rawTar([x({ path: 'patched.html', mtime: '1700000000.5' }), file('kept-name')]);
    const patched = (mutate: (block: Buffer) => void) => {
      const copy = Buffer.from(plain);
      const block = copy.subarray(0, 512);
      mutate(block);
      block.fill(' ', 148, 156);
      let sum = 0;
      for (const byte of block) sum += byte;
      block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
      return copy;
    };
    expectSameBothWays(Buffer.concat([plain.subarray(0, 148), Buffer.from('0000001\0'), plain.subarray(156)]), 'bad-checksum');
    expectSameBothWays(patched((block) => block.writeUInt8(0x80, 108)), 'base-256-uid');
    expectSameBothWays(patched((block) => block.write('       1\0', 148 - 24, 'latin1')), 'spaced-size');
    expectSameBothWays(patched((block) => block.fill(0, 0, 100)), 'no-name');
    expectSameBothWays(rawTar([x({ comment: 'c'.repeat(1_100_000) }), file('huge-header')]), 'huge-header');
    // Ends inside the header's body, and right after the header.
    expectSameBothWays(plain.subarray(0, 512 + 256), 'truncated-body');
    expectSameBothWays(plain.subarray(0, 512), 'truncated-after-header');
  });
});

describe('wellFormedSize', () => {
  // The plain reading, byte by byte: wellFormedSize must give exactly its answers.
  const NUMBER_FIELDS = [100, 108, 116, 124, 136, 148, 329, 337, 476, 488];
  function reference(block: Buffer, at: number): number | undefined {
    if (block[at] === 0) return undefined;
    for (const offset of NUMBER_FIELDS) if (block[at + offset]! >= 0x80) return undefined;
    const checksum = plainOctal(block, at + 148, 8);
    if (checksum === undefined) return undefined;
    let sum = 8 * 0x20;
    for (let i = at; i < at + 148; i++) sum += block[i]!;
    for (let i = at + 156; i < at + 512; i++) sum += block[i]!;
    if (sum !== checksum) return undefined;
    return plainOctal(block, at + 124, 12);
  }
  const withChecksum = (block: Buffer) => {
    block.fill(' ', 148, 156);
    let sum = 0;
    for (const byte of block) sum += byte;
    block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  };

  it("gives the plain reading's answers for headers changed byte by byte, at any offset, cut short or not", () => {
    const archive = rawTar([
      { type: 'raw', flag: 'x', path: 'PaxHeader/x', content: paxRecords({ path: 'a'.repeat(200), mtime: '1700000000.5' }) },
      { type: 'file', path: 'kept-name', content: 'x\n' },
    ]);
    const headers = [archive.subarray(0, 512), archive.subarray(1024, 1536)];
    // xorshift32: every bit of it is random enough for `% n`.
    let seed = 11;
    const next = (n: number) => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const answers = new Set<string>();
    for (let i = 0; i < 4_000; i++) {
      const block = Buffer.from(headers[next(2)]!);
      // Change one to three bytes anywhere, or the first byte of a numeric field or of the name, to any value; then mostly fix the checksum.
      for (let k = 1 + next(3); k > 0; k--) block[next(3) === 0 ? NUMBER_FIELDS[next(NUMBER_FIELDS.length)]! : next(8) === 0 ? 0 : next(512)] = next(4) === 0 ? 0x80 + next(128) : next(256);
      if (next(4) !== 0) withChecksum(block);
      // Placed at an odd offset in a larger buffer, and sometimes cut short.
      const offset = next(7);
      const holder = Buffer.alloc(offset + 512 + next(3) * 512, 0x41);
      block.copy(holder, offset);
      const view = next(8) === 0 ? holder.subarray(0, offset + next(512)) : holder;
      const expected = reference(view, offset);
      expect(wellFormedSize(view, offset), `case ${i}`).toBe(expected);
      answers.add(expected === undefined ? 'undefined' : 'size');
    }
    // Both answers were met.
    expect([...answers].sort()).toEqual(['size', 'undefined']);
  });
});
