// Every install line a user may copy names a version, and every reference to the action is @v1 (or a
// commit): mint-admin runs with the admin key in its environment, so an unpinned name runs whatever
// is published under it at that moment (README, "Install"). And the versions named are this one:
// `mint-admin@1.0.0` is package.json's version, `mint-admin@1` its major, DuckDB's the tested one.
// CHANGELOG.md is history and quotes old lines, so it is not read.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DUCKDB_VERSION } from '../../src/analytics-store/warehouse-install.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const major = version.split('.')[0]!;

const filesIn = (dir: string, pattern: RegExp) =>
  existsSync(join(root, dir))
    ? readdirSync(join(root, dir))
        .filter((f) => pattern.test(f))
        .map((f) => `${dir}/${f}`)
    : [];
const files = [
  'README.md',
  'action.yml',
  ...filesIn('docs', /\.md$/),
  ...filesIn('.github/workflows', /\.ya?ml$/),
  ...filesIn('scripts', /\.(mjs|cjs|js|sh)$/),
  ...filesIn('examples', /./),
];

/** What is wrong with one line: each unpinned or foreign install, action reference or tarball name in it. */
function problemsOf(line: string): string[] {
  const problems: string[] = [];
  const pinned = (spec: string) => {
    if (spec === 'mint-admin' || spec === '@duckdb/node-api') return `${spec} without a version`;
    const mine = /^mint-admin@(.+)$/.exec(spec);
    if (mine && mine[1] !== major && mine[1] !== version) return `${spec}: name ${major} or ${version}`;
    const duck = /^@duckdb\/node-api@(.+)$/.exec(spec);
    if (duck && duck[1] !== DUCKDB_VERSION) return `${spec}: name ${DUCKDB_VERSION}, the version tested`;
    return undefined;
  };
  // An install command runs to the end of the line or a shell separator, a comment or a code span's end.
  for (const m of line.matchAll(
    /\b(npm\s+(?:install|i|add)|pnpm\s+add|yarn\s+(?:global\s+)?add|bun\s+add|npx|pnpm\s+dlx|yarn\s+dlx|bunx)\s+([^`;&|#)\n]*)/g,
  )) {
    const words = m[2]!
      .trim()
      .split(/\s+/)
      .filter((w) => w && !w.startsWith('-'));
    // npx runs one package; what follows it are that package's arguments.
    for (const spec of /npx|dlx|bunx/.test(m[1]!) ? words.slice(0, 1) : words) {
      const problem = pinned(spec.replace(/^["']|["']$/g, ''));
      if (problem) problems.push(problem);
    }
  }
  for (const m of line.matchAll(/uses:\s*[\w.-]+\/mint-admin@([^\s"'`]+)/g)) {
    if (m[1] !== `v${major}` && !/^[0-9a-f]{40}$/.test(m[1]!))
      problems.push(`the action at @${m[1]}: use @v${major} or a full commit SHA`);
  }
  for (const m of line.matchAll(/mint-admin-(\d[\w.-]*)\.tgz/g)) {
    if (m[1] !== version) problems.push(`mint-admin-${m[1]}.tgz: this version's tarball is mint-admin-${version}.tgz`);
  }
  return problems;
}

describe('install lines and action references', () => {
  it('the check finds what it must', () => {
    expect(problemsOf('npm install -g mint-admin')).toEqual(['mint-admin without a version']);
    expect(problemsOf('npm install --global mint-admin --omit=optional')).toEqual(['mint-admin without a version']);
    expect(problemsOf('run `npx --yes mint-admin agent run`')).toEqual(['mint-admin without a version']);
    expect(problemsOf('npm i mint-admin@0.3.0 @duckdb/node-api')).toEqual([
      `mint-admin@0.3.0: name ${major} or ${version}`,
      '@duckdb/node-api without a version',
    ]);
    expect(problemsOf('      - uses: OWNER/mint-admin@v0.3.0')).toEqual([
      `the action at @v0.3.0: use @v${major} or a full commit SHA`,
    ]);
    expect(problemsOf('- uses: mint-admin/mint-admin@main')).toHaveLength(1);
    expect(problemsOf('npm install --global ./mint-admin-0.1.0.tgz')).toHaveLength(1);
    // Pinned, a commit, another package's arguments, and prose are fine.
    expect(
      problemsOf(`npm install --global mint-admin@${major} && npm install --global @duckdb/node-api@${DUCKDB_VERSION}`),
    ).toEqual([]);
    expect(problemsOf(`- uses: mint-admin/mint-admin@${'a'.repeat(40)}`)).toEqual([]);
    expect(problemsOf('npx --yes @modelcontextprotocol/inspector@2.12.0 --cli mint-admin mcp')).toEqual([]);
    expect(problemsOf('an unpinned `npm install -g mint-admin` runs whatever is published')).toEqual([
      'mint-admin without a version',
    ]);
  });

  it('reads the documents, the action, the workflows and the scripts', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'action.yml',
        'docs/ci.md',
        'docs/analytics.md',
        '.github/workflows/ci.yml',
      ]),
    );
  });

  it.each(files)('%s installs only pinned versions and names the action @v1', (file) => {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    const found = lines.flatMap((line, i) => problemsOf(line).map((problem) => `${file}:${i + 1}: ${problem}`));
    expect(found).toEqual([]);
  });
});
