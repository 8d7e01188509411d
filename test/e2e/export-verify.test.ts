// `--verify` on export run/download: the check runs between extraction and install, so a broken
// export never replaces a working site, and what was downloaded is kept for inspection.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { c as createTar } from 'tar';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { writeSite } from '../site/fixture.js';
import { useExportSandbox } from './export-helpers.js';

const FAST = ['--interval', '100ms'];

/** The fixture site as the bundle the sandbox serves. */
async function bundleOf(opts: Parameters<typeof writeSite>[1]) {
  const dir = tempDir();
  try {
    const planted = writeSite(join(dir.path, 'site'), opts);
    const file = join(dir.path, 'site.tar.gz');
    await createTar({ gzip: true, file, cwd: join(dir.path, 'site') }, readdirSync(join(dir.path, 'site')));
    return { archive: readFileSync(file), planted };
  } finally {
    dir.cleanup();
  }
}

describe('export run/download --verify', () => {
  const t = useExportSandbox();

  it('installs a clean export and says it was verified', async () => {
    t.sandbox.setBundleArchive((await bundleOf({})).archive);
    const id = await t.exportJob();
    const out = join(t.dir, 'site');
    const r = await t.cli(['export', 'download', id, '-o', out, '--verify']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${out}\n`);
    expect(r.stderr).toMatch(
      /\nVerified: Checked 5 pages, 12 files in all, 25 internal references, 3 sitemap entries: no problems; 2 external links not checked \(offline\)\n/,
    );
    expect(existsSync(join(out, 'guides/intro.html'))).toBe(true);
  });

  it('export run --base-path /docs --verify checks the site for the base path it was built for (project flow)', async () => {
    t.sandbox.setBundleArchive((await bundleOf({ basePath: '/docs' })).archive);
    const out = join(t.dir, 'site');
    const env = { MINTLIFY_PROJECT_ID: t.sandbox.projectId };
    const r = await t.cli(['export', 'run', '-o', out, '--base-path', '/docs', '--verify', ...FAST], { env });
    expect(r.stderr).toMatch(
      /\nVerified: Checked 5 pages, 12 files in all, 25 internal references, 3 sitemap entries: no problems; 2 external links not checked \(offline\)\n/,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${out}\n`);
  });

  it('refuses a broken export with exit 4: the old site stays, the new one is kept beside it', async () => {
    const { archive, planted } = await bundleOf({ plant: true });
    t.sandbox.setBundleArchive(archive);
    const out = join(t.dir, 'site');
    mkdirSync(out);
    writeFileSync(join(out, 'index.html'), 'the site in production');
    const r = await t.cli(['export', 'run', 'docs.example.com', '-o', out, '--force', '--verify', ...FAST]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    for (const p of planted) expect(r.stderr).toContain(`\n${p.page}: ${p.kind} ${p.target}\n`);
    const kept = /the new export is kept in (\S+)\n$/.exec(r.stderr)?.[1];
    expect(kept).toMatch(new RegExp(`^${out}\\.unverified-se_[0-9a-f]{16}$`));
    expect(r.stderr).toMatch(
      /error: export se_[0-9a-f]{16} failed verification: 6 problems \(listed above\); \S+ was left as it was, and the new export is kept in /,
    );
    expect(readdirSync(out)).toEqual(['index.html']);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('the site in production');
    expect(readFileSync(join(kept!, 'guides/intro.html'), 'utf8')).toContain('<title>Intro</title>');
    // Nothing else is left beside the target: no work directory.
    expect(readdirSync(t.dir).sort()).toEqual(['site', kept!.slice(t.dir.length + 1)].sort());
  });
});
