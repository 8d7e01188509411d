// man pages from the command tree, one per command (mint-admin.1, mint-admin-export-download.1, ...),
// as gh does: `npm run man` writes man/ and a test fails when the committed pages drift. The text is
// commander's own (usage, descriptions, options), and the help's trailing blocks (Examples,
// Environment, Exit codes) become sections, so a page never says something --help does not.
import type { Command, Help } from 'commander';

export interface ManPage {
  /** `mint-admin-export-download.1` */
  file: string;
  text: string;
}

/**
 * Every command's page. `captured`/`reset` read what the program wrote to its stdout (as
 * prerendered.ts does), which is how the blocks added with addHelpText are reached.
 */
export function manPages(program: Command, version: string, captured: () => string, reset: () => void): ManPage[] {
  const pages: ManPage[] = [];
  const walk = (command: Command, path: string[]) => {
    pages.push({
      file: `${path.join('-')}.1`,
      text: manPage(command, path, version, trailingHelp(command, captured, reset)),
    });
    for (const sub of command.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, [program.name()]);
  return pages;
}

/** What the help prints after commander's own part: the Examples, Environment, Exit codes blocks. */
function trailingHelp(command: Command, captured: () => string, reset: () => void): string {
  reset();
  command.outputHelp();
  const all = captured();
  const own = command.helpInformation();
  const index = all.indexOf(own);
  // The program must print help unwrapped here (columns: a width it never reaches), or the two differ.
  if (index === -1)
    throw new Error(
      `the help of ${command.name()} was printed wrapped; build the program with unwrapped help for man pages`,
    );
  return all.slice(index + own.length).trim();
}

function manPage(command: Command, path: string[], version: string, trailing: string): string {
  const help: Help = command.createHelp();
  const name = path.join(' ');
  const lines: string[] = [
    `.TH "${path.join('-').toUpperCase()}" "1" "" "mint-admin ${version}" "mint-admin manual"`,
    '.SH NAME',
    `${path.join('-')} \\- ${text(firstSentence(command.description()))}`,
    '.SH SYNOPSIS',
    `.B ${text(name)}`,
    text(command.usage()),
    '.SH DESCRIPTION',
    text(command.description()),
  ];
  const args = help.visibleArguments(command);
  if (args.length > 0) {
    lines.push('.SH ARGUMENTS');
    for (const arg of args)
      lines.push('.TP', `.B ${text(help.argumentTerm(arg))}`, text(help.argumentDescription(arg)));
  }
  const commands = help.visibleCommands(command).filter((sub) => sub.name() !== 'help');
  if (commands.length > 0) {
    lines.push('.SH COMMANDS');
    for (const sub of commands) {
      lines.push(
        '.TP',
        `.B ${text(help.subcommandTerm(sub))}`,
        `${text(help.subcommandDescription(sub))}; see \\fB${path.join('-')}-${sub.name()}\\fR(1).`,
      );
    }
  }
  const options = help.visibleOptions(command);
  if (options.length > 0) {
    lines.push('.SH OPTIONS');
    for (const option of options)
      lines.push('.TP', `.B ${text(help.optionTerm(option))}`, text(help.optionDescription(option)));
  }
  if (command.parent) {
    lines.push(
      '.SH GLOBAL OPTIONS',
      `The options of \\fBmint-admin\\fR(1) (--project, --base-url, --profile, --json, --quiet, --no-color, --debug) apply too.`,
    );
  }
  lines.push(...trailingSections(trailing));
  const root = path[0] ?? 'mint-admin';
  const related = [
    ...(command.parent ? [path.slice(0, -1).join('-')] : []),
    ...commands.map((sub) => `${path.join('-')}-${sub.name()}`),
  ];
  if (related.length === 0) related.push(root);
  lines.push('.SH SEE ALSO', related.map((page) => `\\fB${page}\\fR(1)`).join(', '));
  return `${lines.join('\n')}\n`;
}

/** "Examples:" followed by indented lines becomes `.SH EXAMPLES` and a no-fill block. */
function trailingSections(trailing: string): string[] {
  const out: string[] = [];
  if (trailing === '') return out;
  for (const block of trailing.split(/\n\s*\n/)) {
    const [title, ...body] = block.split('\n');
    const heading = /^([A-Z][A-Za-z ]*):$/.exec(title?.trim() ?? '');
    if (!heading?.[1]) {
      out.push('.PP', text(block.trim()));
      continue;
    }
    out.push(
      `.SH ${heading[1].toUpperCase().replace('EXIT CODES', 'EXIT STATUS')}`,
      '.nf',
      '.RS 4',
      ...body.map((line) => text(line.replace(/^ {2}/, ''))),
      '.RE',
      '.fi',
    );
  }
  return out;
}

function firstSentence(description: string): string {
  const first = description.split('\n')[0] ?? '';
  return first.replace(/\.$/, '');
}

/** Plain text made safe for roff: backslashes escaped, hyphens kept as hyphens, no line read as a request. */
function text(value: string): string {
  return value
    .split('\n')
    .map((line) =>
      line
        .replace(/\\/g, '\\e')
        .replace(/-/g, '\\-')
        .replace(/^([.'])/, '\\&$1'),
    )
    .join('\n');
}
