// Help is rendered once, unwrapped (at build time for the fast path, by commander otherwise), and
// wrapped here at print time to the width of the terminal it is printed on (80 in a pipe). No
// imports: main.ts uses this on the --help fast path, which must stay close to bare Node start-up.

/** Lines that are commands to copy (examples) keep their length: a wrapped command no longer pastes. */
const UNBREAKABLE = /^\s*\$ /;
/** `  -o, --out <dir>   description...`: a term, two or more spaces, then the text that wraps under itself. */
const TERM_AND_TEXT = /^(\s+\S(?:.*?\S)?\s{2,})(\S.*)$/;

export function wrapHelp(text: string, width: number): string {
  return joinParagraphs(text.split('\n'))
    .map((line) => wrapLine(line, Math.max(20, width)))
    .join('\n');
}

/**
 * Prose at the left margin comes broken at whatever width its author wrote it; wrapped line by line
 * it would be broken twice (a full line, then a stub of a word or two). A paragraph is joined into
 * one line first, so it is wrapped once, to the terminal's width. A heading (ending in ":") and
 * what follows it stay apart, as do indented items, which are one line each.
 */
function joinParagraphs(lines: string[]): string[] {
  const out: string[] = [];
  const isProse = (line: string) => /^\S/.test(line) && !UNBREAKABLE.test(line);
  for (const line of lines) {
    const previous = out.at(-1);
    if (previous !== undefined && isProse(previous) && isProse(line) && !previous.trimEnd().endsWith(':'))
      out[out.length - 1] = `${previous.trimEnd()} ${line.trim()}`;
    else out.push(line);
  }
  return out;
}

function wrapLine(line: string, width: number): string {
  if ([...line].length <= width || UNBREAKABLE.test(line)) return line;
  const item = TERM_AND_TEXT.exec(line);
  const lead = item ? item[1]! : (/^\s*/.exec(line)?.[0] ?? '');
  const base = /^\s*/.exec(line)?.[0] ?? '';
  // A hanging indent that leaves too little room reads worse than starting the text on the next line.
  const hanging = [...lead].length <= width - 20;
  const indent = !item ? base : hanging ? ' '.repeat([...lead].length) : `${base}    `;
  const words = (item ? item[2]! : line.slice(lead.length)).split(/ +/);
  const out: string[] = [];
  let current = lead;
  if (item && !hanging) {
    out.push(lead.trimEnd());
    current = indent;
  }
  let empty = true;
  for (const word of words) {
    const candidate = empty ? current + word : `${current} ${word}`;
    if (!empty && [...candidate].length > width) {
      out.push(current);
      current = indent + word;
    } else {
      current = candidate;
    }
    empty = false;
  }
  out.push(current);
  return out.join('\n');
}
