// What a command that starts something prints once it has started it. A script captures the id
// (`id=$(mint-admin export start ...)`), so off a terminal stdout carries the id alone and the status
// goes to stderr with the rest of the chatter; a person at a terminal reads one line with both.
import type { Context } from './context.js';

/** `readable` on a terminal; elsewhere `id` on stdout and `status` on stderr (silent with --quiet). */
export function printStarted(ctx: Context, started: { id: string; readable: string; status: string }): void {
  ctx.print(ctx.io.stdoutIsTTY ? started.readable : started.id);
  ctx.reporter.info(started.status);
}
