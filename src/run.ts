// Runs the command line: builds the real dependencies and the program, and turns any error into one
// line on stderr and an exit code, which it returns to main.ts (the only place that exits).
import { CommanderError } from 'commander';
import { systemClock } from './clock.js';
import type { Deps } from './context.js';
import { CliError, EXIT_CODES, InterruptedError } from './errors.js';
import { processIO } from './io.js';
import { buildProgram } from './program.js';
import { scrubSecrets } from './redact.js';
import { forTerminal } from './terminal-text.js';

export async function runCli(argv: string[]): Promise<number> {
  const controller = new AbortController();
  process.once('SIGINT', () => {
    controller.abort(new InterruptedError());
    // A second Ctrl-C means "now": skip the clean-up.
    process.once('SIGINT', () => process.exit(EXIT_CODES.interrupted));
  });
  const deps: Deps = {
    io: processIO(),
    env: process.env,
    clock: systemClock,
    signal: controller.signal,
    random: Math.random,
    secrets: new Set(),
  };
  const program = buildProgram(deps);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_CODES.ok;
  } catch (error) {
    return report(error, deps, Boolean(program.opts().debug));
  }
}

function report(error: unknown, deps: Deps, debug: boolean): number {
  // Error messages carry server text: shown with control characters visible and the key masked.
  const clean = (text: string) => forTerminal(scrubSecrets(text, [...(deps.secrets ?? [])]), { multiline: true });
  const stderr = { write: (text: string) => deps.io.stderr.write(clean(text)) };
  // Commander has already printed its own message (unknown option, missing argument, help).
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
  if (error instanceof CliError) {
    stderr.write(`error: ${error.message}\n`);
    if (debug && error.cause) stderr.write(`${String((error.cause as Error).stack ?? error.cause)}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`error: ${message}\n`);
  if (debug && error instanceof Error) stderr.write(`${error.stack}\n`);
  else stderr.write('(run again with --debug for details)\n');
  return EXIT_CODES.api;
}
