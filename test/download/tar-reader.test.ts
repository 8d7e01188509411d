// The one tar reader (src/download/tar-reader.ts) on its own: headers, PAX records, GNU long names,
// base-256 sizes, truncation and garbage, fed whole and in chunks of every size.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_META_BYTES,
  paxRecords as readPax,
  TarFormatError,
  TarReader,
  type TarEntry,
} from '../../src/download/tar-reader.js';
import { tempDir } from '../helpers/cli.js';
import { paxRecords, rawTar, type RawEntry } from '../helpers/tar-evil.js';

interface Read {
  entries: (Omit<TarEntry, 'mode'> & { body: string })[];
  ended: boolean;
}

/** Everything the reader hands its sink, the stream fed in chunks of `step` bytes. */
function read(tar: Buffer, step = tar.length): Read {
  const entries: Read['entries'] = [];
  let body: Buffer[] = [];
  const reader = new TarReader({
    entry: ({ mode: _mode, ...entry }) => {
      body = [];
      entries.push({ ...entry, body: '' });
    },
    body: (chunk) => body.push(Buffer.from(chunk)),
    end: () => (entries.at(-1)!.body = Buffer.concat(body).toString()),
  });
  for (let at = 0; at < tar.length; at += step) reader.write(tar.subarray(at, at + step));
  reader.finish();
  return { entries, ended: reader.ended };
}

const file = (path: string, content = `${path}\n`, mtime?: number): RawEntry => ({
  type: 'file',
  path,
  content,
  ...(mtime === undefined ? {} : { mtime }),
});
const pax = (records: Record<string, string> | string): RawEntry => ({
  type: 'raw',
  flag: 'x',
  path: 'PaxHeader/x',
  content: typeof records === 'string' ? records : paxRecords(records),
});

