// The live extraction on the bundles users have (issue 34): an archive made by GNU tar (`./` before
// every path, a PAX header before every entry, the 10 KB record padding) of incompressible entries
// (random bytes, as images, fonts and pre-compressed assets are), ~22 MB with a large file among
// many pages, downloaded over loopback: extracted whole, from one download.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { EXTRACTIONS, useHarness } from './fixtures.js';

const GNU_TAR = /GNU tar/.test(spawnSync('tar', ['--version'], { encoding: 'utf8' }).stdout ?? '');
const PAGES = 2_000;
const PAGE_BYTES = 5_800;
const LARGE_BYTES = 10 << 20;

/** Every regular file under `dir` by relative path, as a SHA-256 of its bytes. */
function digests(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.set(relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/** The archive and its source's digests, made once for the file (GNU tar gzips ~22 MB of random bytes). */
const sample = { archive: Buffer.alloc(0), tree: new Map<string, string>() };
let made: ReturnType<typeof tempDir> | undefined;
beforeAll(() => {
  if (!GNU_TAR) return;
  made = tempDir();
  const source = join(made.path, 'source');
  for (let i = 0; i < PAGES; i++) {
    mkdirSync(join(source, `section-${i % 20}`), { recursive: true });
    writeFileSync(join(source, `section-${i % 20}`, `page-${i}.html`), randomBytes(PAGE_BYTES));
  }
  mkdirSync(join(source, 'media'));
  writeFileSync(join(source, 'media', 'intro.mp4'), randomBytes(LARGE_BYTES));
  const file = join(made.path, 'bundle.tar.gz');
  const tar = spawnSync('tar', ['--format=pax', '-czf', file, '-C', source, '.'], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`GNU tar failed: ${tar.stderr}`);
  sample.archive = readFileSync(file);
  sample.tree = digests(source);
  // The archive is what the test says it is: `./` paths, PAX headers, and no smaller than its content.
  expect(spawnSync('tar', ['-tzf', file], { encoding: 'utf8' }).stdout).toContain('./media/intro.mp4');
  expect(
    spawnSync('sh', ['-c', `gzip -dc '${file}' | grep -c -a PaxHeaders`], { encoding: 'utf8' }).stdout.trim(),
  ).not.toBe('0');
  expect(sample.archive.length).toBeGreaterThan(PAGES * PAGE_BYTES + LARGE_BYTES);
});
afterAll(() => made?.cleanup());

describe.skipIf(!GNU_TAR).each(EXTRACTIONS)('an incompressible GNU tar archive, extracted %s', (_name, extraction) => {
  const h = useHarness();

  it('is extracted completely from the one download, with every byte as in its source', async () => {
    const target = join(h.root, 'site');
    const harness = await h.start({
      storage: (_req, res) => res.end(sample.archive),
      archive: () => sample.archive,
      target,
      extraction,
    });
    const result = await harness.download();
    expect(harness.requests).toHaveLength(1);
    expect(result.files).toBe(PAGES + 1);
    expect(digests(target)).toEqual(sample.tree);
  });
});

describe.skipIf(!GNU_TAR).each(EXTRACTIONS)('a refused GNU tar archive, extracting %s', (_name, extraction) => {
  const h = useHarness();

  it('is refused by name from the one download', async () => {
    const source = join(h.root, 'source');
    mkdirSync(source);
    writeFileSync(join(source, 'index.html'), randomBytes(PAGE_BYTES));
    symlinkSync('/etc', join(source, 'etc'));
    const file = join(h.root, 'bundle.tar.gz');
    spawnSync('tar', ['--format=pax', '-czf', file, '-C', source, '.']);
    const archive = readFileSync(file);
    const harness = await h.start({
      storage: (_req, res) => res.end(archive),
      archive: () => archive,
      target: join(h.root, 'site'),
      extraction,
    });
    await expect(harness.download()).rejects.toThrow(
      /^the bundle was refused, nothing was installed: entry "\.\/etc" is a symlink to an absolute path/,
    );
    expect(harness.requests).toHaveLength(1);
  });
});
