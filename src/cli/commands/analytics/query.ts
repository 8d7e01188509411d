// `analytics query <sql>`: read-only SQL over the local analytics database, written in any of the
// lists' formats by the lists' own writers (src/list-export/writers.ts): the same table, JSON,
// NDJSON and CSV (formula guard included), to stdout or to -o as whole rows.
import { Option, type Command } from 'commander';
import { action, examples } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { InterruptedError, UsageError } from '../../../errors.js';
import { LIST_FORMATS, type ListExportOptions, type ListFormat } from '../../../list-export/options.js';
import { databasePath, DB_FLAG_HELP, openDatabase, refuseOutputOverDatabase } from './database.js';

type QueryFlags = { db?: string; format?: string; output?: string; csvRaw?: boolean; header?: boolean };

export interface QueryOptions {
  sql: string;
  db: string | undefined;
  format: ListFormat;
  output: string | undefined;
  csvRaw: boolean;
  header: boolean;
}

export function parseQueryFlags(sql: string, flags: QueryFlags, json: boolean): QueryOptions {
  if (json && flags.format !== undefined && flags.format !== 'json')
    throw new UsageError(`--json means --format json; it cannot be combined with --format ${flags.format}`);
  const format = json ? 'json' : ((flags.format as ListFormat | undefined) ?? 'table');
  if (flags.csvRaw && format !== 'csv') throw new UsageError('--csv-raw only applies to --format csv');
  if (flags.header === false && (format === 'json' || format === 'ndjson'))
    throw new UsageError(`--no-header only applies to --format csv and table; ${format} has no header line`);
  if (flags.output !== undefined && flags.output.trim() === '') throw new UsageError('-o/--output: give a file name');
  if (sql.trim() === '') throw new UsageError('give a SQL statement, e.g. "SELECT * FROM searches LIMIT 10"');
  return {
    sql,
    db: flags.db,
    format,
    output: flags.output,
    csvRaw: Boolean(flags.csvRaw),
    header: flags.header !== false,
  };
}

