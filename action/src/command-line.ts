// The `command` input as argv, split the way a POSIX shell splits words but never run by one: quotes
// group words, nothing is expanded, so `${{ github.head_ref }}` holding `$(...)` stays one plain word.
// Words split on the shell's IFS (space, tab, newline) only, not JS's /\s/: git allows U+3000, U+00A0
// and the like in a branch name, and splitting there would let the branch inject options.

/** A bad input (the command line, or another input): exit 2, nothing run. */
export class CommandLineError extends Error {}

export function parseCommandLine(line: string): string[] {
  const words: string[] = [];
  // undefined between words; '' once a word has begun (an empty quoted word `''` is still a word).
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else word = (word ?? '') + ch;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '\\' && /["\\$`]/.test(line[i + 1] ?? '')) word = (word ?? '') + line[++i];
      else word = (word ?? '') + ch;
    } else if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word ??= '';
    } else if (ch === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (quote)
    throw new CommandLineError(`the \`command\` input has an unclosed ${quote === '"' ? 'double' : 'single'} quote`);
  if (word !== undefined) words.push(word);
  // `mint-admin preview start x` reads as well as `preview start x`: the program's name is optional.
  if (words[0] === 'mint-admin') words.shift();
  return words;
}
