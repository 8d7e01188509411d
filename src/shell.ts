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
