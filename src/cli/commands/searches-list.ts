// `searches list` (also `analytics searches`: one command under both names, registered from here so
// neither group imports the other): fetch one page, or with --all every page (100 terms a request,
// the fewest the hourly limit allows), through the one list-export engine (src/list-export/).
import { Option, type Command } from 'commander';
import { action, examples } from '../command.js';
import type { Context, Deps } from '../context.js';
import type { SearchesPage, SearchTerm } from '../../api/types.js';
import type { GlobalOptions } from '../../config/settings.js';
import { SEARCHES } from '../../paging/endpoints.js';
import { SEARCH_COLUMNS } from '../../output/cells.js';
import { type ListResult, type ListCommandSpec, runList } from './list-run.js';
import { listResumeCommand } from './list-resume.js';
import type { ListVoice } from './list-voice.js';
import { FORMATS, parseListFlags, type SearchesListFlags, type SearchesListOptions } from './list-options.js';
import { shellCommand } from '../shell.js';

export interface SearchesListResult {
  pages: number;
  /** Terms written by this run. */
  terms: number;
  totalSearches: number;
  /** Where a later run would carry on; null when the last page was reached. */
  nextCursor: string | null;
}

const asSearchesResult = (r: ListResult<SearchesPage>): SearchesListResult => ({
  pages: r.pages,
  terms: r.items,
  totalSearches: r.last?.totalSearches ?? 0,
  nextCursor: r.next?.cursor ?? null,
});

// The words `searches list` has always used: it counts terms and searches, not requests.
const VOICE: ListVoice<SearchesPage> = {
  fetching: 'search terms',
  counted: 'terms',
  stoppedAfter: (r) => `${r.items} terms (${r.pages} ${r.pages === 1 ? 'page' : 'pages'})`,
  nextOne: 'the next term',
  footer: (r, opts) => footer(asSearchesResult(r), opts),
  countsRequests: false,
};

/** `searches list` as the list-export engine sees it: cursor + nextCursor, the terms under `searches`. */
export const SEARCHES_SPEC: ListCommandSpec<SearchesPage, SearchTerm> = {
  // The resume command keeps the original name whichever name was typed.
  command: ['searches', 'list'],
  noun: SEARCHES.noun,
  style: SEARCHES.style,
  itemsKey: SEARCHES.itemsKey,
  itemsAtMost: SEARCHES.itemsAtMost,
  columns: SEARCH_COLUMNS,
  fetch: (api, projectId, { offset: _none, ...query }) => SEARCHES.fetch(api, projectId, query),
  summary: (last, next) => ({ totalSearches: last?.totalSearches ?? 0, nextCursor: next?.cursor ?? null }),
  voice: VOICE,
};

export async function searchesList(opts: SearchesListOptions, ctx: Context): Promise<SearchesListResult> {
  return asSearchesResult(await runList(SEARCHES_SPEC, opts, ctx));
}

/** The command that carries on from `nextCursor`. */
export function resumeCommand(opts: SearchesListOptions, globals: GlobalOptions, nextCursor: string): string {
  return listResumeCommand(SEARCHES_SPEC.command, opts, globals, { cursor: nextCursor });
}

/** The stderr line after the data: what was shown, and how to get more when there is more. */
export function footer(result: SearchesListResult, opts: SearchesListOptions): string {
  const verb = opts.output === undefined ? 'Showing' : 'Wrote';
  const into = opts.output === undefined ? '' : ` to ${opts.output}`;
  // Without --from/--to the API counts over its default period, which is not "the date range" to the user.
  const ranged = opts.dateFrom !== undefined || opts.dateTo !== undefined;
  const searches = `${result.totalSearches} searches ${ranged ? 'in the date range' : 'in total'}`;
  if (result.nextCursor !== null)
    return `${verb} ${result.terms} terms${into}, ${searches}; more: ${shellCommand(['--cursor', result.nextCursor])}`;
  // From the first page to the last, every term was written, so the term count is known.
  if (opts.cursor === undefined) return `${verb} ${result.terms} of ${result.terms} terms${into}, ${searches}`;
  return `${verb} ${result.terms} terms${into}, the last of the ${ranged ? 'range' : 'list'}; ${searches}`;
}

/** Also registered as `analytics searches` (name 'searches'): the same command under both names. */
export function register(group: Command, deps: Deps, name = 'list'): void {
  const command = group
    .command(name)
    .description('search terms with their hits, click-through rate and top clicked page, most searched first')
    .option(
      '--from <date>',
      'start of the date range: YYYY-MM-DD, ISO 8601 (UTC unless it has an offset) or a duration before now (7d, 12h, 2w, 30m)',
    )
    .option(
      '--to <date>',
      'end of the date range, EXCLUSIVE: that day itself is not counted (a week: --from 2026-11-16 --to 2026-11-23)',
    )
    .option('--limit <n>', 'terms per page, 1..100 (default 50; --all always uses 100)')
    .option('--cursor <cursor>', 'start at this cursor (from a previous page, or from a resume hint)')
    .option(
      '--all',
      'follow every page to the end, 100 terms per request (each request counts against the 100/hour analytics limit)',
    )
    .addOption(
      new Option('--format <format>', 'output format (default: table; --json is --format json)').choices(FORMATS),
    )
    .option('-o, --output <file>', 'write the data to this file instead of stdout')
    .option(
      '--csv-raw',
      "keep CSV cells that start with = + - @ tab or CR as they are (by default they get a leading ')",
    )
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
        await searchesList(parseListFlags(flags, ctx.mode.json, ctx.clock.now()), ctx);
      }),
    );
  examples(command, [
    'mint-admin searches list --from 2026-11-16 --to 2026-11-23',
    'mint-admin searches list --from 2026-11-16 --to 2026-11-23 --all --format csv -o searches-2026-47.csv',
    'mint-admin searches list --all --format ndjson | jq -r .searchQuery',
    'mint-admin searches list --limit 10 --json',
  ]);
}
