// `analytics sync`: every analytics endpoint into a local DuckDB database, incrementally, within this
// run's share of the hourly budget, resumable at any page. The engine is src/analytics-store/sync/;
// this file parses the flags and words the outcome (stderr; --json: a summary object on stdout).
import type { Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { formatDuration } from '../../../duration.js';
import { InterruptedError, UsageError } from '../../../errors.js';
import { parseDateFlag } from '../../../queries/dates.js';
import { DatabaseWriteError } from '../../../analytics-store/errors.js';

const DEFAULT_MAX_REQUESTS = 50;
/** For the help: the engine's DEFAULT_REACH_DAYS, which loads with the command, not with the help (a test holds them equal). */
export const HELP_DEFAULT_DAYS = 30;

/** What to do about a page that was not stored: only a full disk is told to make room. */
const WRITE_ADVICE: Record<DatabaseWriteError['kind'], string> = {
  'disk-full': 'make room and run `mint-admin analytics sync` again to continue',
  io: 'check the disk and run `mint-admin analytics sync` again to continue',
  refused:
    'the page holds something the database cannot store, and every run stops at it until mint-admin learns to: please report it with the output of `mint-admin analytics sync --debug`',
};

export interface SyncFlags {
  db?: string;
  from?: string;
  maxRequests?: string;
  parquet?: string;
}

export interface SyncOptions {
  db: string | undefined;
  from: number | undefined;
  maxRequests: number;
  parquet: string | undefined;
}

export function parseSyncFlags(flags: SyncFlags, now: number): SyncOptions {
  const from = flags.from === undefined ? undefined : parseDateFlag(flags.from, '--from', now);
  let maxRequests = DEFAULT_MAX_REQUESTS;
  if (flags.maxRequests !== undefined) {
    if (!/^\d+$/.test(flags.maxRequests))
      throw new UsageError(`--max-requests: "${flags.maxRequests}" is not a whole number`);
    maxRequests = Number(flags.maxRequests);
    if (maxRequests < 1 || maxRequests > 100)
      throw new UsageError('--max-requests: give 1 to 100 (the organization has 100 analytics requests an hour)');
  }
  for (const [flag, value] of [
    ['--db', flags.db],
    ['--parquet', flags.parquet],
  ] as const) {
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag}: give a path`);
  }
  return { db: flags.db, from, maxRequests, parquet: flags.parquet };
}

export async function sync(opts: SyncOptions, ctx: Context): Promise<void> {
  const now = ctx.clock.now();
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  const settings = await ctx.settings();
  const [{ syncDatabase, startOfUtcDay }, { defaultDatabasePath }, { fileRequestLedger }] = await Promise.all([
    import('../../../analytics-store/sync/index.js'),
    import('../../../analytics-store/db.js'),
    import('../../../budget/ledger-file.js'),
  ]);
  const from = opts.from === undefined ? undefined : startOfUtcDay(opts.from);
  if (from !== undefined && from > now) throw new UsageError('--from: give a day that has begun');
  const path = opts.db ?? defaultDatabasePath(ctx.env, projectId);
  const ledger = fileRequestLedger(ctx.env, settings.baseUrl.value, settings.apiKey?.value ?? '');
  const progress = await ctx.reporter.activity('syncing analytics');
  let rows = 0;
  const result = await syncDatabase({
    path,
    api,
    projectId,
    from,
    maxRequests: opts.maxRequests,
    ledger,
    clock: ctx.clock,
    signal: ctx.signal,
    parquet: opts.parquet,
    onPage: (e) => {
      progress.update(`syncing analytics: ${e.table} ${e.window.from.slice(0, 10)} (${(rows += e.rows)} rows)`);
      if (e.repaired.size > 0)
        ctx.debug(
          `${e.table} ${e.window.from.slice(0, 10)}: lone UTF-16 surrogates stored as U+FFFD in ${[...e.repaired].map(([field, n]) => `${field} (${n})`).join(', ')}`,
        );
    },
  })
    .catch((error: unknown) => {
      // The interruption is run.ts's own (the CLI's words, "interrupted"): this says what is kept.
      if (error instanceof InterruptedError)
        throw new InterruptedError(
          `${error.message}; every page stored so far is kept: run \`mint-admin analytics sync\` again to continue`,
          error.signal,
          { cause: error, nextStepSaid: true },
        );
      if (error instanceof DatabaseWriteError)
        throw new DatabaseWriteError(error.path, error.problem, error.cause, WRITE_ADVICE[error.kind]);
      throw error;
    })
    .finally(() => progress.stop());
  const used = `${result.requests} analytics request${result.requests === 1 ? '' : 's'}`;
  if (result.truncated.length > 0)
    ctx.reporter.warn(
      `feedback by page: more pages than one answer holds on ${result.truncated.join(', ')} (the endpoint has no cursor); the top 100 were kept`,
    );
  if (ctx.mode.json) {
    printJson(ctx, {
      database: result.path,
      complete: result.complete,
      requests: result.requests,
      requestsLeft: result.requestsLeft,
      pages: result.pages,
      rowsWritten: result.rowsWritten,
      windowsLeft: result.windowsLeft,
      stoppedBy: result.stop?.reason ?? null,
      nextRunAt: result.stop ? new Date(result.stop.nextAt).toISOString() : null,
      // Where this machine counts the hour's requests and keeps a 429's wait (`analytics budget`).
      ledger: ledger.path,
      tables: result.tables,
      parquet: result.parquet?.map((t) => ({ table: t.table, directory: t.directory, rows: t.rows })) ?? null,
    });
  }
  if (result.complete) {
    ctx.reporter.info(
      `synced: ${result.rowsWritten} rows in ${result.pages} pages, ${used}; up to date (${result.path})`,
    );
  } else if (result.stop) {
    const wait = result.stop.nextAt - ctx.clock.now();
    const when =
      wait <= 0
        ? 'the next run can continue now'
        : `the next run can continue at ${new Date(result.stop.nextAt).toISOString().slice(0, 16).replace('T', ' ')} UTC (in ${formatDuration(wait)})`;
    const why = {
      'run-budget': `--max-requests ${opts.maxRequests} spent`,
      'hourly-budget': `the organization's 100 analytics requests of the last hour are spent (counted on this machine, in ${ledger.path})`,
      'rate-limited':
        result.stop.reason === 'rate-limited' && result.stop.held
          ? `the API asked an earlier command to wait (429), and this machine keeps that wait (${ledger.path}): nothing was sent`
          : `the API asked to wait (429); the wait is kept on this machine (${ledger.path}) for every analytics command`,
    }[result.stop.reason];
    ctx.reporter.info(
      `stopped: ${why}; ${result.rowsWritten} rows in ${result.pages} pages, ${used}; ${result.windowsLeft} windows left to read; ${result.requestsLeft} of the hour's 100 requests left; ${when}`,
    );
    // What a user who knows better can do about a count or a wait kept on this machine.
    if (result.stop.reason !== 'run-budget')
      ctx.reporter.info(
        "see the hour's requests: `mint-admin analytics budget`; if the API has recovered, `mint-admin analytics budget --reset` starts over",
      );
  }
  if (result.parquet)
    ctx.reporter.info(
      `Parquet written to ${opts.parquet}: ${result.parquet.map((t) => `${t.table} ${t.rows}`).join(', ')}`,
    );
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('sync')
    .description(
      'pull every analytics endpoint into a local DuckDB database, incrementally, within an hourly request budget, resumable',
    )
    .option('--db <file>', 'the database (default: $XDG_DATA_HOME/mint-admin/<projectId>.duckdb)')
    .option(
      '--from <date>',
      `how far back the sync reaches: YYYY-MM-DD or a duration before now (90d), kept for later runs (default: the one given before, else ${HELP_DEFAULT_DAYS} days ago)`,
    )
    .option(
      '--max-requests <n>',
      `this run's share of the organization's 100 analytics requests an hour (default ${DEFAULT_MAX_REQUESTS})`,
    )
    .option(
      '--parquet <dir>',
      'also write each table as Parquet files, partitioned by date (Hive layout: <table>/date=YYYY-MM-DD/*.parquet)',
    )
    .addHelpText(
      'after',
      `
What \`analytics report\` needs first: the last two complete weeks (and months within --from), each read whole at once; then today, then day by day further back. A run that stops on its budget exits 0, says what is left and when the next run can continue, and the next run continues where it stopped. Every analytics request of every mint-admin command, and any wait a 429 asked for, is kept on this machine (\`analytics budget\` shows it, \`--reset\` starts over), so the total stays under 100 an hour. Needs the optional package @duckdb/node-api.`,
    )
    .action(
      action<SyncFlags>(deps, async (_args, flags, ctx) => {
        await sync(parseSyncFlags(flags, ctx.clock.now()), ctx);
      }),
    );
  examples(command, [
    'mint-admin analytics sync',
    'mint-admin analytics sync --from 2026-10-01 --max-requests 80 --parquet ./analytics',
  ]);
}
