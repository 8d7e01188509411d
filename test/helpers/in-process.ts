// The CLI run in this process through its seam (src/cli/run.ts runCli(argv, deps)): captured streams, the
// given environment (its XDG_CONFIG_HOME is the config directory, its MINTLIFY_API_URL the API), a
// clock that skips sleeps, and an abort signal the test can fire as Ctrl-C would. What the process
// itself does (signals, exit codes of the binary, the worker thread of the built bundle, start-up)
// stays with the subprocess helpers in cli.ts.
import { runCli as runInProcessCli } from '../../src/cli/run.js';
import { InterruptedError, type StopSignal } from '../../src/errors.js';
import { captureIO } from './io.js';
import { SkippingClock } from './clock.js';
import type { Clock } from '../../src/clock.js';

export interface InProcessOptions {
  env: Record<string, string | undefined>;
  stdin?: string;
  /** Terminal or pipe behaviour for stdout and stderr (default: pipes, as under CI). */
  tty?: boolean;
  /** Called with a function that stops the run as the given signal would. */
  onStart?: (stop: (signal?: StopSignal) => void) => void;
  /** The run's clock (default: the real time, its sleeps skipped), e.g. a FakeClock at a chosen now. */
  clock?: Clock & { sleeps: number[] };
  /** The run's source of randomness (default Math.random); `() => 0.5` takes the jitter out of waits. */
  random?: () => number;
}

export interface InProcessResult {
  code: number;
  signal: null;
  stdout: string;
  stderr: string;
  /** Every sleep the run asked its clock for, in ms (what a subprocess would have waited). */
  sleeps: number[];
}

export async function runInProcess(args: string[], opts: InProcessOptions): Promise<InProcessResult> {
  const captured = captureIO({ tty: opts.tty, stdin: opts.stdin });
  const controller = new AbortController();
  opts.onStart?.((signal = 'SIGINT') => controller.abort(new InterruptedError('interrupted', signal)));
  const clock = opts.clock ?? new SkippingClock();
  const code = await runInProcessCli(args, {
    io: captured.io,
    env: opts.env,
    clock,
    signal: controller.signal,
    random: opts.random ?? Math.random,
    secrets: new Set(),
  });
  // The captured streams deliver 'data' on a later tick: let them drain before reading.
  await new Promise((resolve) => setImmediate(resolve));
  return { code, signal: null, stdout: captured.stdout(), stderr: captured.stderr(), sleeps: clock.sleeps };
}
