#!/usr/bin/env node
// The entry point and the only module that touches process-wide state: it sets the exit code and
// hands the program the process's signals and exit (run.ts ProcessControl). Help texts and the version depend only
// on the command tree, so the build renders them ahead of time (scripts/build.mjs); printing one of
// those needs neither commander nor the command modules: it is wrapped to the terminal's width
// (help-wrap.ts) and written straight to fd 1, which keeps --help and --version close to bare Node
// start-up. Everything else runs the program (run.ts), which the build bundles into one CommonJS
// file (program.cjs), required with Node's own compile cache on.
import { wrapHelp } from './help-wrap.js';
import { isTerminal } from './is-terminal.js';
import { prerenderedOutput } from './prerendered.js';
import type { ProcessControl } from './run.js';
import { lazyStdout } from './stdout.js';

// Success is 0 (EXIT_CODES.ok); spelled out so this entry loads no other module on the fast path.
const OK = 0;

const control: ProcessControl = {
  exit: (code) => process.exit(code),
  onSignal: (name, listener) => void process.on(name, listener as NodeJS.SignalsListener),
};

// Set by the bundle build (scripts/build.mjs): the program is program.cjs beside this file. Absent in
// the plain tsc build, which imports run.js instead.
declare const MINT_ADMIN_BUNDLE: boolean | undefined;

async function runProgram(argv: string[]): Promise<number> {
  // if/else, not an early return: the bundle build drops the branch it never runs, import() included.
  if (typeof MINT_ADMIN_BUNDLE !== 'undefined' && MINT_ADMIN_BUNDLE) {
    // Node's own compile cache: V8's code for each module, kept on disk and checked by Node against the
    // file it came from, so a run after the first compiles nothing. Only the CLI's entry turns it on
    // (never the library, which must not change how its importer loads modules), and only here:
    // printing help or the version never loads node:module.
    (process.getBuiltinModule('node:module') as typeof import('node:module')).enableCompileCache();
    // A plain require: import() of a CommonJS file would go through the ES module loader, which lexes
    // the whole file for its export names first.
    const program = require('./program.cjs') as typeof import('./run.js');
    return program.runCli(argv, program.processDeps(control));
  } else {
    const { runCli, processDeps } = await import('./run.js');
    return runCli(argv, processDeps(control));
  }
}

/**
 * The same width rule as the program's own help output (program.ts, io.ts): the terminal's, else 80.
 * In a pipe process.stdout is never touched: building that stream costs start-up time.
 */
function helpWidth(): number {
  return (isTerminal(1) && process.stdout.columns) || 80;
}

async function main(given: string[]): Promise<number> {
  // `mint-admin help agent run` is `mint-admin agent run --help` (run.ts maps it the same way).
  const ready = prerenderedOutput(given[0] === 'help' ? [...given.slice(1), '--help'] : given);
  // Not a stored help: the program answers, and judges a help topic itself (help-topic.ts).
  if (ready === undefined) return runProgram(given);
  // One write straight to fd 1; a reader that has gone (`--help | head`) is "enough", exit 0.
  const stdout = lazyStdout(() => control.exit(OK));
  stdout.stream.write(wrapHelp(ready, helpWidth()));
  await stdout.flush();
  return OK;
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
