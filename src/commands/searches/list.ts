// `searches list`: fetch one page, or with --all every page (100 terms a request, the fewest the
// hourly limit allows), handing each page to a streaming writer as it arrives.
import { Option, type Command } from 'commander';
import { action, examples } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import type { ApiClient } from '../../api/client.js';
import type { SearchesPage, SearchTerm } from '../../api/types.js';
import type { PagedEndpoint, PagingProgress } from '../../paging/engine.js';
import { SEARCHES, walkOf } from '../../paging/endpoints.js';
import { diskProblem, type SearchesWriter } from '../../output/writer.js';
import { MintAdminError } from '../../errors.js';
import { fileTarget, stdoutTarget, type OutputTarget } from '../../output/target.js';
import { FORMATS, parseListFlags, type SearchesListFlags, type SearchesListOptions } from './flags.js';
import { resumeCommand, resumeNote } from './resume.js';
import { shellCommand } from '../../shell.js';

export interface SearchesListResult {
  pages: number;
  /** Terms written by this run. */
  terms: number;
  totalSearches: number;
  /** Where a later run would carry on; null when the last page was reached. */
  nextCursor: string | null;
}

/** `searches list` as the paged-export engine sees it: cursor + nextCursor, the terms under `searches`. */
export function searchesEndpoint(api: ApiClient, projectId: string, opts: SearchesListOptions): PagedEndpoint<SearchesPage, SearchTerm> {
  return walkOf(SEARCHES, api, projectId, { dateFrom: opts.dateFrom, dateTo: opts.dateTo, limit: opts.limit });
}

export async function searchesList(opts: SearchesListOptions, ctx: Context): Promise<SearchesListResult> {
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  const { pageThrough } = await import('../../paging/engine.js');
  const target = opts.output === undefined ? stdoutTarget(ctx.io.stdout) : await fileTarget(opts.output, ctx);
  const progress = opts.all && (opts.output !== undefined || !ctx.io.stdoutIsTTY) ? await ctx.reporter.activity('fetching search terms') : undefined;
  const result: SearchesListResult = { pages: 0, terms: 0, totalSearches: 0, nextCursor: opts.cursor ?? null };
  const track = (paging: PagingProgress) =>
    Object.assign(result, { pages: paging.pages, terms: paging.items, nextCursor: paging.next?.cursor ?? null });
  let writer: SearchesWriter | undefined;
  try {
    await pageThrough({
      endpoint: searchesEndpoint(api, projectId, opts),
      start: { cursor: opts.cursor },
      all: opts.all,
      onPage: async (terms, page, paging) => {
        writer ??= await startWriter(opts, target, ctx);
        await writer.writePage(terms);
        result.totalSearches = page.totalSearches;
        track(paging);
        progress?.update(`fetching search terms: ${result.terms} so far (page ${result.pages})`);
      },
      // Rows already written stay; close the JSON document and say how to carry on.
      onStop: async (paging, error) => {
        progress?.stop();
        if (isClosedPipe(error, opts)) return;
        track(paging);
        if (writer) await stopEarly(writer, result, opts, ctx);
        // The disk filled (or failed): the file was cut back to its last whole row (output/target.ts).
        const problem = opts.output === undefined ? undefined : diskProblem(error);
        if (problem) throw diskProblemError(problem, result, opts, error);
      },
    });
    writer ??= await startWriter(opts, target, ctx);
    await writer.end({ totalSearches: result.totalSearches, nextCursor: result.nextCursor });
  } catch (error) {
    // `| head` closed the pipe: the reader has what it wanted, which is not a failure.
    if (isClosedPipe(error, opts)) return result;
    throw error;
  } finally {
    progress?.stop();
    await target.close();
  }
  if (opts.format !== 'json') ctx.reporter.info(footer(result, opts));
  return result;
}

