// `analytics report`: what changed, this period against the one before, from the local analytics
// database (no API request), as Markdown (a step summary), JSON, or a Slack Block Kit message to
// pipe to a webhook. The engine computes one report object (src/analytics-store/report/); this
// command opens the database and writes the chosen rendering to stdout.
import { Option, type Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { UsageError } from '../../../errors.js';
import { readDate } from '../../../queries/dates.js';
import { jsonText } from '../../../output/json-text.js';
import { REPORT_FORMATS, type ReportFormat } from '../../../analytics-store/report/formats.js';
import { PERIODS, type PeriodKind } from '../../../analytics-store/report/period.js';
import { databasePath, DB_FLAG_HELP, openDatabase } from './database.js';

type ReportFlags = { period?: PeriodKind; format?: ReportFormat; db?: string; of?: string };

export interface ReportOptions {
  period: PeriodKind;
  format: ReportFormat;
  db: string | undefined;
  /** The instant whose period to report (epoch ms); undefined: the last complete period. */
  of: number | undefined;
}

export function parseReportFlags(flags: ReportFlags, json: boolean, now: number): ReportOptions {
  if (json && flags.format !== undefined && flags.format !== 'json')
    throw new UsageError(`--json means --format json; it cannot be combined with --format ${flags.format}`);
  const of = flags.of === undefined ? undefined : readDate(flags.of, '--of', now).time;
  // A period that has not begun has no data to report; a running one is allowed (it says what is partial).
  if (of !== undefined && of > now)
    throw new UsageError(`--of: ${new Date(of).toISOString().slice(0, 10)} has not begun yet; give a day up to today`);
  return { period: flags.period ?? 'week', format: json ? 'json' : (flags.format ?? 'md'), db: flags.db, of };
}

export async function report(opts: ReportOptions, ctx: Context): Promise<void> {
  const path = await databasePath(opts.db, ctx);
  const db = await openDatabase(path);
  const engine = await import('../../../analytics-store/report/index.js');
  const { checkSchema } = await import('../../../analytics-store/schema-check.js');
  let computed;
  try {
    await checkSchema(db, { complete: true });
    computed = await engine.computeReport(db.connection, opts.period, new Date(ctx.clock.now()), opts.of);
  } finally {
    db.close();
  }
  if (opts.format === 'json') printJson(ctx, computed);
  else if (opts.format === 'slack') ctx.io.stdout.write(`${jsonText(engine.renderSlack(computed))}\n`);
  else ctx.io.stdout.write(engine.renderMarkdown(computed));
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('report')
    .description('what changed: this period against the one before, from the local analytics database (no API request)')
    .addOption(
      new Option(
        '--period <period>',
        'the last complete ISO week (Monday to Sunday, UTC) or calendar month, against the one before (default: week)',
      ).choices(PERIODS),
    )
    .addOption(
      new Option(
        '--format <format>',
        'md (Markdown, for a step summary), json, or slack (Block Kit JSON for an incoming webhook) (default: md; --json is --format json)',
      ).choices(REPORT_FORMATS),
    )
    .option('--db <file>', DB_FLAG_HELP)
    .option(
      '--of <date>',
      'the week or month (--period) that holds this date, against the one before: YYYY-MM-DD or a duration before now (3w) (default: the last complete one)',
    )
    .addHelpText(
      'after',
      `
The period is the last COMPLETE one: on any day of a week, --period week reports Monday to Sunday
of the week before (UTC), against the week before that; --period month the last calendar month
against the one before it. --of <date> reports the period that holds that date instead (--of 2026-10-15,
--of 3w). Run \`analytics sync\` first: the report reads only the local database.

It shows views and visitors (people and AI agents), the searches rising and falling most, new
zero-click searches, unanswered assistant questions by category and the pages with the most
thumbs-down. Text readers typed is shown as quoted, bounded data in every format.`,
    )
    .action(
      action<ReportFlags>(deps, async (_args, flags, ctx) => {
        await report(parseReportFlags(flags, ctx.mode.json, ctx.clock.now()), ctx);
      }),
    );
  examples(command, [
    'mint-admin analytics report --period week >> "$GITHUB_STEP_SUMMARY"',
    'mint-admin analytics report --period month --of 2026-10-15',
    'mint-admin analytics report --format slack | curl -sf -X POST -H "Content-Type: application/json" --data @- "$SLACK_WEBHOOK_URL"',
  ]);
}
