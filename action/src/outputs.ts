// The step outputs the CLI writes under --github-output (src/cli/commands/github-output.ts), read back
// from the private file the action handed it: `name=value` lines and the `name<<DELIMITER` form.

export const ACTION_OUTPUTS = [
  'exit-code',
  'status-id',
  'status',
  'preview-url',
  'job-id',
  'pr-link',
  'directory',
] as const;

export function parseOutputFile(text: string): Map<string, string> {
  const outputs = new Map<string, string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delimiter] = heredoc as unknown as [string, string, string];
      const value: string[] = [];
      while (++i < lines.length && lines[i] !== delimiter) value.push(lines[i] as string);
      outputs.set(name, value.join('\n'));
      continue;
    }
    const eq = line.indexOf('=');
    if (eq > 0) outputs.set(line.slice(0, eq), line.slice(eq + 1));
  }
  return outputs;
}

/** The leaf commands that write step outputs under --github-output; the action adds the flag for them (test/action/command-line.test.ts holds this and the list below to the program). */
const WITH_GITHUB_OUTPUT = new Set([
  'preview start',
  'preview status',
  'deploy start',
  'deploy status',
  'agent run',
  'export run',
]);

/** The program's global options that take a value (src/cli/program.ts): their value is not a command word. */
const GLOBALS_WITH_VALUE = new Set(['-p', '--project', '--base-url', '--profile']);

export function wantsGithubOutput(argv: readonly string[]): boolean {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const token = argv[i] as string;
    if (GLOBALS_WITH_VALUE.has(token)) i++;
    else if (!token.startsWith('-')) words.push(token);
  }
  return WITH_GITHUB_OUTPUT.has(words.join(' ')) && !argv.includes('--github-output');
}
