import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { branchNameProblem, checkBranchName } from '../src/branch-name.js';
import { UsageError } from '../src/errors.js';
import { externalProgram } from './helpers/programs.js';

const git = externalProgram('git', { installedByCi: false });

const CASES: Array<[string, string | undefined]> = [
  ['main', undefined],
  ['feat/login-page', undefined],
  ['release/v1.2.3', undefined],
  ['dependabot/npm_and_yarn/undici-7.1.0', undefined],
  ['ünïcode', undefined],
  ['a@b', undefined],
  ['', 'it is empty'],
  ['-rf', 'it starts with "-"'],
  ['@', undefined],
  ['HEAD', 'it is "HEAD"'],
  ['has space', 'it contains a space'],
  ['tab\there', 'it contains a control character (U+0009)'],
  ['esc\x1b[2J', 'it contains a control character (U+001B)'],
  ['a~1', 'it contains "~"'],
  ['a^2', 'it contains "^"'],
  ['a:b', 'it contains ":"'],
  ['what?', 'it contains "?"'],
  ['glob*', 'it contains "*"'],
  ['[fail]', 'it contains "["'],
  ['back\\slash', 'it contains "\\"'],
  ['a..b', 'it contains ".."'],
  ['a@{1}', 'it contains "@{"'],
  ['/lead', 'it starts or ends with "/"'],
  ['trail/', 'it starts or ends with "/"'],
  ['a//b', 'it contains "//"'],
  ['dot.', 'it ends with "."'],
  ['.hidden', 'the part ".hidden" starts with "."'],
  ['feat/.x', 'the part ".x" starts with "."'],
  ['x.lock', 'the part "x.lock" ends with ".lock"'],
  ['x.lock/y', 'the part "x.lock" ends with ".lock"'],
];

describe('branch names are checked by git check-ref-format --branch rules', () => {
  it.each(CASES)('%j: %s', (name, problem) => {
    expect(branchNameProblem(name)).toBe(problem);
  });

  it('a bad name is exit 2 with the rule it breaks and "nothing was sent"', () => {
    expect(() => checkBranchName('a..b')).toThrow(
      '"a..b" is not a valid git branch name: it contains ".."; nothing was sent',
    );
    expect(() => checkBranchName('a..b')).toThrow(UsageError);
  });

  // The table above must agree with git itself, not only with this file's reading of its manual. CI
  // clones the repository with git; a copy unpacked from an archive may be on a machine without it.
  it.skipIf(!git.path)(`agrees with git check-ref-format --branch on every case${git.skipNote}`, () => {
    for (const [name, problem] of CASES) {
      if (name === '') continue; // git is not asked about an empty argument the same way
      // Outside any repository, so git cannot read `@` or `@{-1}` as shorthand for a checked-out branch.
      const r = spawnSync(git.path!, ['check-ref-format', '--branch', name], { encoding: 'utf8', cwd: tmpdir() });
      expect(r.error).toBeUndefined();
      expect({ name, accepted: r.status === 0 }).toEqual({ name, accepted: problem === undefined });
    }
  });
});
