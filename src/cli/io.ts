// The terminal as a dependency. Commands write data to io.stdout and everything else through a
// Reporter, which decides between a spinner (a person at a terminal) and plain lines (CI, pipes).
import type { Clock } from '../clock.js';
import type { Activity, Reporter } from '../reporter.js';
import { isTerminal } from './is-terminal.js';
import { lazyStdout } from './stdout.js';

export interface IO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width for drawn tables; undefined when not a terminal. */
  columns: number | undefined;
  /** Resolves once everything written to stdout is with the OS (a pipe then gets it all). */
  flush?(): Promise<void>;
}

/** The process's own terminal; `onReaderGone` runs when stdout's reader has left (EPIPE). */
export function processIO(onReaderGone: () => void): IO {
  // process.stdout/stderr build a stream (for a pipe: a socket, with net and streams loaded) on first
  // touch, which costs start-up time; each is touched only when something needs it.
  const stdoutIsTTY = isTerminal(1);
  const stdout = lazyStdout(onReaderGone);
  return {
    stdout: stdout.stream,
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY,
    // A terminal that reports no width (some CI pseudo-terminals) cannot draw a spinner: ora would
    // clear lines forever. Treat it as the plain, line-by-line kind. (Messages written while a
    // spinner runs need no care here: ora 9 clears and redraws around other writes to its stream.)
    stderrIsTTY: isTerminal(2) && (process.stderr.columns ?? 0) > 0,
    stdinIsTTY: isTerminal(0),
    // At a terminal this hands stdout to process.stdout at once (writes to a terminal need its stream).
    columns: stdoutIsTTY ? (stdout.stream as NodeJS.WriteStream).columns : undefined,
    flush: stdout.flush,
  };
}

export interface OutputMode {
  json: boolean;
  quiet: boolean;
  color: boolean;
}

/** Plain progress lines at most this often, unless the line marks a change of state. */
export const PLAIN_PROGRESS_INTERVAL_MS = 5000;

/**
 * `clean` is applied to every message before it reaches stderr: the Context passes one that makes
 * control characters visible and masks the admin key (messages carry server text).
 */
export function createReporter(
  io: IO,
  mode: OutputMode,
  clock: Clock,
  clean: (text: string) => string = (t) => t,
): Reporter {
  const live = io.stderrIsTTY && !mode.json && !mode.quiet;
  const line = (text: string) => io.stderr.write(`${clean(text)}\n`);
  return {
    live,
    info: (message) => {
      if (!mode.quiet) line(message);
    },
    warn: (message) => line(`warning: ${message}`),
    activity: async (text) => {
      if (mode.quiet) return silentActivity;
      if (live) return spinnerActivity(io, mode, text, clean);
      return plainActivity(line, clock, text);
    },
  };
}

const silentActivity: Activity = { update() {}, succeed() {}, fail() {}, stop() {} };

function plainActivity(line: (text: string) => void, clock: Clock, first: string): Activity {
  let lastText = first;
  let lastAt = clock.now();
  line(first);
  const print = (text: string) => {
    lastText = text;
    lastAt = clock.now();
    line(text);
  };
  return {
    update(text, opts) {
      // A milestone is an event (a retry, a status change): each one is a line, even if worded alike.
      if (text === lastText && !opts?.milestone) return;
      if (opts?.milestone || clock.now() - lastAt >= PLAIN_PROGRESS_INTERVAL_MS) print(text);
    },
    succeed: (text) => print(text),
    fail: (text) => print(text),
    stop() {},
  };
}

async function spinnerActivity(
  io: IO,
  mode: OutputMode,
  first: string,
  clean: (text: string) => string,
): Promise<Activity> {
  // ora is loaded only when a spinner is really drawn, so help and piped runs never pay for it.
  const { default: ora } = await import('ora');
  // discardStdin off: ora's discarder puts the terminal in raw mode, where a typed Ctrl-C is just a byte
  // (and the discarder, never reading, does not turn it into SIGINT). In the terminal's normal mode the
  // kernel sends SIGINT, which run.ts handles like `kill -INT`; typed keys echo, as they do under gh.
  const spinner = ora({
    text: clean(first),
    stream: io.stderr,
    color: mode.color ? 'cyan' : false,
    isEnabled: true,
    discardStdin: false,
  }).start();
  return {
    update(next) {
      spinner.text = clean(next);
    },
    // ora's succeed()/fail() colour their symbols whatever we say; with colour off, plain ones.
    succeed: (text) => {
      const final = clean(text);
      void (mode.color ? spinner.succeed(final) : spinner.stopAndPersist({ symbol: '✔', text: final }));
    },
    fail: (text) => {
      const final = clean(text);
      void (mode.color ? spinner.fail(final) : spinner.stopAndPersist({ symbol: '✖', text: final }));
    },
    stop: () => void spinner.stop(),
  };
}
