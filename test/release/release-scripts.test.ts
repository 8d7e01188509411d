// The release pipeline's checks that can run here (.github/workflows cannot): the workflow schema
// check, the tag/version/CHANGELOG check and the action bundle check, each run as the workflows run
// them (node scripts/<name>.mjs) against files made for the case, passing and failing.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAction } from '../../scripts/build-action.mjs';
import { tempDir } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function script(name: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [join(root, 'scripts', name), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, GITHUB_OUTPUT: '', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const dirs: Array<{ path: string; cleanup(): void }> = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
function scratch(): string {
  const dir = tempDir('mint-admin-release-');
  dirs.push(dir);
  return dir.path;
}

describe('scripts/validate-workflows.mjs', () => {
  it("passes the repository's workflows", () => {
    const r = script('validate-workflows.mjs', []);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ci\.yml, release\.yml valid/);
  });

  it('fails a workflow GitHub would refuse, naming the file and the place', () => {
    const dir = scratch();
    copyFileSync(join(root, '.github/workflows/ci.yml'), join(dir, 'ci.yml'));
    writeFileSync(
      join(dir, 'broken.yml'),
      'on: push\njobs:\n  test:\n    runs-onn: ubuntu-latest\n    steps:\n      - run: npm test\n',
    );
    const r = script('validate-workflows.mjs', [dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^workflows: broken\.yml is not a valid workflow:/);
    expect(r.stderr).toContain("Additional property 'runs-onn' is not allowed");
    expect(r.stderr).not.toContain('ci.yml');
  });

  it('fails a directory with no workflow in it', () => {
    expect(script('validate-workflows.mjs', [scratch()]).code).toBe(1);
  });
});

describe('scripts/check-release-version.mjs', () => {
  const changelog = (version: string) =>
    `# Changelog\n\n## [Unreleased]\n\n## [${version}] - 2026-11-29\n\nWhat ${version} is.\n\n### Added\n\n- a thing\n\n## [0.3.0] - 2026-11-28\n\n- older\n\n[${version}]: https://example.com\n`;
  function project(version: string, log = changelog(version)): string {
    const dir = scratch();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'mint-admin', version }));
    writeFileSync(join(dir, 'CHANGELOG.md'), log);
    return dir;
  }

  it("passes this repository's version as its tag: package.json and CHANGELOG.md agree", () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const r = script('check-release-version.mjs', [`v${version}`]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('a matching tag: the section as the release notes, and the major tag to move, for the workflow', () => {
    const dir = project('1.2.3');
    const output = join(dir, 'github-output');
    writeFileSync(output, '');
    const r = script('check-release-version.mjs', ['v1.2.3', '--root', dir, '--notes', join(dir, 'notes.md')], {
      GITHUB_OUTPUT: output,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('What 1.2.3 is.\n\n### Added\n\n- a thing\n');
    expect(readFileSync(output, 'utf8')).toBe('version=1.2.3\nmajor=v1\nprerelease=false\n');
  });

  it('a prerelease says so (the workflow moves no tag for it)', () => {
    const dir = project('2.0.0-rc.1');
    const output = join(dir, 'github-output');
    writeFileSync(output, '');
    expect(script('check-release-version.mjs', ['v2.0.0-rc.1', '--root', dir], { GITHUB_OUTPUT: output }).code).toBe(0);
    expect(readFileSync(output, 'utf8')).toBe('version=2.0.0-rc.1\nmajor=v2\nprerelease=true\n');
  });

  it.each([
    ['a tag for another version', 'v1.2.4', project],
    ['a tag without the v', '1.2.3', project],
  ])('%s fails, naming both', (_name, tag, make) => {
    const r = script('check-release-version.mjs', [tag, '--root', make('1.2.3')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the tag "${tag}" does not match package.json's version "1.2.3"`);
  });

  it('a version CHANGELOG.md has no dated section for fails', () => {
    const undated = project('1.2.3', '# Changelog\n\n## [Unreleased]\n\n## [1.2.3]\n\n- a thing\n');
    const r = script('check-release-version.mjs', ['v1.2.3', '--root', undated]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('CHANGELOG.md has no dated section "## [1.2.3] - YYYY-MM-DD"');
    expect(
      script('check-release-version.mjs', [
        'v1.2.3',
        '--root',
        project('1.2.3', '# Changelog\n\n## [1.2.2] - 2026-01-01\n\n- x\n'),
      ]).code,
    ).toBe(1);
  });
});

describe('scripts/check-action-bundle.mjs', () => {
  it('passes a bundle that is a fresh build, and fails one that differs by a byte', async () => {
    const dir = scratch();
    const fresh = Buffer.from((await buildAction({ write: false })) as Uint8Array);
    writeFileSync(join(dir, 'fresh.cjs'), fresh);
    const same = script('check-action-bundle.mjs', ['--bundle', join(dir, 'fresh.cjs')]);
    expect(same.code, same.stderr).toBe(0);
    const stale = Buffer.from(fresh);
    stale[stale.length - 2] = stale[stale.length - 2]! ^ 1;
    mkdirSync(join(dir, 'stale'));
    writeFileSync(join(dir, 'stale/index.cjs'), stale);
    const r = script('check-action-bundle.mjs', ['--bundle', join(dir, 'stale/index.cjs')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('run `npm run build:action`, commit the result, and tag that commit');
  }, 60_000);

  it('--bundle without a file is a usage error, not a file it cannot read', () => {
    const r = script('check-action-bundle.mjs', ['--bundle']);
    expect(r.stderr).toBe('usage: node scripts/check-action-bundle.mjs [--bundle <file>]\n');
    expect(r.code).toBe(2);
  });
});
