import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/program.js';
import { manPages } from '../src/cli/man/roff.js';
import { systemClock } from '../src/clock.js';
import { VERSION } from '../src/version.js';
import { externalProgram } from './helpers/programs.js';

const dir = new URL('../man/', import.meta.url);

function generated() {
  let captured = '';
  const sink = { write: (text: string) => ((captured += text), true) };
  const io = { stdout: sink, stderr: sink, columns: Number.MAX_SAFE_INTEGER } as unknown as Parameters<
    typeof buildProgram
  >[0]['io'];
  const program = buildProgram({
    io,
    env: {},
    clock: systemClock,
    signal: new AbortController().signal,
    random: Math.random,
  });
  return manPages(
    program,
    VERSION,
    () => captured,
    () => (captured = ''),
  );
}

describe('man/', () => {
  const pages = generated();

  it('has one page per command and nothing else (run `npm run man` after changing commands)', () => {
    expect(readdirSync(dir).sort()).toEqual(pages.map((p) => p.file).sort());
    expect(pages.map((p) => p.file)).toContain('mint-admin-export-download.1');
  });

  it('package.json lists every page, so a global install links them for man', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { man: string[] };
    expect(pkg.man).toEqual(pages.map((p) => `./man/${p.file}`).sort());
  });

  it.each(pages.map((p) => [p.file, p.text]))('%s matches the command tree', (file, text) => {
    expect(readFileSync(new URL(file, dir), 'utf8')).toBe(text);
  });

  // CI installs groff (.ci/run); there a missing one is a failure, not a skip.
  const groff = externalProgram('groff', { installedByCi: true });
  it.skipIf(!groff.path)(
    `pages render without a warning from groff, with the help text in them${groff.skipNote}`,
    () => {
      const r = spawnSync(groff.path!, ['-man', '-Tutf8', '-ww', `${dir.pathname}mint-admin-export-download.1`], {
        encoding: 'utf8',
        env: { ...process.env, LC_ALL: 'C.UTF-8' },
      });
      expect(r.stderr).toBe('');
      const plain = r.stdout.replace(/.\x08/g, '');
      expect(plain).toContain('mint-admin export download [options] <jobId>');
      expect(plain).toContain('$ mint-admin export download se_3f9a2c1b8e7d4a06 -o ./site');
      expect(plain).toMatch(/--keep-releases <n>\s+with --link: how many releases to keep/);
    },
  );
});
