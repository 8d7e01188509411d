// Commands printed for a person to paste (resume, follow, download hints) are built as argv arrays
// and quoted here, word by word, for a POSIX shell: a project id, a file name or a cursor with a
// space, a quote or a `$(...)` in it must come back as that one word, never run as something else.

/** POSIX shell quoting: bare when only safe characters, else single quotes. */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_\-.,:/=@%+]+$/.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** `['mint-admin', 'agent', 'get', 'job 1']` -> `mint-admin agent get 'job 1'` */
export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

/** How each global option a printed command may repeat is spelled on the command line. */
const REPEATABLE = {
  project: '--project',
  profile: '--profile',
  baseUrl: '--base-url',
  exportApi: '--export-api',
  quiet: '--quiet',
} as const;
export type RepeatableFlag = keyof typeof REPEATABLE;

/**
 * The global options of this command line that a printed command must repeat to do the same thing
 * when pasted, in the order asked for: the environment and the config file reach the pasted command
 * by themselves, flags do not. Each command family asks for the ones its hints need (a build's
 * status needs no project; a resumed export wants --quiet again).
 */
export function repeatedFlags(
  given: { [K in RepeatableFlag]?: K extends 'quiet' ? boolean : string },
  which: readonly RepeatableFlag[],
): string[] {
  const words: string[] = [];
  for (const name of which) {
    const value = given[name];
    if (value === undefined || value === false) continue;
    words.push(REPEATABLE[name]);
    if (typeof value === 'string') words.push(value);
  }
  return words;
}
