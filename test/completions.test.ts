import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/program.js';
import { COMPLETION_FILES, completionScript } from '../src/cli/completion/index.js';
import { systemClock } from '../src/clock.js';
import { captureIO } from './helpers/io.js';
import { runCli } from './helpers/cli.js';
import { externalProgram } from './helpers/programs.js';

const file = (shell: keyof typeof COMPLETION_FILES) =>
  new URL(`../completions/${COMPLETION_FILES[shell]}`, import.meta.url).pathname;
const program = () =>
  buildProgram({
    io: captureIO().io,
    env: {},
    clock: systemClock,
    signal: new AbortController().signal,
    random: Math.random,
  });

// CI installs every shell (.ci/run); there a missing one is a failure, not a skip.
const zsh = externalProgram('zsh', { installedByCi: true });
const fish = externalProgram('fish', { installedByCi: true });

/** What the shell offers after the typed words; the last word is the one being completed. */
const cases: Array<[string, string[], string[]]> = [
  ['top-level commands', ['co'], ['completion', 'config']],
  ['subcommands', ['config', 'u'], ['unset']],
  ['config keys for config set', ['config', 'set', ''], ['api-key', 'base-url', 'export-api', 'project-id']],
  ['nothing more after the key', ['config', 'set', 'api-key', 'x'], []],
  [
    'global flags after a subcommand, skipping option values',
    ['--profile', 'staging', 'config', 'list', '--pro'],
    ['--profile', '--project'],
  ],
  ['shell names for completion', ['completion', 'f'], ['fish']],
  ['export subcommands', ['export', 'd'], ['download']],
  ['agent subcommands', ['agent', ''], ['get', 'message', 'run']],
  ['the values of --format', ['searches', 'list', '--format', ''], ['csv', 'json', 'ndjson', 'table']],
  ['flags of a leaf command', ['export', 'download', 'se_1', '--ar'], ['--archive']],
];

/** Path completion, run in a directory holding one folder and one file. */
const pathCases: Array<[string, string[], string[]]> = [
  ['directories after --out', ['export', 'download', 'se_1', '--out', ''], ['site']],
  ['files after -o of searches list', ['searches', 'list', '-o', 'n'], ['notes.csv']],
  ['files after --archive', ['export', 'run', 'docs.example.com', '--archive', 'n'], ['notes.csv']],
  ['files after -f', ['agent', 'run', '-f', ''], ['notes.csv', 'site']],
  ['directories for export verify', ['export', 'verify', ''], ['site']],
  ['directories for export serve', ['export', 'serve', 's'], ['site']],
  ['directories for export serve after a flag and its value', ['export', 'serve', '--port', '0', ''], ['site']],
  ['no second directory for export serve', ['export', 'serve', 'site', ''], []],
];

function pathFixture(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'mint-admin-completion-'));
  mkdirSync(join(dir, 'site'));
  writeFileSync(join(dir, 'notes.csv'), '');
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('completions/', () => {
  it.each(['bash', 'zsh', 'fish'] as const)(
    '%s matches the command tree (run `npm run completions` after changing commands)',
    async (shell) => {
      expect(readFileSync(file(shell), 'utf8')).toBe(await completionScript(shell, program()));
    },
  );

  it.each(['bash', 'zsh', 'fish'] as const)('`mint-admin completion %s` prints the same text', async (shell) => {
    const r = await runCli(['completion', shell]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(file(shell), 'utf8'));
  });

  it('refuses an unknown shell with exit 2', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Allowed choices are bash, zsh, fish/);
  });
});

describe('bash', () => {
  const complete = (words: string[], cwd?: string) =>
    execFileSync(
      'bash',
      [
        '-c',
        `source "$0"; COMP_WORDS=(mint-admin "$@"); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); _mint_admin; printf '%s\\n' "\${COMPREPLY[@]}"`,
        file('bash'),
        ...words,
      ],
      { encoding: 'utf8', cwd },
    )
      .split('\n')
      .filter(Boolean)
      .sort();

  it('is valid bash', () => {
    expect(spawnSync('bash', ['-n', file('bash')]).status).toBe(0);
  });
  it.each(cases)('offers %s', (_n, words, expected) => expect(complete(words)).toEqual(expected));
  it.each(pathCases)('offers %s', (_n, words, expected) => {
    const fixture = pathFixture();
    try {
      expect(complete(words, fixture.dir)).toEqual(expected);
    } finally {
      fixture.cleanup();
    }
  });
});

describe.skipIf(!zsh.path)(`zsh${zsh.skipNote}`, () => {
  // compadd, _describe and _files only exist inside a completion widget: stand-ins print what the
  // real ones would be asked to offer, and the generated function runs in a real zsh.
  const harness = `
    compdef() { :; }
    _describe() { local -a items; items=("\${(@P)4}"); local i; for i in $items; do print -r -- "\${\${i%%:*}//\\\\/}"; done; }
    compadd() { shift; print -l -- "$@"; }
    _files() { print -- "(files $*)"; }
    source "$1"; shift
    words=(mint-admin "$@"); CURRENT=$#words
    _mint-admin`;
  const complete = (words: string[]) =>
    execFileSync(zsh.path!, ['-f', '-c', harness, 'zsh', file('zsh'), ...words], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .sort();

  it('is valid zsh', () => {
    expect(spawnSync(zsh.path!, ['-n', file('zsh')]).status).toBe(0);
  });
  it.each(cases)('offers %s', (_n, words, expected) =>
    expect(complete(words).filter((w) => w.startsWith(words.at(-1) ?? ''))).toEqual(expected),
  );
  // zsh's own _files does the matching; what matters is that it is asked, for directories after --out.
  it.each([
    ['directories after --out', ['export', 'download', 'se_1', '--out', ''], ['(files -/)']],
    ['files after -o of searches list', ['searches', 'list', '-o', 'n'], ['(files )']],
    ['files after --archive', ['export', 'run', 'docs.example.com', '--archive', ''], ['(files )']],
    ['files after -f', ['agent', 'message', 'job_1', '-f', ''], ['(files )']],
    ['directories for export verify', ['export', 'verify', ''], ['(files -/)']],
    ['directories for export serve', ['export', 'serve', '--port', '0', ''], ['(files -/)']],
  ])('hands %s to _files', (_n, words, expected) => expect(complete(words)).toEqual(expected));
});

describe.skipIf(!fish.path)(`fish${fish.skipNote}`, () => {
  const complete = (words: string[], cwd?: string) =>
    execFileSync(
      fish.path!,
      ['--no-config', '-c', 'source $argv[1]; complete -C "mint-admin $argv[2..-1]"', file('fish'), ...words],
      { encoding: 'utf8', cwd },
    )
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t')[0]!)
      .sort();

  it('is valid fish', () => {
    expect(spawnSync(fish.path!, ['--no-config', '-n', file('fish')]).status).toBe(0);
  });
  it.each(cases)('offers %s', (_n, words, expected) => expect(complete(words)).toEqual(expected));
  it.each(pathCases)('offers %s', (_n, words, expected) => {
    const fixture = pathFixture();
    try {
      // fish marks directories with a trailing slash.
      expect(complete(words, fixture.dir).map((w) => w.replace(/\/$/, ''))).toEqual(expected);
    } finally {
      fixture.cleanup();
    }
  });
});
