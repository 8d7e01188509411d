// Errors carry data, and each face writes its own sentence from it (architecture.md): no face parses,
// cuts, regex-replaces, compares or rewords a message of ours. This reads the source of the engine and
// the faces (src/ and action/src/) for the ways that was done before: reworded() copies, a message split
// or sliced or matched, a message compared to a sentence, a cut at the last "; ", a face's words
// regex-replaced.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => relative(ROOT, join(ROOT, dir, name)));
}

const FILES = [...sourceFiles('src'), ...sourceFiles('action/src')].map((path) => ({
  path,
  text: readFileSync(join(ROOT, path), 'utf8'),
}));

/** What reading a message back looks like, each named for the failure message. */
const READING_A_MESSAGE: Array<[string, RegExp]> = [
  ['a reworded() copy', /\breworded\(|\bisReworded\b/],
  [
    'a message split, sliced, searched or replaced',
    /\bmessage\.(split|slice|replace|replaceAll|match|indexOf|lastIndexOf|startsWith|endsWith|includes|substring)\(/,
  ],
  ['a message compared to words', /\.message\s*[!=]==|[!=]==\s*\S+\.message\b/],
  ["a cut at the last '; '", /lastIndexOf\('; '\)/],
  ["the CLI's words reworded", /forPeople\([^)]*\)\.(replace|split|slice)\(/],
];

/**
 * Files that may read a message because it is a dependency's and the only account there is, each with
 * why. This list only shrinks.
 */
const DEPENDENCY_MESSAGES: Record<string, string> = {
  // DuckDB's errors carry no code, only a type prefix and the system's words: the kind of a failed
  // write (disk full, I/O, refused) is read from them.
  'src/analytics-store/errors.ts': "DuckDB's messages",
};

describe('no face reads a message of ours back', () => {
  it('has found the source (a guard against a test that checks nothing)', () => {
    expect(FILES.map((f) => f.path)).toEqual(
      expect.arrayContaining(['src/errors.ts', 'src/cli/cli-errors.ts', 'action/src/failure.ts', 'src/mcp/errors.ts']),
    );
  });

  it.each(READING_A_MESSAGE)('no file has %s', (_what, pattern) => {
    const offenders = FILES.filter(({ path, text }) => !(path in DEPENDENCY_MESSAGES) && pattern.test(text)).map(
      ({ path, text }) =>
        `${path}: ${text
          .split('\n')
          .find((line) => pattern.test(line))
          ?.trim()}`,
    );
    expect(offenders).toEqual([]);
  });

  it.each(Object.entries(DEPENDENCY_MESSAGES))('%s still reads %s (else drop it from the list)', (path) => {
    const text = FILES.find((f) => f.path === path)?.text ?? '';
    expect(READING_A_MESSAGE.some(([, pattern]) => pattern.test(text))).toBe(true);
  });

  it.each(READING_A_MESSAGE)('the rule for %s catches what it names', (what, pattern) => {
    const examples: Record<string, string> = {
      'a reworded() copy': 'return reworded(error, `${error.message}; run it again`);',
      'a message split, sliced, searched or replaced': "error.message.split(';')[0]",
      'a message compared to words': 'return error.message === `${error.cause.message}${SUFFIX}`;',
      "a cut at the last '; '": "text.slice(0, text.lastIndexOf('; '))",
      "the CLI's words reworded": "forPeople(error).replace(/; run the command again$/, '')",
    };
    expect(pattern.test(examples[what] ?? '')).toBe(true);
  });
});
