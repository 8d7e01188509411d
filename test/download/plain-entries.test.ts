// The reader of plain entries (src/download/plain-entries.ts) must make exactly the tree tar makes,
// refuse exactly what tar's guard refuses, and fail where tar fails: every archive here, made by real
// GNU tar in each of its formats, by node-tar, and by hand where a careful packer would not go, is
// extracted through the live extraction's write() with the reader and with tar alone, fed in chunks
// of whole blocks (the worker's batches) and of any length, and both must agree. The reader must also
// have read the plain entries itself (a reader that hands everything to tar would pass the rest).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tar from 'tar';
import { afterEach, describe, expect, it } from 'vitest';
import { createExtraction } from '../../src/download/unpacker.js';
import { tempDir } from '../helpers/cli.js';
import { paxRecords, rawTar, type RawEntry } from '../helpers/tar-evil.js';
import { chunker, describeTree, GNU_TAR, gnuTar, NOW, writeSite } from '../helpers/tar-sites.js';

let root: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  root?.cleanup();
  root = undefined;
});

interface Outcome {
  refusal: string | undefined;
  failed: boolean;
  tree: Record<string, string> | undefined;
  plain: number;
  /** Whether tar was loaded: the reader loads it only to hand it the stream (unpacker.ts). */
  tarLoaded: boolean;
}

async function extract(archive: Buffer, dir: string, plainEntries: boolean, nextSize: () => number, limits = { maxBytes: 1e9, maxEntries: 100_000 }): Promise<Outcome> {
  mkdirSync(dir, { recursive: true });
  let failed = false;
  let tarLoaded = false;
  const loadTar = () => {
    tarLoaded = true;
    return tar;
  };
  const extraction = createExtraction(loadTar, dir, { ...limits, given: false, now: NOW }, undefined, { paxAhead: true, plainEntries, onTarError: () => (failed = true) });
  try {
    for (let at = 0; at < archive.length && !extraction.refusal() && !failed; ) {
      const end = Math.min(archive.length, at + nextSize());
      extraction.write(archive.subarray(at, end));
      at = end;
    }
    if (!extraction.refusal() && !failed) await extraction.end();
  } catch {
    failed = true;
  }
  extraction.abandon();
  const refusal = extraction.refusal();
  // A failed or refused extraction's tree is removed (live-extraction.ts): only a whole one is compared.
  return { refusal, failed, tree: failed || refusal ? undefined : describeTree(dir), plain: extraction.plainEntriesRead(), tarLoaded };
}

/** Both ways, in whole blocks and in any length, must agree; returns the entries the reader read, over both chunkings. */
async function expectSameBothWays(archive: Buffer, name: string, limits?: { maxBytes: number; maxEntries: number }): Promise<{ plain: number; outcome: Outcome }> {
  let plain = 0;
  let outcome: Outcome | undefined;
  for (const [label, blocks, seed] of [['whole blocks', true, 7], ['any length', false, 11]] as const) {
    const ours = await extract(archive, join(root!.path, `${name}-${seed}-plain`), true, chunker(seed, blocks), limits);
    const theirs = await extract(archive, join(root!.path, `${name}-${seed}-tar`), false, chunker(seed, blocks), limits);
    expect({ ...ours, plain: 0, tarLoaded: true }, `${name}, ${label}`).toEqual({ ...theirs, plain: 0 });
    expect(theirs).toMatchObject({ plain: 0, tarLoaded: true });
    plain += ours.plain;
    outcome = ours;
  }
  return { plain, outcome: outcome! };
}

const file = (path: string, content: string | Buffer = `${path}\n`, extra: { mode?: number; mtime?: number } = {}): RawEntry => ({ type: 'file', path, content, ...extra });
const dir = (path: string): RawEntry => ({ type: 'dir', path });
const x = (records: Record<string, string> | string, path = 'PaxHeader/x'): RawEntry => ({ type: 'raw', flag: 'x', path, content: typeof records === 'string' ? records : paxRecords(records) });

/** A hand-made archive with one header changed in place (its checksum made right again unless `checksum` is false). */
function patched(entries: RawEntry[], index: number, mutate: (block: Buffer) => void, checksum = true): Buffer {
  const archive = rawTar(entries);
  let at = 0;
  for (let i = 0; i < index; i++) {
    const size = Number.parseInt(archive.toString('latin1', at + 124, at + 135), 8);
    at += 512 + 512 * Math.ceil(size / 512);
  }
  const block = archive.subarray(at, at + 512);
  mutate(block);
  if (checksum) {
    block.fill(' ', 148, 156);
    let sum = 0;
    for (const byte of block) sum += byte;
    block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  }
  return archive;
}

