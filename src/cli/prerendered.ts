// Outputs that depend only on the command tree: every command's --help/-h and the root's
// --version/-V. scripts/build.mjs renders each command's help with commander into its own small file
// in help/ beside the bundle (one read of a few KB, not a parse of every command's help), and inlines
// the version; a test checks each against commander's live output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';

export const PRERENDERED_DIR = 'help';

// Set by the bundle build; absent in the plain tsc build, where commander answers --version.
declare const MINT_ADMIN_VERSION: string | undefined;

/** A command word: what commander names our commands, and never a path separator or a dot. */
const COMMAND_WORD = /^[a-z][a-z-]*$/;

/**
 * The file holding the help of the command at `path` (`[]` is the root), or undefined when a word
 * cannot be a command name. Words are joined with dots, which no command name has, so that the
 * name is one to one and stays inside the directory whatever the user typed.
 */
export function helpFileName(path: readonly string[]): string | undefined {
  return path.every((word) => COMMAND_WORD.test(word)) ? `${['mint-admin', ...path].join('.')}.txt` : undefined;
}

/** The stored output for exactly these arguments, or undefined (then the program runs as usual). */
export function prerenderedOutput(argv: string[]): string | undefined {
  const last = argv[argv.length - 1];
  if (argv.length === 1 && (last === '--version' || last === '-V')) {
    return typeof MINT_ADMIN_VERSION === 'string' ? `${MINT_ADMIN_VERSION}\n` : undefined;
  }
  if (last !== '--help' && last !== '-h') return undefined;
  const name = helpFileName(argv.slice(0, -1));
  if (name === undefined) return undefined;
  try {
    return readFileSync(join(import.meta.dirname, PRERENDERED_DIR, name), 'utf8');
  } catch {
    return undefined; // not built (tsc output, tests), or not a command: commander answers
  }
}

/** What commander prints for each command's help, with the command's path (`[]` is the root). */
export function renderHelp(
  program: Command,
  captured: () => string,
  reset: () => void,
): Array<{ path: string[]; help: string }> {
  const outputs: Array<{ path: string[]; help: string }> = [];
  const render = (command: Command, path: string[]) => {
    reset();
    command.outputHelp();
    outputs.push({ path, help: captured() });
    for (const sub of command.commands) render(sub, [...path, sub.name()]);
  };
  render(program, []);
  return outputs;
}
