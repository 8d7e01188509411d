import { describe, expect, it } from 'vitest';
import { ApiError, UsageError } from '../src/errors.js';
import { checkId, checkServerId, isSafeSegment } from '../src/ids.js';
import { repeatedFlags, shellCommand } from '../src/cli/shell.js';
import { forTerminal } from '../src/terminal-text.js';
import { exitCodeOf } from '../src/cli/cli-errors.js';

describe('forTerminal: control characters in caret notation', () => {
  it.each([
    ['CSI clear screen', 'a\x1b[2Jb', 'a^[[2Jb'],
    ['OSC 8 hyperlink ended by BEL', '\x1b]8;;https://e/\x07x', '^[]8;;https://e/^Gx'],
    ['C1 CSI', '\x9b31m', '^[[31m'],
    ['C1 OSC', '\x9d0;title\x9c', '^[]0;title^[\\'],
    ['CR and backspace', 'ok\rno\b', 'ok^Mno^H'],
    ['NUL and DEL', '\x00\x7f', '^@^?'],
    ['a newline, one value on one line', 'a\nb', 'a^Jb'],
    ['tabs stay', 'a\tb', 'a\tb'],
    ['ordinary text, accents and emoji stay', 'café 😀 – “x”', 'café 😀 – “x”'],
  ])('%s', (_n, input, shown) => expect(forTerminal(input)).toBe(shown));

  it('multiline keeps newlines and still shows every other control', () => {
    expect(forTerminal('line 1\nline\x1b[A 2\r', { multiline: true })).toBe('line 1\nline^[[A 2^M');
  });
});

describe('forTerminal: no line a GitHub Actions runner would run as a workflow command', () => {
  it.each([
    ['a line that opens with ::', '::error::forged', "'::error::forged"],
    ['after leading spaces (the runner trims them)', '  ::add-mask::x', "'  ::add-mask::x"],
    [
      'every such line of several',
      'ok\n::stop-commands::t\nok\n\t::warning::w',
      "ok\n'::stop-commands::t\nok\n'\t::warning::w",
    ],
    ['the legacy form, anywhere in a line', 'see ##[error]x', "see ##'[error]x"],
    [':: inside a line stays', 'a ::b:: c', 'a ::b:: c'],
    ['an IPv6 address stays', 'http://[::1]:8080', 'http://[::1]:8080'],
  ])('%s', (_n, input, shown) => expect(forTerminal(input, { multiline: true })).toBe(shown));

  it('a lone carriage return is shown, so it cannot start a line either', () => {
    expect(forTerminal('ok\r::error::x')).toBe('ok^M::error::x');
  });
});

describe('shellCommand', () => {
  it.each<[string[], string]>([
    [['mint-admin', 'agent', 'get', 'job_1', '--wait'], 'mint-admin agent get job_1 --wait'],
    [['mint-admin', '-o', 'week 47.csv'], "mint-admin -o 'week 47.csv'"],
    [['x', "it's"], "x 'it'\\''s'"],
    [['x', '$(touch p)', '`id`', 'a;b', 'a|b', '~'], "x '$(touch p)' '`id`' 'a;b' 'a|b' '~'"],
    [['x', ''], "x ''"],
  ])('%j -> %s', (argv, line) => expect(shellCommand(argv)).toBe(line));
});

describe('repeatedFlags: the global flags a printed command repeats', () => {
  const given = { project: 'p 1', profile: 'ci', baseUrl: 'http://127.0.0.1:9', exportApi: 'project', quiet: true };
  it('spells each one asked for, in the order asked, with its value as one word', () => {
    expect(repeatedFlags(given, ['profile', 'project', 'baseUrl', 'quiet'])).toEqual([
      '--profile',
      'ci',
      '--project',
      'p 1',
      '--base-url',
      'http://127.0.0.1:9',
      '--quiet',
    ]);
    expect(repeatedFlags(given, ['project', 'exportApi'])).toEqual(['--project', 'p 1', '--export-api', 'project']);
    expect(shellCommand(['mint-admin', 'x', ...repeatedFlags(given, ['project'])])).toBe(
      "mint-admin x --project 'p 1'",
    );
  });
  it('leaves out what was not given on this command line, and --quiet when off', () => {
    expect(repeatedFlags({ quiet: false }, ['project', 'profile', 'baseUrl', 'exportApi', 'quiet'])).toEqual([]);
    expect(repeatedFlags({ profile: '' }, ['profile'])).toEqual(['--profile', '']); // given, even if empty
  });
});

describe('checkId: ids bound for a URL path', () => {
  it('trims and returns a good id', () => expect(checkId('job id', ' se_1.a-b ', 'hint')).toBe('se_1.a-b'));
  it.each(['.', '..', 'a/b', '/', 'a\\b', 'a b', 'a\x1bb', 'a\x9bb', 'a\nb'])('refuses %j (exit 2)', (id) => {
    expect(isSafeSegment(id)).toBe(false);
    expect(() => checkId('export job id', id, 'use the id export start printed')).toThrow(UsageError);
  });
  it('says what is wrong and where a good one comes from', () => {
    expect(() => checkId('export job id', '..', 'use the id `mint-admin export start` printed')).toThrow(
      '".." is not an export job id (no "/", "\\", spaces or control characters, and not "." or ".."); use the id `mint-admin export start` printed',
    );
    expect(() => checkId('job id', '  ', 'pass the id')).toThrow('the job id is empty; pass the id');
  });
});

describe('checkServerId: ids the API sent', () => {
  it('accepts plain tokens', () => expect(checkServerId('agent job id', 'se_3f9a.2-c')).toBe('se_3f9a.2-c'));
  it.each<unknown>(['a b', "a'b", '$(x)', '..', '.', 'a/b', '', 'a\x1b', 42, null, 'x'.repeat(257)])(
    'refuses %j (exit 1)',
    (id) => {
      let error: unknown;
      try {
        checkServerId('agent job id', id);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect(exitCodeOf(error)).toBe(1);
    },
  );
});
