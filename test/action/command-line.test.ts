// The `command` input becomes argv without a shell: quotes group words, nothing expands or runs.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../action/src/command-line.js';
import { wantsGithubOutput } from '../../action/src/outputs.js';
import { systemClock } from '../../src/clock.js';
import { buildProgram } from '../../src/cli/program.js';
import { captureIO } from '../helpers/io.js';

describe('parseCommandLine', () => {
  it.each([
    ['plain words', 'preview start feature-x --wait', ['preview', 'start', 'feature-x', '--wait']],
    [
      'runs of spaces, tabs and newlines between words',
      '  preview\tstart \n feature-x  ',
      ['preview', 'start', 'feature-x'],
    ],
    ['the program name, optional', 'mint-admin deploy status abc', ['deploy', 'status', 'abc']],
    [
      'single quotes keep everything literal',
      `agent run 'fix the "intro" $(rm -rf /)'`,
      ['agent', 'run', 'fix the "intro" $(rm -rf /)'],
    ],
    [
      'double quotes group and unescape \\" \\\\ \\$ \\`',
      'agent run "say \\"hi\\" for \\$5 \\\\ `x`"',
      ['agent', 'run', 'say "hi" for $5 \\ `x`'],
    ],
    ['a backslash elsewhere in double quotes stays', '"a\\nb"', ['a\\nb']],
    ['quotes joined to a word', `--prompt='a b'c`, ['--prompt=a bc']],
    ['an empty quoted word', `agent run ''`, ['agent', 'run', '']],
    ['a backslash-escaped space', 'preview start my\\ branch', ['preview', 'start', 'my branch']],
    ['$VARS and ~ are not expanded', 'export run -o $HOME/~', ['export', 'run', '-o', '$HOME/~']],
    ['nothing at all', '   ', []],
  ])('%s', (_name, line, argv) => {
    expect(parseCommandLine(line)).toEqual(argv);
  });

  // A shell splits on its IFS (space, tab, newline) only; git allows other Unicode spaces in a branch
  // name, and splitting on them would let `${{ github.head_ref }}` inject options.
  it.each([
    ['U+3000 (ideographic space)', '\u3000'],
    ['U+00A0 (no-break space)', '\u00a0'],
    ['U+2028 (line separator)', '\u2028'],
    ['U+FEFF (zero-width no-break space)', '\ufeff'],
    ['U+000B (vertical tab)', '\v'],
    ['U+000C (form feed)', '\f'],
    ['U+000D (carriage return)', '\r'],
  ])('%s inside a branch name stays part of the word', (_name, space) => {
    const branch = `feature${space}-p${space}other-project`;
    expect(parseCommandLine(`preview start ${branch} --wait`)).toEqual(['preview', 'start', branch, '--wait']);
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

describe("the action's lists agree with the program", () => {
  const program = buildProgram({
    io: captureIO().io,
    env: {},
    clock: systemClock,
    signal: new AbortController().signal,
    random: Math.random,
  });
  const leaves = (command: Command, path: string[] = []): Array<{ path: string; command: Command }> =>
    command.commands.length === 0
      ? [{ path: path.join(' '), command }]
      : command.commands.flatMap((c) => leaves(c, [...path, c.name()]));

  it('adds --github-output for exactly the commands that take it', () => {
    const taking = leaves(program).filter(({ command }) => command.options.some((o) => o.long === '--github-output'));
    expect(taking.length).toBeGreaterThan(0);
    for (const { path, command } of leaves(program)) {
      const words = path.split(' ');
      const takes = command.options.some((o) => o.long === '--github-output');
      expect(wantsGithubOutput([...words, ...(command.registeredArguments.length > 0 ? ['x'] : [])]), path).toBe(takes);
    }
  });

  it('skips the value of exactly the global options that take one', () => {
    const withValue = program.options.filter((o) => o.required || o.optional);
    expect(withValue.length).toBeGreaterThan(0);
    for (const option of withValue) {
      for (const flag of [option.short, option.long].filter((f): f is string => f !== undefined)) {
        expect(wantsGithubOutput([flag, 'preview', 'preview', 'start', 'x']), flag).toBe(true);
      }
    }
  });
});
