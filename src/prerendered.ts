// Outputs that depend only on the command tree: every command's --help/-h and the root's
// --version/-V. scripts/build.mjs renders them with commander into prerendered.json beside the
// bundle; a test checks each against commander's live output.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';

export const PRERENDERED_FILE = 'prerendered.json';

/** The stored output for exactly these arguments, or undefined (then the program runs as usual). */
export function prerenderedOutput(argv: string[]): string | undefined {
  const key = argv.join(' ');
  if (!/(^| )(--help|-h|--version|-V)$/.test(key)) return undefined;
  try {
    const outputs = JSON.parse(readFileSync(new URL(PRERENDERED_FILE, import.meta.url), 'utf8')) as Record<string, string>;
    return Object.hasOwn(outputs, key) ? outputs[key] : undefined;
  } catch {
    return undefined; // not built (tsc output, tests): commander answers
  }
}

/** Renders what commander prints for each form, keyed by the arguments that ask for it. */
export function renderOutputs(program: Command, captured: () => string, reset: () => void): Record<string, string> {
  const outputs: Record<string, string> = {};
  const render = (command: Command, path: string[]) => {
    reset();
    command.outputHelp();
    for (const flag of ['--help', '-h']) outputs[[...path, flag].join(' ')] = captured();
    for (const sub of command.commands) render(sub, [...path, sub.name()]);
  };
  render(program, []);
  const version = program.version();
  if (version !== undefined) for (const flag of ['--version', '-V']) outputs[flag] = `${version}\n`;
  return outputs;
}
