import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArchiveRefusedError } from '../../src/download/index.js';
import { serveArchive } from '../helpers/storage.js';
import { rawTarGz, type RawEntry } from '../helpers/tar-evil.js';
import { EXTRACTIONS, readTree, useHarness } from './fixtures.js';
import { exitCodeOf } from '../../src/cli/cli-errors.js';

/** Where the extraction runs: set by each pass of describe.each(EXTRACTIONS) below. */
let extraction: URL | false = false;

const perTest = useHarness();

const benign: RawEntry[] = [
  { type: 'dir', path: 'site/' },
  { type: 'file', path: 'site/index.html', content: '<h1>hi</h1>' },
];

/** The archive is served for `<root>/site`; `<root>/outside` is a directory nothing may touch. */
async function attempt(entries: (rootPath: string) => RawEntry[], force = false) {
  mkdirSync(join(perTest.root, 'outside'));
  const archive = rawTarGz([...benign, ...entries(perTest.root)]);
  const h = await perTest.start({
    storage: serveArchive(() => archive),
    archive: () => archive,
    target: join(perTest.root, 'site'),
    extraction,
  });
  return h.download({ force }).then(
    () => {
      throw new Error('expected the archive to be refused');
    },
    (error: unknown) => error as ArchiveRefusedError,
  );
}

const refused = (reason: string) => `the bundle was refused, nothing was installed: ${reason}`;

describe.each(EXTRACTIONS)('extracting %s', (_name, worker) => {
  beforeAll(() => {
    extraction = worker;
  });

  describe('archives that are refused as a whole', () => {
    it.each<[string, (root: string) => RawEntry[], string]>([
      [
        'a file climbing out with ..',
        () => [{ type: 'file', path: '../x', content: 'pwned' }],
        `entry "../x" has a '..' component`,
      ],
      [
        'a file deeper that climbs out',
        () => [{ type: 'file', path: 'site/../../outside/x', content: 'pwned' }],
        `entry "site/../../outside/x" has a '..' component`,
      ],
      [
        'a file at an absolute path',
        (r) => [{ type: 'file', path: `${r}/outside/abs`, content: 'pwned' }],
        'has an absolute path',
      ],
      [
        'a symlink climbing out, then a file through it',
        () => [
          { type: 'symlink', path: 'link', target: '../../outside' },
          { type: 'file', path: 'link/x', content: 'pwned' },
        ],
        'entry "link" is a symlink pointing outside the bundle ("../../outside")',
      ],
      [
        'a symlink inside, then a file through it',
        () => [
          { type: 'dir', path: 'sub/' },
          { type: 'symlink', path: 'a', target: 'sub' },
          { type: 'file', path: 'a/x', content: 'pwned' },
        ],
        'entry "a/x" is inside "a", which is a link',
      ],
      [
        'a symlink to /etc',
        () => [{ type: 'symlink', path: 'etc', target: '/etc' }],
        'entry "etc" is a symlink to an absolute path ("/etc")',
      ],
      [
        'a hard link out of the tree',
        () => [{ type: 'hardlink', path: 'h', target: '../outside' }],
        'entry "h" is a hard link to "../outside", outside the bundle',
      ],
      [
        'a FIFO',
        () => [{ type: 'fifo', path: 'site/pipe' }],
        'entry "site/pipe" is a FIFO; only files, directories and links are allowed',
      ],
      [
        'a character device',
        () => [{ type: 'chardev', path: 'site/null' }],
        'entry "site/null" is a character device; only files, directories and links are allowed',
      ],
      [
        'a block device',
        () => [{ type: 'blockdev', path: 'site/sda' }],
        'entry "site/sda" is a block device; only files, directories and links are allowed',
      ],
    ])('%s', async (_name, entries, reason) => {
      const error = await attempt(entries);
      expect(error).toBeInstanceOf(ArchiveRefusedError);
      expect(exitCodeOf(error)).toBe(1);
      if (reason.startsWith('entry')) expect(error.message).toBe(refused(reason));
      else expect(error.message).toBe(refused(`entry ${JSON.stringify(`${perTest.root}/outside/abs`)} ${reason}`));
      // Nothing outside, no temp directory or file left beside the target, no target either.
      expect(readdirSync(perTest.root)).toEqual(['outside']);
      expect(readdirSync(join(perTest.root, 'outside'))).toEqual([]);
      expect(existsSync(join(perTest.root, 'x'))).toBe(false);
    });

    it('leaves a --force target exactly as it was', async () => {
      const site = () => join(perTest.root, 'site');
      const error = await attempt((r) => {
        mkdirSync(join(r, 'site'));
        writeFileSync(join(r, 'site', 'keep.html'), 'keep me');
        return [{ type: 'symlink', path: 'site/etc', target: '/etc' }];
      }, true);
      expect(error.message).toBe(refused('entry "site/etc" is a symlink to an absolute path ("/etc")'));
      expect(readTree(site())).toEqual(new Map([['keep.html', Buffer.from('keep me').toString('base64')]]));
      expect(readdirSync(perTest.root).sort()).toEqual(['outside', 'site']);
    });

    it('accepts links that stay inside and extracts them as links', async () => {
      const archive = rawTarGz([
        ...benign,
        { type: 'symlink', path: 'site/home.html', target: 'index.html' },
        { type: 'hardlink', path: 'site/copy.html', target: 'site/index.html' },
      ]);
      const h = await perTest.start({
        storage: serveArchive(() => archive),
        archive: () => archive,
        target: join(perTest.root, 'out'),
        extraction,
      });
      const result = await h.download();
      expect(result).toMatchObject({ files: 2, bytes: 22 });
      const html = Buffer.from('<h1>hi</h1>').toString('base64');
      expect(readTree(result.directory)).toEqual(
        new Map([
          ['site/index.html', html],
          ['site/home.html', html],
          ['site/copy.html', html],
        ]),
      );
    });
  });
});