export async function query(opts: QueryOptions, ctx: Context): Promise<number> {
  const path = await databasePath(opts.db, ctx);
  if (opts.output !== undefined) await refuseOutputOverDatabase(opts.output, path);
  const { fileTarget, stdoutTarget } = await import('../../../output/target.js');
  // A typo in -o is found before the database is opened.
  const target = opts.output === undefined ? stdoutTarget(ctx.io.stdout) : await fileTarget(opts.output, ctx);
  const { CLI_QUERY_LIMITS } = await import('../../../analytics-store/query-limits.js');
  const db = await openDatabase(path, CLI_QUERY_LIMITS);
  let rows = 0;
  try {
    const { runReadOnlyQuery } = await import('../../../analytics-store/query.js');
    const { queryColumns, rowObject, uniqueNames } = await import('../../../analytics-store/query-columns.js');
    const { startWriter } = await import('../../../list-export/writers.js');
    const result = await runReadOnlyQuery(db.connection, opts.sql, ctx.signal, CLI_QUERY_LIMITS);
    const names = uniqueNames(result.columns);
    const listOptions: ListExportOptions = {
      dateFrom: undefined,
      dateTo: undefined,
      limit: 0,
      cursor: undefined,
      all: true,
      format: opts.format,
      output: opts.output,
      csvRaw: opts.csvRaw,
      header: opts.header,
    };
    // The file is created once the query has run: a refused or failing query leaves an older file alone.
    const writer = await startWriter(
      { itemsKey: 'rows', columns: queryColumns(result.columns, names) },
      listOptions,
      target,
      { stdoutIsTTY: ctx.io.stdoutIsTTY, columns: ctx.io.columns, color: ctx.mode.color },
    );
    for await (const chunk of result.chunks()) {
      ctx.signal.throwIfAborted();
      await writer.writePage(chunk.map((cells) => rowObject(names, cells)));
      rows += chunk.length;
    }
    await writer.end({ columns: result.columns.map((c, i) => ({ name: names[i], type: c.type })), rowCount: rows });
  } catch (error) {
    // `| head` closed the pipe: the reader has what it wanted.
    if (opts.output === undefined && (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE') return rows;
    // A cut result must not pass for a whole one, and there is no resume to build on it: removed.
    if (error instanceof InterruptedError) await target.discard?.();
    // So is one stopped at a bound: its rows so far are not the query's answer.
    const { QueryLimitError } = await import('../../../analytics-store/query-limits.js');
    if (error instanceof QueryLimitError) await target.discard?.();
    // The disk filled: the file was cut back to its last whole row (output/target.ts), as a list's is.
    const { diskProblem } = await import('../../../output/writer.js');
    const problem = opts.output === undefined ? undefined : diskProblem(error);
    if (problem) {
      const { ListOutputError } = await import('../../../list-export/errors.js');
      throw new ListOutputError(
        `${problem} while writing ${opts.output}: it holds the ${rows} rows written before, ending with a whole row; free some space, then run the query again`,
        opts.output ?? '',
        rows,
        problem,
        error,
      );
    }
    throw error;
  } finally {
    await target.close();
    db.close();
  }
  if (opts.format !== 'json')
    ctx.reporter.info(
      `${rows} ${rows === 1 ? 'row' : 'rows'}${opts.output === undefined ? '' : ` written to ${opts.output}`}`,
    );
  return rows;
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('query')
    .description('run read-only SQL over the local analytics database (filled by `analytics sync`); no API request')
    .argument('<sql>', 'one SELECT statement (SHOW, DESCRIBE, SUMMARIZE and FROM-first queries are SELECTs too)')
    .option('--db <file>', DB_FLAG_HELP)
    .addOption(
      new Option('--format <format>', 'output format (default: table; --json is --format json)').choices(LIST_FORMATS),
    )
    .option('-o, --output <file>', 'write the rows to this file instead of stdout')
    .option(
      '--csv-raw',
      "keep CSV cells that start with = + - @ tab or CR as they are (by default they get a leading ')",
    )
    .option('--no-header', 'leave out the header line of csv and piped table output')
    .addHelpText(
      'after',
      `
Tables: searches, views, visitors, feedback_by_page, caller_stats (one row per day and key, with its
"date"), conversations, feedback (one row per id), sync_state. Columns are the API's fields in
snake_case; \`mint-admin analytics query "DESCRIBE searches"\` lists them.

searches_by_range, views_by_range, visitors_by_range and feedback_by_page_by_range hold the same over a whole week or month (date_from, date_to), as the report reads them: they overlap the day tables, so sum one or the other, never both.

Read-only: the database is opened read-only with file access, extensions and settings locked, and
only a SELECT runs. INSERT, UPDATE, DELETE, CREATE, COPY, EXPORT, ATTACH, INSTALL, LOAD, SET, PRAGMA
with effects, CALL and EXPLAIN are refused with exit 2 before anything runs. The JSON document is
{ rows, columns, rowCount }.

Bounds: a query may use 2GB of memory, 8GB of temporary files, 10 minutes, and 1,000,000 list, map
or struct elements in one chunk of rows (about 2048 rows); past one it is stopped with exit 2 and an
error naming the bound (nothing is kept of an -o file it began).`,
    )
    .action(
      action<QueryFlags>(deps, async (args, flags, ctx) => {
        await query(parseQueryFlags(args[0] ?? '', flags, ctx.mode.json), ctx);
      }),
    );
  examples(command, [
    `mint-admin analytics query "SELECT search_query, sum(hits) AS hits FROM searches GROUP BY 1 ORDER BY 2 DESC LIMIT 20"`,
    `mint-admin analytics query "FROM conversations WHERE resolution_status = 'unanswered'" --format csv -o unanswered.csv`,
  ]);
}
