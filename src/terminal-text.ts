// Text from the server is shown to people on a terminal, and a terminal obeys what it is sent: an
// ESC in a job's error message or a pull request link could clear the screen, retitle the window,
// plant a hyperlink or rewrite a line of a CI log. Like gh's asciisanitizer, every C0 and C1 control
// character is made visible in caret notation before it is printed for a person: ESC is `^[`, so
// `ESC [ 2 J` shows as `^[[2J`; a C1 character is `^[` and its 7-bit twin (CSI, U+009B, is `^[[`);
// DEL is `^?`. Data formats (JSON, CSV, TSV) keep their own escaping and do not pass through here.
//
// The GitHub Actions runner reads a step's stdout and stderr line by line and runs a line as a
// workflow command when it starts with `::` after leading whitespace (`::add-mask::`,
// `::stop-commands::`, `::error::`), or holds `##[` anywhere (the legacy form): actions/runner,
// ActionCommand.TryParseV2 and TryParse. Server text must never issue one, so such a line gets a
// leading `'` (the mark the CSV formula guard uses) and `##[` becomes `##'[`; the words stay readable.

/** C0 (but tab, harmless on one line; newline by the caller's choice), DEL, and C1. */
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;
const CONTROL_KEEPING_LINES = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * The text with every control character shown in caret notation. `multiline` keeps newlines and
 * tabs (a message of several lines of our own, with server text inside); otherwise a newline is
 * `^J` too, so one value stays on one line.
 */
export function forTerminal(text: string, opts: { multiline?: boolean } = {}): string {
  return withoutWorkflowCommands(text.replace(opts.multiline ? CONTROL_KEEPING_LINES : CONTROL, caret));
}

/**
 * Only the control characters in caret notation (newlines and tabs kept): for a data format printed
 * on a terminal (CSV), whose own quoting already keeps a line from being read as a workflow command.
 */
export function controlsVisible(text: string): string {
  return text.replace(CONTROL_KEEPING_LINES, caret);
}

/** Line starts (after \n or \r, the runner's line breaks) whose line opens with `::` past whitespace (NEL too, for .NET). */
const COMMAND_LINE = /^(?=(?:[^\S\r\n]|\x85)*::)/gm;
/** The same, but only after a line break: for a CSV cell, whose first line is made safe by quoting. */
const LATER_COMMAND_LINE = /(?<=[\r\n])(?=(?:[^\S\r\n]|\x85)*::)/g;
const LEGACY_COMMAND = /##\[/g;

/** The text with no line the Actions runner would run as a workflow command (see the top). */
export function withoutWorkflowCommands(text: string, opts: { firstLine?: boolean } = {}): string {
  return text
    .replace(opts.firstLine === false ? LATER_COMMAND_LINE : COMMAND_LINE, "'")
    .replace(LEGACY_COMMAND, "##'[");
}

function caret(c: string): string {
  const code = c.charCodeAt(0);
  if (code === 0x7f) return '^?';
  if (code >= 0x80) return `^[${String.fromCharCode(code - 0x40)}`;
  return `^${String.fromCharCode(code + 0x40)}`;
}