describe('the reader of plain entries', () => {
  it.skipIf(!GNU_TAR)("extracts GNU tar's archives in every format exactly as tar alone does, reading their plain entries itself", async () => {
    root = tempDir();
    const site = join(root.path, 'site');
    writeSite(site, { beyondUstar: true });
    const pax = await expectSameBothWays(gnuTar(['--format=pax'], site, join(root.path, 'pax.tar')), 'pax');
    expect(pax.outcome.refusal).toBeUndefined();
    expect(pax.outcome.failed).toBe(false);
    // GNU tar writes directories before their files, and the links come where they fall: the reader
    // reads the entries up to the first link, then tar has the rest.
    expect(pax.plain).toBeGreaterThan(0);
    expect(pax.outcome.tree!['future.html']).toContain(`mtime=${BigInt(NOW) * 1_000_000n}`);
    for (const format of [['--format=ustar'], ['--format=gnu'], ['--format=pax', '--pax-option=comment=made-by-ci'], ['--format=pax', '--pax-option=build.id:=42']]) {
      const name = format.join('').replace(/[^a-z0-9]+/gi, '-');
      const siteFor = format[0] === '--format=ustar' ? join(root.path, 'ustar-site') : site;
      if (format[0] === '--format=ustar') writeSite(siteFor, { beyondUstar: false });
      await expectSameBothWays(gnuTar(format, siteFor, join(root.path, `${name}.tar`)), name);
    }
  });

  it.skipIf(!GNU_TAR)('reads every entry of a site of files and directories (as GNU tar archives a docs bundle), to its end', async () => {
    root = tempDir();
    const site = join(root.path, 'site');
    for (let i = 0; i < 300; i++) {
      mkdirSync(join(site, `section-${i % 7}`, `sub-${i % 3}`), { recursive: true });
      writeFileSync(join(site, `section-${i % 7}`, `sub-${i % 3}`, `page-${i}.html`), `<p>${'x'.repeat(i * 13)}</p>`);
    }
    const archive = gnuTar(['--format=pax'], site, join(root.path, 'site.tar'));
    const listed = spawnSync('tar', ['-tf', join(root.path, 'site.tar')], { encoding: 'utf8' }).stdout.trim().split('\n').length;
    const { plain, outcome } = await expectSameBothWays(archive, 'site');
    expect(plain).toBe(2 * listed);
    expect(Object.keys(outcome.tree!)).toHaveLength(listed - 1);
    // With trailing bytes after the end (GNU tar's blocking factor pads with zeros; some tools add more).
    await expectSameBothWays(Buffer.concat([archive, Buffer.alloc(10_240), Buffer.from('trailing garbage')]), 'trailing');
  });

  it('loads tar only to hand it the stream: never for files and directories alone, at the first other entry', async () => {
    root = tempDir();
    const plain = [dir('docs'), file('docs/a.html'), x({ path: 'docs/a-long-name.html', mtime: '1700000000.5' }), file('short'), file('empty', '')];
    expect((await expectSameBothWays(rawTar(plain), 'plain')).outcome).toMatchObject({ tarLoaded: false, failed: false, plain: 4 });
    const linked: RawEntry[] = [...plain, { type: 'symlink', path: 'latest', target: 'docs' }, file('after.html')];
    expect((await expectSameBothWays(rawTar(linked), 'linked')).outcome).toMatchObject({ tarLoaded: true, failed: false, plain: 4 });
  });

  it('will not hand the stream to a tar whose settings are not those it read by: the extraction fails, and the extraction from the file takes over', () => {
    root = tempDir();
    const settings = [{ maxDepth: 5 }, { maxMetaEntrySize: 4096 }, { dmode: 0o700 }, { umask: 0o22 }];
    for (const [i, changed] of settings.entries()) {
      const otherTar = { ...tar, x: (options: tar.TarOptionsWithAliases) => tar.x({ ...options, ...changed } as tar.TarOptionsWithAliasesSync) };
      const target = join(root.path, `other-${i}`);
      mkdirSync(target);
      const extraction = createExtraction(() => otherTar as typeof tar, target, { maxBytes: 1e9, maxEntries: 100, given: false, now: NOW }, undefined, { paxAhead: true, plainEntries: true });
      expect(extraction.write(rawTar([file('a.html')]).subarray(0, 1024))).toBe(true);
      expect(() => extraction.write(rawTar([{ type: 'symlink', path: 'latest', target: 'a.html' }])), JSON.stringify(changed)).toThrow(
        "tar's unpacker is not the one the reader of plain entries expects (a tar release changed its settings or its internals)",
      );
    }
  });

  it("extracts node-tar's archives alike", async () => {
    root = tempDir();
    const site = join(root.path, 'site');
    // node-tar 7.5's asynchronous create never settles on a tree with a hard link in it.
    writeSite(site, { beyondUstar: true, hardLink: false });
    const archive = join(root.path, 'node.tar');
    await tar.c({ cwd: site, file: archive, portable: true }, ['.']);
    expect((await expectSameBothWays(readFileSync(archive), 'node')).plain).toBeGreaterThan(0);
  });

  it('hands tar what it does not read exactly as tar does, and agrees on paths seen before, links and hostile entries', async () => {
    root = tempDir();
    const cases: Record<string, RawEntry[]> = {
      'duplicates and a directory replaced': [file('a/b/page.html', 'first'), file('a/b/page.html', 'second'), dir('empty-then-file'), file('empty-then-file'), file('a/other.html'), dir('a')],
      'names a case-insensitive disk merges': [file('Readme.txt', 'upper'), file('readme.txt', 'lower'), file('after.txt')],
      'a link, then entries through and after it': [file('guides/index.html'), { type: 'symlink', path: 'latest', target: 'guides' }, file('latest/evil.html'), file('after.html')],
      'a hard link to a file read here': [file('target.html'), { type: 'hardlink', path: 'alias.html', target: 'target.html' }, file('after.html')],
      'a path climbing out': [file('fine.html'), file('../evil.html')],
      'an absolute path': [file('fine.html'), file('/tmp/evil.html')],
      'a PAX path climbing out': [file('fine.html'), x({ path: '../evil.html' }), file('innocent.html')],
      'a FIFO': [file('fine.html'), { type: 'fifo', path: 'pipe' }],
      'the directory itself as a file': [file('fine.html'), file('.'), file('after.html')],
      'the directory itself as a directory': [dir('.'), dir('./'), file('a.html')],
      'PAX keys read here': [x({ path: 'docs/a-long-name.html', mtime: '1700000000.987654321', atime: '1700000001.5', ctime: '1700000002', uid: '5', gid: '6', uname: 'ci', gname: 'ci', comment: 'c' }), file('short')],
      'an mtime that is not a number': [x({ mtime: 'soon' }), dir('d'), file('d/a.html'), x({ mtime: 'later' }), file('b.html')],
      'PAX keys tar reads': [x({ size: '3' }), file('grown', 'abcdef'), x({ mode: '755' }), file('moded'), x({ linkpath: 'y' }), file('linked'), x({ type: '5' }), file('typed'), file('after')],
      'two PAX headers in a row': [x({ path: 'first' }), x({ mtime: '1600000000.25' }), file('merged')],
      'a global header': [{ type: 'raw', flag: 'g', path: 'GlobalHead', content: paxRecords({ mtime: '1500000000' }) }, file('a'), file('b')],
      'a GNU long name': [file('before'), { type: 'raw', flag: 'L', path: '././@LongLink', content: `${'l'.repeat(120)}\0` }, file('gnu-long')],
      'an executable and a future mtime': [file('bin/run.sh', '#!/bin/sh\n', { mode: 0o4775 }), file('future.html', 'f', { mtime: NOW + 86_400_000 })],
      'an old-style directory (a file ending in /)': [file('fine.html'), file('old-dir/', ''), file('old-dir/inside.html')],
      'an empty archive': [],
      'sizes around a block': [file('0', ''), file('1', 'a'), file('511', Buffer.alloc(511, 1)), file('512', Buffer.alloc(512, 2)), file('513', Buffer.alloc(513, 3)), file('big', Buffer.alloc(300_000, 4))],
      'a deep tree, directories after their files': [file('d/e/f/g/h.html'), dir('d/e/f'), dir('d'), file('d/e/i.html'), dir('new/dir'), file('new/dir/j.html')],
    };
    for (const [name, entries] of Object.entries(cases)) await expectSameBothWays(rawTar(entries), name.replaceAll(/[^a-z0-9]+/gi, '-'));
    expect((await expectSameBothWays(rawTar(cases['sizes around a block']!), 'sizes-again')).plain).toBe(12);

    // A null block between entries (tar reads on), and one after an extended header.
    const [before, after] = [rawTar([file('before')]), rawTar([file('after')])];
    await expectSameBothWays(Buffer.concat([before.subarray(0, 1024), Buffer.alloc(512), after]), 'null-block-between');
    await expectSameBothWays(Buffer.concat([rawTar([x({ path: 'p' })]).subarray(0, 1024), Buffer.alloc(512), after]), 'null-block-after-pax');

    // Headers tar reads differently or refuses: a bad checksum, a base-256 number, a name with bytes
    // after its NUL (tar keeps the next line), a name not ASCII, a long prefix, GNU's magic.
    const two = [file('first.html'), file('second.html'), file('third.html')];
    await expectSameBothWays(patched(two, 1, (b) => b.write('0000001\0', 148, 'latin1'), false), 'bad-checksum');
    await expectSameBothWays(patched(two, 1, (b) => b.writeUInt8(0x80, 108)), 'base-256-uid');
    await expectSameBothWays(patched(two, 1, (b) => b.write('second.html\0junk\nmore', 0, 'latin1')), 'bytes-after-nul');
    await expectSameBothWays(patched(two, 1, (b) => b.write('sécond.html\0', 0, 'utf8')), 'utf8-name');
    await expectSameBothWays(patched(two, 1, (b) => b.write('\0x\nlink', 157, 'latin1')), 'link-target-after-nul');
    // Deeper than tar's 1,024 components (a PAX path can be): tar refuses it.
    for (const depth of [1024, 1025]) await expectSameBothWays(rawTar([file('first.html'), x({ path: `${'d/'.repeat(depth - 1)}deep.html` }), file('x')]), `depth-${depth}`);
    await expectSameBothWays(patched(two, 1, (b) => b.write('ab\xffc.html\0', 0, 'latin1')), 'invalid-utf8-name');
    await expectSameBothWays(patched(two, 1, (b) => b.fill('q', 345, 500)), 'long-prefix');
    await expectSameBothWays(patched(two, 1, (b) => b.write('prefix\0', 345, 'latin1')), 'prefix');
    await expectSameBothWays(patched([x({ path: 'pax-path.html' }), file('n.html')], 1, (b) => b.write('prefix\0', 345, 'latin1')), 'pax-path-and-prefix');
    await expectSameBothWays(patched(two, 1, (b) => b.write('ustar  \0', 257, 'latin1')), 'gnu-magic');
    await expectSameBothWays(patched(two, 1, (b) => b.write('00000000001\0', 476, 'latin1')), 'gnu-atime');
    await expectSameBothWays(patched(two, 1, (b) => b.write('0001750\0', 100, 'latin1')), 'setuid-mode');
    await expectSameBothWays(patched([dir('d'), file('d/a')], 0, (b) => b.write('00000000012\0', 124, 'latin1')), 'directory-with-a-size');

    // Ends inside a body, inside the padding, after a header, and without the two null blocks.
    const archive = rawTar(two);
    for (const end of [512 + 5, 1024 - 1, 1024, 1024 + 512, archive.length - 1024]) await expectSameBothWays(archive.subarray(0, end), `truncated-${end}`);
  });

  it("gives a directory whose entry comes after its files the archive's mtime, as tar does", async () => {
    root = tempDir();
    const archive = rawTar([file('d/e/f/g/h.html'), dir('d/e/f'), dir('d'), file('late.html')]);
    const archived = Date.UTC(2026, 0, 1);
    for (const plainEntries of [true, false]) {
      const where = join(root.path, String(plainEntries));
      await extract(archive, where, plainEntries, chunker(3, true));
      expect([statSync(join(where, 'd')).mtimeMs, statSync(join(where, 'd/e/f')).mtimeMs], `plain entries: ${plainEntries}`).toEqual([archived, archived]);
      expect(statSync(join(where, 'd/e')).mtimeMs).not.toBe(archived);
    }
  });

  it('refuses alike at the limits, whoever reads the entry that passes them', async () => {
    root = tempDir();
    const entries = [file('a.html', 'aaaa'), file('b.html', 'bbbb'), file('c.html', 'cccc'), { type: 'symlink', path: 'l', target: 'a.html' } as RawEntry, file('d.html', 'dddd')];
    for (const [name, limits] of [['entries', { maxBytes: 1e9, maxEntries: 2 }], ['bytes', { maxBytes: 9, maxEntries: 100 }], ['entries-at-link', { maxBytes: 1e9, maxEntries: 3 }]] as const) {
      const { outcome } = await expectSameBothWays(rawTar(entries), `limit-${name}`, limits);
      expect(outcome.refusal).toMatch(/would make the bundle/);
    }
  });
});
