// Text from the server is shown to people on a terminal, and a terminal obeys what it is sent: an
// ESC in a job's error message or a pull request link could clear the screen, retitle the window,
// plant a hyperlink or rewrite a line of a CI log. Like gh's asciisanitizer, every C0 and C1 control
// character is made visible in caret notation before it is printed for a person: ESC is `^[`, so
// `ESC [ 2 J` shows as `^[[2J`; a C1 character is `^[` and its 7-bit twin (CSI, U+009B, is `^[[`);
// DEL is `^?`. Data formats (JSON, CSV, TSV) keep their own escaping and do not pass through here.

/** C0 (but tab, harmless on one line; newline by the caller's choice), DEL, and C1. */
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;
const CONTROL_KEEPING_LINES = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * The text with every control character shown in caret notation. `multiline` keeps newlines and
 * tabs (a message of several lines of our own, with server text inside); otherwise a newline is
 * `^J` too, so one value stays on one line.
 */
export function forTerminal(text: string, opts: { multiline?: boolean } = {}): string {
  return text.replace(opts.multiline ? CONTROL_KEEPING_LINES : CONTROL, caret);
}

function caret(c: string): string {
  const code = c.charCodeAt(0);
  if (code === 0x7f) return '^?';
  if (code >= 0x80) return `^[${String.fromCharCode(code - 0x40)}`;
  return `^${String.fromCharCode(code + 0x40)}`;
}
