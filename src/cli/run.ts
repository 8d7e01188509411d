// Runs the command line as a function of its dependencies: runCli(argv, deps) builds the program over
// the terminal, environment, clock and abort signal it is handed, and turns any error into one line
// on stderr and an exit code. main.ts hands it the process's own (processDeps) and exits with the
// code; tests hand it captured streams, a temp config directory and a clock that skips its sleeps.
import { CommanderError } from 'commander';
import { systemClock } from '../clock.js';
import type { Deps } from './context.js';
import { EXIT_CODES, exitCodeOf, forPeople, STOP_SIGNALS } from './cli-errors.js';
import { InterruptedError, MintAdminError, type StopSignal } from '../errors.js';
import { processIO } from './io.js';
import { checkHelpTopic, topicText } from './help-topic.js';
import { buildProgram } from './program.js';
import { scrubSecrets } from '../redact.js';
import { forTerminal } from '../terminal-text.js';

/**
 * What only the entry may touch (main.ts hands in the process's own): how the process ends, and its
 * signal listeners. Everything below the entry asks through this, so no module of the program changes
 * process-wide state on import or on use, and the action can run the program in its own process.
 */
export interface ProcessControl {
  exit(code: number): never;
  onSignal(name: StopSignal, listener: (name: StopSignal) => void): void;
}

/** The process's own dependencies: its terminal, environment and clock, and its stop signals. */
export function processDeps(control: ProcessControl): Deps {
  const controller = new AbortController();
  stopOnSignals(controller, control);
  return {
    io: processIO(() => control.exit(EXIT_CODES.ok)),
    env: process.env,
    clock: systemClock,
    signal: controller.signal,
    random: Math.random,
    secrets: new Set(),
  };
}

export async function runCli(given: string[], deps: Deps): Promise<number> {
  // `mint-admin help agent run` is `mint-admin agent run --help` (commander's help command takes one
  // word). main.ts maps it first for the pre-rendered fast path; in-process callers come straight here.
  const helpTopic = given[0] === 'help' ? given.slice(1) : undefined;
  const topic = helpTopic && (await topicText(helpTopic));
  if (topic !== undefined) {
    deps.io.stdout.write(topic);
    await deps.io.flush?.();
    return EXIT_CODES.ok;
  }
  const argv = helpTopic ? [...helpTopic, '--help'] : given;
  const program = buildProgram(deps, argv);
  let code: number;
  try {
    if (helpTopic) checkHelpTopic(program, helpTopic);
    await program.parseAsync(argv, { from: 'user' });
    code = EXIT_CODES.ok;
  } catch (error) {
    code = report(error, deps, Boolean(program.opts().debug));
    if (code !== EXIT_CODES.ok) deps.onFailure?.({ error, code, line: failureLine(error, deps) });
  }
  // main.ts exits with this code: a pipe must have all of stdout first.
  await deps.io.flush?.();
  return code;
}

/**
 * Ctrl-C, SIGTERM and SIGHUP all abort the command the same way, so each gets the same clean-up
 * (partial downloads removed, documents closed, the resume command printed). A second signal of any
 * kind means "now": exit at once, skipping the clean-up.
 */
function stopOnSignals(controller: AbortController, control: ProcessControl): void {
  // One listener per signal for the whole run, never removed: removing the last listener of a signal
  // hands it back to the default action for a moment, and a second signal landing then would kill the
  // process without the documented exit code.
  const onSignal = (signal: StopSignal) => {
    if (controller.signal.aborted) control.exit(STOP_SIGNALS[signal]);
    controller.abort(new InterruptedError('interrupted', signal));
  };
  for (const name of Object.keys(STOP_SIGNALS) as StopSignal[]) control.onSignal(name, onSignal);
}

/** The first line report() prints for an error, without its `error: `, the key masked. */
function failureLine(error: unknown, deps: Deps): string {
  const text =
    error instanceof CommanderError || !(error instanceof MintAdminError)
      ? error instanceof Error
        ? error.message
        : String(error)
      : forPeople(error);
  return scrubSecrets(text.replace(/^error: /, ''), [...(deps.secrets ?? [])]).split('\n')[0] ?? '';
}

function report(error: unknown, deps: Deps, debug: boolean): number {
  // Error messages carry server text: shown with control characters visible and the key masked.
  const clean = (text: string) => forTerminal(scrubSecrets(text, [...(deps.secrets ?? [])]), { multiline: true });
  const stderr = { write: (text: string) => deps.io.stderr.write(clean(text)) };
  // A command words its own interruption (what keeps running, how to resume); the exit code stays the
  // one of the signal that stopped it.
  const reason: unknown = deps.signal.aborted ? deps.signal.reason : undefined;
  if (error instanceof InterruptedError && reason instanceof InterruptedError) {
    stderr.write(`error: ${forPeople(error)}\n`);
    return exitCodeOf(reason);
  }
  // Commander has already printed its own message (unknown option, missing argument, help).
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
  if (error instanceof MintAdminError) {
    stderr.write(`error: ${forPeople(error)}\n`);
    if (debug && error.cause) stderr.write(`${String((error.cause as Error).stack ?? error.cause)}\n`);
    return exitCodeOf(error);
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`error: ${message}\n`);
  if (debug && error instanceof Error) stderr.write(`${error.stack}\n`);
  else stderr.write('(run again with --debug for details)\n');
  return EXIT_CODES.api;
}
