// Archives beyond hostile: entries tar would skip or mangle (sparse files, unknown types), bombs
// past an absolute cap, and what a docs tree should look like on disk (modes, mtimes).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ArchiveRefusedError } from '../../src/download/index.js';
import { withFlags } from '../../src/cli/commands/export/target-flags.js';
import { extractionLimits } from '../../src/download/limits.js';
import type { CliError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';
import { serveArchive } from '../helpers/storage.js';
import { paxRecords, rawTar, rawTarGz, type RawEntry } from '../helpers/tar-evil.js';
import { EXTRACTIONS, useHarness, type Harness } from './fixtures.js';

/** Where the extraction runs: set by each pass of describe.each(EXTRACTIONS) below. */
let extraction: URL | false = false;

const perTest = useHarness();

async function download(
  archive: Buffer,
  overrides: Parameters<Harness['download']>[0] = {},
): Promise<{ result?: unknown; error?: CliError; target: string; root: string; clock: Harness['clock'] }> {
  const target = join(perTest.root, 'site');
  const h = await perTest.start({ storage: serveArchive(() => archive), archive: () => archive, target, extraction });
  try {
    return { result: await h.download(overrides), target, root: perTest.root, clock: h.clock };
  } catch (error) {
    return { error: error as CliError, target, root: perTest.root, clock: h.clock };
  }
}

// GNU tar makes the sparse archives: Linux has it; a machine whose tar is another (bsdtar) skips them.
const GNU_TAR = spawnSync('tar', ['--version'], { encoding: 'utf8' }).stdout?.includes('GNU tar') === true;

function gnuTar(args: string[], cwd: string): Buffer {
  execFileSync('tar', args, { cwd });
  return readFileSync(join(cwd, 'out.tgz'));
}

/** A 1 MB file with 12 bytes of data at 512 KiB and the rest holes. */
function sparseSource(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'sparse.bin');
  writeFileSync(file, '');
  truncateSync(file, 1 << 20);
  const fd = openSync(file, 'r+');
  writeSync(fd, 'hello sparse', 512 * 1024);
  closeSync(fd);
  writeFileSync(join(dir, 'index.html'), '<h1>hi</h1>');
}

