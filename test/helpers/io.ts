import { PassThrough, Readable } from 'node:stream';
import type { IO } from '../../src/cli/io.js';

/** An IO whose streams are captured in memory; `tty` picks terminal or pipe behaviour. */
export function captureIO(opts: { tty?: boolean; stdin?: string } = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const io: IO = {
    stdout,
    stderr,
    stdin: Readable.from([opts.stdin ?? '']),
    stdoutIsTTY: Boolean(opts.tty),
    stderrIsTTY: Boolean(opts.tty),
    stdinIsTTY: false,
    columns: opts.tty ? 100 : undefined,
  };
  return { io, stdout: () => out, stderr: () => err };
}
