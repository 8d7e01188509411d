import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInProcess } from './in-process.js';

export const CLI = fileURLToPath(new URL('../../dist/cli/main.cjs', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** In-process runs: every sleep the CLI asked its clock for, in ms (it skipped them). */
  sleeps?: number[];
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  cwd?: string;
  /** Run as this user (root only), e.g. one made by test/helpers/other-user.ts. */
  user?: { uid: number; gid: number };
  /** Called once the process has started, e.g. to send it SIGINT later. */
  onSpawn?: (child: ChildProcess) => void;
  /**
   * Run the built binary even where the case could run in-process: for what the process itself does
   * (its exit, its stdout kind, the built bundle's worker thread, start-up).
   */
  subprocess?: boolean;
  /** Run under this umask, set by a shell that then execs the CLI (as a user's shell would). */
  umask?: number;
}

/** The variables a test must control; anything from the developer's own shell is dropped. */
export const CLEARED = [
  'MINTLIFY_ADMIN_API_KEY',
  'MINTLIFY_PROJECT_ID',
  'MINTLIFY_API_URL',
  'MINT_ADMIN_PROFILE',
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'https_proxy',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
  'NO_COLOR',
  'FORCE_COLOR',
  'CI',
];

/** This process's environment without the variables a test must control, then `extra` over it. */
export function cliEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of CLEARED) delete env[name];
  return Object.assign(env, extra);
}

/** What a child printed, once it has closed. */
export function outputOf(child: ChildProcess): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * Runs the CLI with a private config directory: in this process through its seam (in-process.ts)
 * with a clock that skips sleeps, unless the case needs the process (a user, a signal, a working
 * directory, a umask, or `subprocess`), then the built CLI as a subprocess, as a user or CI would.
 */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  if (opts.subprocess || opts.user || opts.onSpawn || opts.cwd || opts.umask !== undefined)
    return runBuiltCli(args, opts);
  return runInProcess(args, { env: cliEnv(opts.env), stdin: opts.stdin });
}

/** Runs the built CLI as a subprocess, as a user or CI would. */
export function runBuiltCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const [command, argv] =
    opts.umask === undefined
      ? [process.execPath, [CLI, ...args]]
      : [
          '/bin/sh',
          ['-c', `umask ${opts.umask.toString(8).padStart(3, '0')} && exec "$@"`, 'sh', process.execPath, CLI, ...args],
        ];
  const child = spawn(command, argv, {
    env: cliEnv(opts.env),
    cwd: opts.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...opts.user,
  });
  const output = outputOf(child);
  child.stdin.end(opts.stdin ?? '');
  opts.onSpawn?.(child);
  return output;
}

/**
 * Runs a command line the CLI printed (a resume hint) in sh, as a user pasting it would: `mint-admin`
 * is the built CLI, and the environment is cleared as for runCli.
 */
export function runPrintedCommand(
  command: string,
  opts: { cwd: string; env: Record<string, string> },
): Promise<CliResult> {
  const line = command.replace(/(^|\s)mint-admin /g, `$1'${process.execPath}' '${CLI}' `);
  return outputOf(spawn('sh', ['-c', line], { cwd: opts.cwd, env: cliEnv(opts.env) }));
}

/** The indented `  mint-admin ...` line of a message: the command it tells you to run. */
export const resumeLine = (stderr: string) =>
  stderr
    .split('\n')
    .find((l) => l.startsWith('  mint-admin '))!
    .trim();

/** A fresh temp directory, removed by the returned cleanup. */
export function tempDir(prefix = 'mint-admin-test-'): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
