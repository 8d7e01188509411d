// `analytics budget`: what this machine counts of the organization's 100 analytics requests an hour
// (the ledger every command writes, src/budget/ledger-file.ts), and a wait a 429 asked for that is
// held there; `--reset` forgets both, for a user who knows the API's own count is other than this
// machine's (the server has recovered, another machine's requests are not here anyway). No request.
import type { Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { formatDuration } from '../../../duration.js';

type BudgetFlags = { reset?: boolean };

/** "04:38 UTC (in 27m00s)", or "now" when it has passed. */
export function whenText(at: number, now: number): string {
  const time = `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return at <= now ? `${time} (now)` : `${time} (in ${formatDuration(at - now)})`;
}

export async function budget(flags: BudgetFlags, ctx: Context): Promise<void> {
  // The same key and base URL every analytics command counts under; a missing key is the usual error.
  await ctx.api();
  const settings = await ctx.settings();
  const [{ fileRequestLedger }, { ANALYTICS_BUDGET }] = await Promise.all([
    import('../../../budget/ledger-file.js'),
    import('../../../api/request-ledger.js'),
  ]);
  const ledger = fileRequestLedger(ctx.env, settings.baseUrl.value, settings.apiKey?.value ?? '');
  const now = ctx.clock.now();
  if (flags.reset) {
    ledger.reset();
    ctx.reporter.info(
      `reset: this machine's count of the hour's analytics requests and any held wait are forgotten (${ledger.path}); the API's own limit still holds, and a 429 is kept again`,
    );
  }
  const { recent, retryAfter } = ledger.read(now);
  const limit = ANALYTICS_BUDGET.requests;
  // When the next request may go once the hour is full: the oldest request that keeps it full leaves the hour.
  const nextFreeAt = recent.length >= limit ? recent[recent.length - limit]! + ANALYTICS_BUDGET.windowMs : undefined;
  if (ctx.mode.json) {
    return printJson(ctx, {
      ledger: ledger.path,
      requestsLastHour: recent.length,
      limit,
      nextFreeAt: nextFreeAt === undefined ? null : new Date(nextFreeAt).toISOString(),
      heldWaitUntil: retryAfter === undefined ? null : new Date(retryAfter).toISOString(),
    });
  }
  ctx.print(
    `Analytics requests of the last hour, counted on this machine: ${recent.length} of the organization's ${limit}`,
  );
  if (recent.length > 0)
    ctx.print(
      `  oldest at ${whenText(recent[0]!, now).replace(' (now)', '')}${nextFreeAt === undefined ? '' : `; the next may go at ${whenText(nextFreeAt, now)}`}`,
    );
  ctx.print(
    retryAfter === undefined
      ? 'Held wait: none'
      : `Held wait: the API asked to wait (429) until ${whenText(retryAfter, now)}; every analytics command on this machine waits for it`,
  );
  ctx.print(`Kept in: ${ledger.path}`);
  if (retryAfter !== undefined || nextFreeAt !== undefined)
    ctx.print(
      'If the API has recovered (or other requests were counted here by mistake): mint-admin analytics budget --reset',
    );
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('budget')
    .description(
      "the organization's 100 analytics requests an hour as counted on this machine, and any wait a 429 asked for (no request)",
    )
    .option('--reset', "forget this machine's count and any held wait, when you know the API has recovered")
    .addHelpText(
      'after',
      `
Every analytics request of every mint-admin command is counted in a file under $XDG_STATE_HOME/mint-admin (one per key and base URL), and a 429's Retry-After is kept there too, so a later command waits instead of being refused again. --reset starts over; the API's own limit still holds.`,
    )
    .action(
      action<BudgetFlags>(deps, async (_args, flags, ctx) => {
        await budget(flags, ctx);
      }),
    );
  examples(command, ['mint-admin analytics budget', 'mint-admin analytics budget --reset']);
}