function isClosedPipe(error: unknown, opts: SearchesListOptions): boolean {
  return opts.output === undefined && (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
}

async function startWriter(opts: SearchesListOptions, target: OutputTarget, ctx: Context): Promise<SearchesWriter> {
  const stream = await target.open();
  const writer = await createWriter(opts, stream, ctx);
  await writer.begin();
  return writer;
}

async function createWriter(opts: SearchesListOptions, stream: NodeJS.WritableStream, ctx: Context): Promise<SearchesWriter> {
  switch (opts.format) {
    case 'csv':
      return (await import('../../output/csv.js')).csvWriter(stream, { raw: opts.csvRaw, header: opts.header });
    case 'ndjson':
      return (await import('../../output/ndjson.js')).ndjsonWriter(stream);
    case 'json':
      return (await import('../../output/json.js')).jsonWriter(stream);
    case 'table': {
      const terminal = opts.output === undefined && ctx.io.stdoutIsTTY;
      return (await import('../../output/table.js')).tableWriter(stream, { terminal, columns: ctx.io.columns, color: ctx.mode.color, header: opts.header });
    }
  }
}

async function stopEarly(writer: SearchesWriter, result: SearchesListResult, opts: SearchesListOptions, ctx: Context): Promise<void> {
  await writer.end({ totalSearches: result.totalSearches, nextCursor: result.nextCursor }).catch(() => undefined);
  if (result.nextCursor === null) return;
  const where = opts.output === undefined ? '' : ` to ${opts.output}`;
  ctx.reporter.warn(
    `stopped after ${result.terms} terms (${result.pages} ${result.pages === 1 ? 'page' : 'pages'}); what was written${where} ends with a whole row.\n` +
      `To carry on from the next term (${resumeNote(opts)}), run:\n  ${resumeCommand(opts, ctx.globals, result.nextCursor)}`,
  );
}

function diskProblemError(problem: string, result: SearchesListResult, opts: SearchesListOptions, cause: unknown): MintAdminError {
  const next = result.pages > 0 && result.nextCursor !== null ? 'carry on with the command above' : 'run the command again';
  return new MintAdminError(`${problem} while writing ${opts.output}: it holds the ${result.terms} terms written before, ending with a whole row; free some space, then ${next}`, { cause });
}

/** The stderr line after the data: what was shown, and how to get more when there is more. */
export function footer(result: SearchesListResult, opts: SearchesListOptions): string {
  const verb = opts.output === undefined ? 'Showing' : 'Wrote';
  const into = opts.output === undefined ? '' : ` to ${opts.output}`;
  // Without --from/--to the API counts over its default period, which is not "the date range" to the user.
  const ranged = opts.dateFrom !== undefined || opts.dateTo !== undefined;
  const searches = `${result.totalSearches} searches ${ranged ? 'in the date range' : 'in total'}`;
  if (result.nextCursor !== null) return `${verb} ${result.terms} terms${into}, ${searches}; more: ${shellCommand(['--cursor', result.nextCursor])}`;
  // From the first page to the last, every term was written, so the term count is known.
  if (opts.cursor === undefined) return `${verb} ${result.terms} of ${result.terms} terms${into}, ${searches}`;
  return `${verb} ${result.terms} terms${into}, the last of the ${ranged ? 'range' : 'list'}; ${searches}`;
}

/** Also registered as `analytics searches` (name 'searches'): the same command under both names. */
export function register(group: Command, deps: Deps, name = 'list'): void {
  const command = group
    .command(name)
    .description('search terms with their hits, click-through rate and top clicked page, most searched first')
    .option('--from <date>', 'start of the date range: YYYY-MM-DD or ISO 8601 (UTC unless it has an offset)')
    .option('--to <date>', 'end of the date range, EXCLUSIVE: that day itself is not counted (a week: --from 2026-11-16 --to 2026-11-23)')
    .option('--limit <n>', 'terms per page, 1..100 (default 50; --all always uses 100)')
    .option('--cursor <cursor>', 'start at this cursor (from a previous page, or from a resume hint)')
    .option('--all', 'follow every page to the end, 100 terms per request (each request counts against the 100/hour analytics limit)')
    .addOption(new Option('--format <format>', 'output format (default: table; --json is --format json)').choices(FORMATS))
    .option('-o, --output <file>', 'write the data to this file instead of stdout')
    .option('--csv-raw', 'keep CSV cells that start with = + - @ tab or CR as they are (by default they get a leading \')')
    .option('--no-header', 'leave out the header line of csv and piped table output (to append a resumed export)')
    // One line per item: help-wrap.ts wraps them to the terminal when the help is printed.
    .addHelpText(
      'after',
      `
Formats:
  table    on a terminal, a table fitted to its width; piped or with -o, tab-separated lines with a header and full values (inside a value a tab is \\t, a newline \\n, a CR \\r, a backslash \\\\, other control characters \\xNN), so cut and awk work
  json     one document {"searches", "totalSearches", "nextCursor"}; with --all every term and "nextCursor": null
  ndjson   one search object a line, written page by page
  csv      header searchQuery,hits,ctr,topClickedPage,lastSearchedAt; RFC 4180 quoting, UTF-8 without BOM, CRLF line ends; a missing top clicked page is an empty cell

--to is exclusive: --from 2026-11-16 --to 2026-11-23 is the seven days of 16..22 November.
If an --all export stops early (rate limit, Ctrl-C), what was written ends with a whole row (a JSON document is closed, its nextCursor the place to carry on) and the command that carries on from there is printed on stderr.`,
    )
    .action(
      action<SearchesListFlags>(deps, async (_args, flags, ctx) => {
        await searchesList(parseListFlags(flags, ctx.mode.json), ctx);
      }),
    );
  examples(command, [
    'mint-admin searches list --from 2026-11-16 --to 2026-11-23',
    'mint-admin searches list --from 2026-11-16 --to 2026-11-23 --all --format csv -o searches-2026-47.csv',
    'mint-admin searches list --all --format ndjson | jq -r .searchQuery',
    'mint-admin searches list --limit 10 --json',
  ]);
}
