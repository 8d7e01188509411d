// The `command` input becomes argv without a shell: quotes group words, nothing expands or runs.
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../action/src/command-line.js';
import { wantsGithubOutput } from '../../action/src/outputs.js';

describe('parseCommandLine', () => {
  it.each([
    ['plain words', 'preview start feature-x --wait', ['preview', 'start', 'feature-x', '--wait']],
    ['runs of spaces, tabs and newlines between words', '  preview\tstart \n feature-x  ', ['preview', 'start', 'feature-x']],
    ['the program name, optional', 'mint-admin deploy status abc', ['deploy', 'status', 'abc']],
    ['single quotes keep everything literal', `agent run 'fix the "intro" $(rm -rf /)'`, ['agent', 'run', 'fix the "intro" $(rm -rf /)']],
    ['double quotes group and unescape \\" \\\\ \\$ \\`', 'agent run "say \\"hi\\" for \\$5 \\\\ `x`"', ['agent', 'run', 'say "hi" for $5 \\ `x`']],
    ['a backslash elsewhere in double quotes stays', '"a\\nb"', ['a\\nb']],
    ['quotes joined to a word', `--prompt='a b'c`, ['--prompt=a bc']],
    ['an empty quoted word', `agent run ''`, ['agent', 'run', '']],
    ['a backslash-escaped space', 'preview start my\\ branch', ['preview', 'start', 'my branch']],
    ['$VARS and ~ are not expanded', 'export run -o $HOME/~', ['export', 'run', '-o', '$HOME/~']],
    ['nothing at all', '   ', []],
  ])('%s', (_name, line, argv) => {
    expect(parseCommandLine(line)).toEqual(argv);
  });

  it.each([
    [`preview start 'feature`, /unclosed single quote/],
    ['agent run "fix', /unclosed double quote/],
  ])('refuses %s', (line, message) => {
    expect(() => parseCommandLine(line)).toThrow(message);
  });
});

describe('wantsGithubOutput: the action adds --github-output for the commands that write outputs', () => {
  it.each([
    [['preview', 'start', 'x', '--wait'], true],
    [['--project', 'p1', 'preview', 'start', 'x'], true],
    [['-p', 'p1', '--json', 'deploy', 'status', 's1'], true],
    [['--base-url=http://x', 'agent', 'run', 'fix it'], true],
    [['export', 'run', '-o', 'site'], true],
    [['preview', 'start', 'x', '--github-output'], false],
    [['automation', 'run', 'wf_1'], false],
    [['--profile', 'preview', 'searches', 'list'], false],
  ])('%j -> %s', (argv, expected) => {
    expect(wantsGithubOutput(argv)).toBe(expected);
  });
});
