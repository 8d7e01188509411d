// `analytics callers`: where assistant questions came from (web, API, other), one request.
import { Option, type Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Deps } from '../../context.js';
import { UsageError } from '../../../errors.js';
import { readDateRange } from '../../../queries/dates.js';

const FORMATS = ['table', 'json', 'csv'] as const;
const FIELDS = ['web', 'api', 'other', 'total'] as const;

type CallersFlags = { from?: string; to?: string; format?: (typeof FORMATS)[number] };

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('callers')
    .description('assistant questions by caller: the docs site (web), the API, and other integrations')
    .option(
      '--from <date>',
      'start of the date range: YYYY-MM-DD, ISO 8601 or a duration before now (7d, 12h, 2w, 30m)',
    )
    .option('--to <date>', 'end of the date range, EXCLUSIVE')
    .addOption(
      new Option('--format <format>', 'output format (default: table; --json is --format json)').choices(FORMATS),
    )
    .action(
      action<CallersFlags>(deps, async (_args, flags, ctx) => {
        const range = readDateRange(flags, ctx.clock.now());
        if (ctx.mode.json && flags.format !== undefined && flags.format !== 'json') {
          throw new UsageError(`--json means --format json; it cannot be combined with --format ${flags.format}`);
        }
        const format = ctx.mode.json ? 'json' : (flags.format ?? 'table');
        const stats = await (await ctx.api()).callerStats(await ctx.projectId(), {
          dateFrom: range.from?.text,
          dateTo: range.to?.text,
        });
        ctx.debug('analytics requests used: 1 (the organization shares 100 an hour)');
        if (format === 'json') return printJson(ctx, stats);
        if (format === 'csv')
          return void ctx.io.stdout.write(`${FIELDS.join(',')}\r\n${FIELDS.map((f) => stats[f]).join(',')}\r\n`);
        for (const f of FIELDS) ctx.print(`${f.padEnd(6)} ${String(stats[f]).padStart(8)}`);
      }),
    );
  examples(command, [
    'mint-admin analytics callers --from 2026-11-01 --to 2026-12-01',
    'mint-admin analytics callers --json',
  ]);
}
