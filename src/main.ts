// The entry point and the only place that sets the exit code. Help texts and the version depend only
// on the command tree, so the build renders them ahead of time (scripts/build.mjs); printing one of
// those needs neither commander nor the command modules, which keeps --help and --version close to
// bare Node start-up. Everything else runs the program (run.ts).
import { wrapHelp } from './help-wrap.js';
import { prerenderedOutput } from './prerendered.js';

// Success is 0 (EXIT_CODES.ok); spelled out so this entry loads no other module on the fast path.
const OK = 0;

// `mint-admin ... | head` closes the pipe early: that is the reader saying "enough", not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(OK);
  throw error;
});

/** Waits until everything written to stdout has been handed to the OS, so a pipe gets it all. */
function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

// `mint-admin help agent run` is `mint-admin agent run --help` (commander's help command takes one word).
const given = process.argv.slice(2);
const argv = given[0] === 'help' ? [...given.slice(1), '--help'] : given;
const ready = prerenderedOutput(argv);
let code = OK;
// The same width rule as the program's own help output (program.ts): the terminal's, else 80.
if (ready !== undefined) process.stdout.write(wrapHelp(ready, (process.stdout.isTTY && process.stdout.columns) || 80));
else code = await (await import('./run.js')).runCli(argv);
await flushed(process.stdout);
process.exit(code);