/** The tar with its first header changed by `mutate` and its checksum made right again. */
function patched(tar: Buffer, mutate: (block: Buffer) => void): Buffer {
  const copy = Buffer.from(tar);
  const block = copy.subarray(0, 512);
  mutate(block);
  block.fill(' ', 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return copy;
}

describe('the tar reader', () => {
  it('reads files, directories and links, with their bodies, the same in chunks of any size', () => {
    const tar = rawTar([
      { type: 'dir', path: 'site/' },
      file('site/index.html', 'x'.repeat(700), Date.UTC(2020, 0, 1)),
      file('site/empty.html', ''),
      { type: 'symlink', path: 'site/home.html', target: 'index.html' },
      { type: 'hardlink', path: 'site/copy.html', target: 'site/index.html' },
    ]);
    const whole = read(tar);
    expect(whole.ended).toBe(true);
    expect(whole.entries.map((e) => [e.type, e.path, e.linkpath, e.size, e.body.length])).toEqual([
      ['Directory', 'site/', '', 0, 0],
      ['File', 'site/index.html', '', 700, 700],
      ['File', 'site/empty.html', '', 0, 0],
      ['SymbolicLink', 'site/home.html', 'index.html', 0, 0],
      ['Link', 'site/copy.html', 'site/index.html', 0, 0],
    ]);
    expect(whole.entries[1]!.mtime).toBe(Date.UTC(2020, 0, 1));
    for (const step of [1, 7, 511, 512, 513, 1000]) expect(read(tar, step)).toEqual(whole);
  });

  it('takes path, linkpath, size and mtime from PAX records, for the next entry only', () => {
    const tar = rawTar([
      pax({ path: 'docs/a-long-name.html', mtime: '1700000000.987654321', atime: '1', 'SCHILY.xattr.user.x': 'y' }),
      file('short'),
      pax({ linkpath: 'docs/a-long-name.html', path: 'hard.html' }),
      { type: 'hardlink', path: 'h', target: 'x' },
      pax({ size: '3' }),
      file('grown', 'abc'),
      file('after'),
    ]);
    const { entries } = read(tar);
    expect(entries.map((e) => [e.path, e.linkpath, e.size, e.body])).toEqual([
      ['docs/a-long-name.html', '', 6, 'short\n'],
      ['hard.html', 'docs/a-long-name.html', 0, ''],
      ['grown', '', 3, 'abc'],
      ['after', '', 6, 'after\n'],
    ]);
    expect(entries[0]!.mtime).toBe(1700000000987);
  });

  it('applies a global header to every later entry, under the local ones', () => {
    const tar = rawTar([
      { type: 'raw', flag: 'g', path: 'GlobalHead', content: paxRecords({ mtime: '1500000000' }) },
      pax({ mtime: '1600000000.5' }),
      file('a'),
      file('b'),
    ]);
    expect(read(tar).entries.map((e) => e.mtime)).toEqual([1600000000500, 1500000000000]);
  });

  it('marks an entry after GNU.sparse keys as sparse', () => {
    const tar = rawTar([
      pax({ 'GNU.sparse.size': '1000', 'GNU.sparse.numblocks': '0' }),
      file('sparse'),
      file('plain'),
    ]);
    expect(read(tar).entries.map((e) => e.sparse)).toEqual([true, false]);
  });

  it('reads PAX records as tar does: a malformed one ends the header, odd keys and empty values are skipped', () => {
    expect(readPax(Buffer.from(paxRecords({ path: 'ünï-页.html', comment: 'a=b=c' })))).toEqual({
      path: 'ünï-页.html',
    });
    expect(readPax(Buffer.from('25 path=wrong-length.html\n30 mtime=1700000000.5\n'))).toEqual({});
    expect(readPax(Buffer.from('021 path=leading0.html\n'))).toEqual({});
    expect(readPax(Buffer.from('19 path=no-newline'))).toEqual({});
    expect(readPax(Buffer.from('7 path=\n7 =value\n'))).toEqual({});
    expect(readPax(Buffer.from(paxRecords({ size: '-5', mtime: 'soon' })))).toEqual({});
    expect(readPax(Buffer.from(paxRecords({ path: 'nul\0hidden' })))).toEqual({ path: 'nul\0hidden' });
  });

  it("takes GNU long names ('L') and link names ('K'), whichever of them and PAX came last", () => {
    const long = 'l'.repeat(300);
    const tar = rawTar([
      { type: 'raw', flag: 'L', path: '././@LongLink', content: `${long}\0` },
      { type: 'raw', flag: 'K', path: '././@LongLink', content: `${long}-target\0` },
      { type: 'symlink', path: 'short', target: 'x' },
      pax({ path: 'pax-name' }),
      { type: 'raw', flag: 'L', path: '././@LongLink', content: `${'m'.repeat(120)}\0` },
      file('gnu-long'),
    ]);
    expect(read(tar).entries.map((e) => [e.path, e.linkpath])).toEqual([
      [long, `${long}-target`],
      ['m'.repeat(120), ''],
    ]);
  });

  it('joins the ustar prefix and name', () => {
    const tar = patched(rawTar([file('name.html', 'x')]), (block) => block.write('some/prefix\0', 345, 'latin1'));
    expect(read(tar).entries[0]!.path).toBe('some/prefix/name.html');
  });

  it('reads a base-256 size, and refuses a negative one', () => {
    const body = 'b'.repeat(600);
    const tar = patched(rawTar([file('big', body)]), (block) => {
      block.fill(0, 124, 136);
      block[124] = 0x80;
      block.writeUIntBE(600, 130, 6);
    });
    expect(read(tar).entries.map((e) => [e.size, e.body.length])).toEqual([[600, 600]]);
    const negative = patched(tar, (block) => (block[124] = 0xff));
    expect(() => read(negative)).toThrow(TarFormatError);
  });

  it('refuses a wrong checksum, a number that is not one, and garbage', () => {
    const tar = rawTar([file('a')]);
    const badSum = Buffer.from(tar);
    badSum.write('0000001\0', 148, 'latin1');
    expect(() => read(badSum)).toThrow(/checksum/);
    expect(() => read(patched(tar, (block) => block.write('12x4\0', 124, 'latin1')))).toThrow(/not a number/);
    expect(() => read(Buffer.from('<html>not a tar at all</html>'.repeat(40)))).toThrow(TarFormatError);
  });

  it('takes a checksum summed over signed bytes, as some old tars wrote it, and no other', () => {
    const tar = patched(rawTar([file('a')]), (block) => block.write('caf\xe9\xe9', 0, 'latin1'));
    const signed = Buffer.from(tar);
    signed.fill(' ', 148, 156);
    let sum = 0;
    for (const byte of signed.subarray(0, 512)) sum += byte > 127 ? byte - 256 : byte;
    signed.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    expect(read(tar).entries.map((e) => e.path)).toEqual(['caf\ufffd\ufffd']);
    expect(read(signed).entries.map((e) => e.path)).toEqual(['caf\ufffd\ufffd']);
    const neither = Buffer.from(signed);
    neither.write(`${(sum + 256).toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    expect(() => read(neither)).toThrow(/wrong checksum/);
  });

  it('refuses an archive that ends inside a header, a body or after a PAX header', () => {
    const tar = rawTar([pax({ path: 'patched.html' }), file('kept-name', 'x'.repeat(600))]);
    for (const end of [100, 512 + 256, 1024, 1024 + 512 + 10, 1024 + 512 + 600]) {
      expect(() => read(tar.subarray(0, end)), `cut at ${end}`).toThrow(/ends in the middle of an entry/);
    }
    // Whole entries without the end blocks are a whole archive, as tar reads them.
    expect(read(tar.subarray(0, 1024 + 512 + 1024)).entries).toHaveLength(1);
  });

  it('refuses a meta header larger than any archive needs', () => {
    const tar = rawTar([pax({ comment: 'c'.repeat(MAX_META_BYTES) }), file('huge-header')]);
    expect(() => read(tar)).toThrow(/more than any archive needs/);
  });

  it('looks at nothing after the end of the archive', () => {
    const tar = Buffer.concat([rawTar([file('a')]), Buffer.alloc(10_240), Buffer.from('trailing garbage')]);
    const { entries, ended } = read(tar, 100);
    expect(ended).toBe(true);
    expect(entries.map((e) => e.path)).toEqual(['a']);
  });

  it('names entry types by their flag, and unknown flags as unsupported', () => {
    const tar = rawTar([
      { type: 'fifo', path: 'p' },
      { type: 'chardev', path: 'c' },
      { type: 'raw', flag: 'V', path: 'label' },
      { type: 'raw', flag: 'Q', path: 'q' },
      { type: 'raw', flag: '7', path: 'contiguous', content: 'c' },
    ]);
    expect(read(tar).entries.map((e) => [e.type, e.typeKey, e.body])).toEqual([
      ['FIFO', '6', ''],
      ['CharacterDevice', '3', ''],
      ['TapeVolumeHeader', 'V', ''],
      ['Unsupported', 'Q', ''],
      ['ContiguousFile', '7', 'c'],
    ]);
  });

  it.skipIf(!/GNU tar/.test(spawnSync('tar', ['--version'], { encoding: 'utf8' }).stdout ?? ''))(
    "reads GNU tar's own archives: pax and gnu formats, long names and links",
    () => {
      const dir = tempDir();
      try {
        const src = join(dir.path, 'src');
        const long = `${'d'.repeat(120)}/${'f'.repeat(150)}.html`;
        mkdirSync(join(src, 'd'.repeat(120)), { recursive: true });
        writeFileSync(join(src, long), 'long\n');
        writeFileSync(join(src, 'ünï.html'), 'u\n');
        for (const format of ['pax', 'gnu', 'ustar']) {
          const file = join(dir.path, `${format}.tar`);
          const names = format === 'ustar' ? ['ünï.html'] : ['.'];
          expect(spawnSync('tar', [`--format=${format}`, '-cf', file, '-C', src, ...names]).status).toBe(0);
          const entries = read(readFileSync(file), 4096).entries.filter((e) => e.type === 'File');
          const expected =
            format === 'ustar'
              ? [['ünï.html', 'u\n']]
              : [
                  [`./${long}`, 'long\n'],
                  ['./ünï.html', 'u\n'],
                ];
          expect(entries.map((e) => [e.path, e.body]).sort()).toEqual(expected.sort());
        }
      } finally {
        dir.cleanup();
      }
    },
  );
});
