// The built CLI on a real pseudo-terminal (test/helpers/pty.py, Python's standard library only): what
// a person at a terminal sees, including what Ctrl-C typed as a key does and the terminal's modes after.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLI, cliEnv } from './cli.js';

const HELPER = fileURLToPath(new URL('./pty.py', import.meta.url));

/**
 * The pseudo-terminal tests skip only on a developer machine without python3; CI (.ci/run installs
 * python3) never skips them, so a missing interpreter there fails loudly instead.
 */
export const noPython = !process.env.CI && spawnSync('python3', ['-c', 'import pty, termios']).status !== 0;
/** For a test's name: '' when the helper can run, else why it skips. */
export const PYTHON_SKIP_NOTE = noPython ? ' (skipped: needs python3 with its pty module; CI installs it)' : '';

export interface PtyStep {
  /** A regular expression the output so far must match before `send` is typed. */
  wait: string;
  send: string;
  /** Also wait until the program has turned the terminal's echo off: a hidden prompt is ready for its input. */
  echoOff?: boolean;
}

export interface PtyResult {
  output: string;
  code: number | null;
  signal: number | null;
  timedOut: boolean;
  stepsLeft: number;
  modes: { echo: boolean; isig: boolean; icanon: boolean };
  /** Every termios field as it was before the CLI started. */
  modesUnchanged: boolean;
}

export const CTRL_C = '\u0003';

export interface PtyOptions {
  env?: Record<string, string | undefined>;
  cols?: number;
  rows?: number;
  steps?: PtyStep[];
  timeoutSeconds?: number;
}

export function runCliOnPty(args: string[], opts: PtyOptions = {}): Promise<PtyResult> {
  // Only the set variables: the helper gets them as JSON strings.
  const env = Object.fromEntries(
    Object.entries(cliEnv({ TERM: 'xterm-256color', ...opts.env })).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  const job = {
    argv: [process.execPath, CLI, ...args],
    env,
    cols: opts.cols ?? 80,
    rows: opts.rows ?? 24,
    steps: opts.steps ?? [],
    timeout: opts.timeoutSeconds ?? 30,
  };
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [HELPER], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`pty helper failed (${code}): ${stderr}`));
      resolve(JSON.parse(stdout) as PtyResult);
    });
    child.stdin.end(JSON.stringify(job));
  });
}

/**
 * The output as the screen shows it at the end, roughly: a redraw (carriage return, or the cursor
 * sent to column 1) keeps only what came after it, and the terminal's own echo of a typed Ctrl-C goes.
 */
export function screenText(output: string): string {
  return output
    .replace(/\^C/g, '')
    .replace(/\x1b\[1?G/g, '\r')
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split('\n')
    .map((line) => line.replace(/\r$/, '').split('\r').pop() ?? '')
    .join('\n');
}
