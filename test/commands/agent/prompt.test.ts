import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkJobId, readPrompt } from '../../../src/cli/commands/agent/prompt.js';
import { UsageError } from '../../../src/errors.js';
import { tempDir } from '../../helpers/cli.js';
import { harness } from './harness.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
  writeFileSync(join(dir.path, 'prompt.md'), '\n  Document the /v2/users endpoint.\n\nAdd an example.\n');
  writeFileSync(join(dir.path, 'blank.md'), ' \n\t\n');
  mkdirSync(join(dir.path, 'folder'));
});
afterEach(() => dir.cleanup());

async function read(words: string[], file?: string, stdin?: string) {
  const h = harness('http://127.0.0.1:9', { stdin });
  try {
    return await readPrompt({ words, file: file?.replace('$DIR', dir.path) }, h.ctx);
  } finally {
    await h.cleanup();
  }
}

describe('readPrompt', () => {
  it.each([
    ['joins the words of the arguments with spaces', ['Fix', 'the', 'typos'], undefined, '', 'Fix the typos'],
    [
      'reads a file and trims the blank lines around it',
      [],
      '$DIR/prompt.md',
      '',
      'Document the /v2/users endpoint.\n\nAdd an example.',
    ],
    ['reads stdin for "-"', [], '-', 'From a pipe\n', 'From a pipe'],
  ])('%s', async (_name, words, file, stdin, expected) => {
    expect(await read(words, file, stdin)).toBe(expected);
  });

  it.each([
    ['no prompt at all', [], undefined, '', /^the prompt is empty: give it as arguments/],
    ['an empty argument', [''], undefined, '', /^the prompt is empty/],
    ['only whitespace', ['  ', '\t'], undefined, '', /^the prompt is empty/],
    [
      'both arguments and --file',
      ['Fix'],
      '$DIR/prompt.md',
      '',
      /^give the prompt either as arguments or with --file, not both/,
    ],
    [
      'a file that does not exist',
      [],
      '$DIR/missing.md',
      '',
      /^cannot read the prompt file ".*missing\.md" \(no such file\)/,
    ],
    ['a directory', [], '$DIR/folder', '', /^cannot read the prompt file ".*folder" \(it is a directory\)/],
    ['a blank file', [], '$DIR/blank.md', '', /^the prompt file ".*blank\.md" is empty/],
    ['an empty stdin', [], '-', '\n', /^the prompt read from stdin is empty/],
  ])('refuses %s as a usage error', async (_name, words, file, stdin, message) => {
    const error = await read(words, file, stdin).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(message);
  });
});

describe('checkJobId', () => {
  it('accepts an id and trims it', () => {
    expect(checkJobId(' 6f1c0d2e9a7b ')).toBe('6f1c0d2e9a7b');
  });

  it.each([[''], ['  '], ['a/b'], ['..'], ['.']])('refuses %j', (id) => {
    expect(() => checkJobId(id)).toThrow(UsageError);
  });
});