describe.each(EXTRACTIONS)('extracting %s', (_name, worker) => {
  beforeAll(() => {
    extraction = worker;
  });

  describe.skipIf(!GNU_TAR)(`sparse files made with GNU tar${GNU_TAR ? '' : ' (skipped: needs GNU tar)'}`, () => {
    it.each([
      [
        'GNU sparse (type S)',
        ['--sparse', '--format=gnu'],
        'entry "sparse.bin" is a GNU sparse file, which mint-admin cannot extract with its real contents',
      ],
      [
        'PAX sparse (GNU.sparse keys)',
        ['--sparse', '--format=posix'],
        /^entry ".*GNUSparseFile\.\d+\/sparse\.bin" is a sparse file \(PAX GNU\.sparse\), which mint-admin cannot extract with its real contents$/,
      ],
    ])('refuses %s by name, installing nothing', async (_name, flags, reason) => {
      const src = tempDir();
      try {
        sparseSource(join(src.path, 'src'));
        const archive = gnuTar(['-czf', 'out.tgz', ...flags, '-C', 'src', 'index.html', 'sparse.bin'], src.path);
        const { error, root } = await download(archive);
        expect(error).toBeInstanceOf(ArchiveRefusedError);
        const message = error!.message.replace('the bundle was refused, nothing was installed: ', '');
        if (typeof reason === 'string') expect(message).toBe(reason);
        else expect(message).toMatch(reason);
        expect(readdirSync(root)).toEqual([]);
      } finally {
        src.cleanup();
      }
    });
  });

  describe('entry types tar would skip', () => {
    it.each([
      [
        'a volume label (V)',
        'V',
        'entry "label" is a TapeVolumeHeader entry (tar type \'V\'), which mint-admin does not extract',
      ],
      [
        'a multi-volume continuation (M)',
        'M',
        'entry "label" is a ContinuationFile entry (tar type \'M\'), which mint-admin does not extract',
      ],
      [
        'an unknown letter (Q)',
        'Q',
        'entry "label" is of a tar entry type unknown to mint-admin, which it does not extract',
      ],
    ])('refuses %s by name', async (_name, flag, reason) => {
      const { error, root } = await download(
        rawTarGz([
          { type: 'file', path: 'index.html', content: 'x' },
          { type: 'raw', flag, path: 'label', content: 'abc' },
        ]),
      );
      expect(error?.message).toBe(`the bundle was refused, nothing was installed: ${reason}`);
      expect(readdirSync(root)).toEqual([]);
    });
  });

  describe('the size cap', () => {
    it('is 50x the download, at least 1 GB; entries at least 100,000', () => {
      expect(extractionLimits(3_500_000)).toEqual({ maxBytes: 1_000_000_000, maxEntries: 350_000, given: false });
      expect(extractionLimits(200_000)).toEqual({ maxBytes: 1_000_000_000, maxEntries: 100_000, given: false });
      expect(extractionLimits(100_000_000)).toEqual({ maxBytes: 5_000_000_000, maxEntries: 10_000_000, given: false });
      expect(extractionLimits(1000, 2_000_000)).toEqual({ maxBytes: 2_000_000, maxEntries: 100_000, given: true });
    });

    it('refuses a bundle that expands past the cap before writing past it', async () => {
      const entries: RawEntry[] = [0, 1, 2].map((i) => ({
        type: 'file',
        path: `f${i}.bin`,
        content: Buffer.alloc(600_000),
      }));
      const { error, root } = await download(rawTarGz(entries), { maxBytes: 1_000_000 });
      expect(error?.message).toBe(
        'the bundle was refused, nothing was installed: would make the bundle expand beyond 1.0 MB (at entry "f1.bin"); raise the size limit if it is expected',
      );
      // The rule alone too, for a face that says its own way to allow more.
      expect(error).toMatchObject({
        sizeLimit: 1_000_000,
        brokenRule: 'would make the bundle expand beyond 1.0 MB (at entry "f1.bin")',
        withoutNextStep:
          'the bundle was refused, nothing was installed: would make the bundle expand beyond 1.0 MB (at entry "f1.bin")',
      });
      // The CLI words it with its flag.
      expect((withFlags(error, { maxSize: '1MB' }) as Error).message).toBe(
        'the bundle was refused, nothing was installed: would make the bundle expand beyond 1.0 MB (at entry "f1.bin"); raise --max-size if it is expected',
      );
      expect((withFlags(error, {}) as Error).message).toBe(
        'the bundle was refused, nothing was installed: would make the bundle expand beyond 1.0 MB (at entry "f1.bin"); if that is expected, allow it with --max-size (e.g. --max-size 5GB)',
      );
      expect(readdirSync(root)).toEqual([]);
    });

    it("names a bomb past tar's own 1000:1 ratio as one, not as a broken archive", async () => {
      const { error } = await download(
        rawTarGz([{ type: 'file', path: 'zeros.bin', content: Buffer.alloc(50_000_000) }]),
      );
      expect(error?.message).toMatch(
        /^the bundle was refused, nothing was installed: it expands more than 1000 times its compressed size \(.*\), as only a decompression bomb does$/,
      );
    });

    // Plain zeros, not even a tar (what `head -c 1G /dev/zero | gzip` makes): 64 MB in ~64 KB.
    it('refuses gzip of nothing but zeros as a bomb, leaving nothing beside the target', async () => {
      const { error, root } = await download(gzipSync(Buffer.alloc(64 << 20)));
      expect(error?.message).toMatch(
        /^the bundle was refused, nothing was installed: it expands more than 1000 times its compressed size \(.*\), as only a decompression bomb does$/,
      );
      expect(readdirSync(root)).toEqual([]);
    });
  });

  // What gzip itself accepts after a member: zero bytes (padding, as a tape or a blocked writer leaves) and a
  // further member. `curl | tar -xz` installs both; the download hung on the first, waiting for an end zlib
  // had already reached.
  describe('gzip as gzip writes it', () => {
    const site = (): RawEntry[] => [
      { type: 'dir', path: 'site/' },
      { type: 'file', path: 'site/index.html', content: '<h1>hi</h1>' },
    ];

    it('installs an archive followed by zero bytes', async () => {
      const { error, target } = await download(Buffer.concat([rawTarGz(site()), Buffer.alloc(8 << 20)]));
      expect(error).toBeUndefined();
      expect(readFileSync(join(target, 'site/index.html'), 'utf8')).toBe('<h1>hi</h1>');
    }, 5_000);

    it('installs an archive split over two gzip members', async () => {
      const tar = rawTar(site());
      const { error, target } = await download(
        Buffer.concat([gzipSync(tar.subarray(0, 700)), gzipSync(tar.subarray(700))]),
      );
      expect(error).toBeUndefined();
      expect(readFileSync(join(target, 'site/index.html'), 'utf8')).toBe('<h1>hi</h1>');
    }, 5_000);
  });

  describe('what lands on disk', () => {
    it("normalises modes to 0644/0755 (never group or world writable, no setuid) and clamps future mtimes to the download clock's now", async () => {
      // (2200: the latest year an 11-digit octal mtime field holds.)
      const future = Date.UTC(2200, 0, 1);
      const past = Date.UTC(2020, 0, 1);
      const { error, target, clock } = await download(
        rawTarGz([
          { type: 'dir', path: 'open', mode: 0o777 },
          { type: 'file', path: 'open/world.html', content: 'w', mode: 0o666 },
          { type: 'file', path: 'open/setuid.sh', content: 's', mode: 0o4777 },
          { type: 'file', path: 'open/private.txt', content: 'p', mode: 0o600 },
          { type: 'file', path: 'later.html', content: 'l', mtime: future },
          { type: 'file', path: 'earlier.html', content: 'e', mtime: past },
        ]),
      );
      expect(error).toBeUndefined();
      const mode = (p: string) => statSync(join(target, p)).mode & 0o7777;
      expect([mode('open'), mode('open/world.html'), mode('open/setuid.sh'), mode('open/private.txt')]).toEqual([
        0o755, 0o644, 0o755, 0o644,
      ]);
      // The harness's FakeClock never moves here (nothing sleeps), so its now is the clamp exactly.
      expect(statSync(join(target, 'later.html')).mtimeMs).toBe(clock.now());
      expect(statSync(join(target, 'earlier.html')).mtimeMs).toBe(past);
    });

    it('names a file name too long for the filesystem as that, not as a broken archive', async () => {
      const long = `${'n'.repeat(300)}.html`;
      const { error, root } = await download(
        rawTarGz([
          { type: 'raw', flag: 'x', path: 'PaxHeader/x', content: paxRecords({ path: long }) },
          { type: 'file', path: 'short', content: 'x' },
        ]),
      );
      expect(error?.message).toMatch(
        new RegExp(
          `^a file name in the bundle is too long for the filesystem of .*/tree \\(at entry "${long.replace('.', '\\.')}"\\); nothing was installed$`,
        ),
      );
      expect(readdirSync(root)).toEqual([]);
    });
  });
});
