// The flags every list shares (`searches list` and each analytics list), declared and checked in one
// place, with each endpoint's own largest page: dates, page size, --cursor or --offset, --all,
// formats, -o and the resume flags. All of it is checked before anything is sent (exit 2, no
// request): an analytics request is one of 100 an organization gets an hour, too dear to spend on a
// typo. The parsed options are what the list-export engine (src/list-export/) is handed.
import { Option, type Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { PagingStyle } from '../../paging/engine.js';
import { SEARCHES, type PagedRoute } from '../../paging/endpoints.js';
import { readDateRange } from '../../queries/dates.js';
import { LIST_FORMATS, type ListExportOptions, type ListFormat } from '../../list-export/options.js';

export const FORMATS = LIST_FORMATS;
export type SearchesFormat = ListFormat;

/** The flags as commander hands them over. */
export type SearchesListFlags = {
  from?: string;
  to?: string;
  limit?: string;
  cursor?: string;
  all?: boolean;
  format?: string;
  output?: string;
  csvRaw?: boolean;
  /** False with --no-header. */
  header?: boolean;
};

export type SearchesListOptions = Omit<ListExportOptions, 'offset' | 'filterArgs'>;

/** An endpoint's page sizes and what its items are called, for messages. */
export interface PageLimits {
  default: number;
  max: number;
  noun: string;
}

// --all always asks for the largest page, so an export costs the fewest requests.
const SEARCH_LIMITS: PageLimits = { default: SEARCHES.defaultLimit, max: SEARCHES.maxLimit, noun: 'terms' };

/** `json` is the global --json flag, which means --format json; `now` (the run's clock) is what `--from 7d` counts back from. */
export function parseListFlags(
  flags: SearchesListFlags,
  json: boolean,
  now: number,
  limits: PageLimits = SEARCH_LIMITS,
): SearchesListOptions {
  const format = chooseFormat(flags.format, json);
  const range = readDateRange(flags, now);
  if (flags.all && flags.limit !== undefined) {
    throw new UsageError(
      `--all always asks for ${limits.max} ${limits.noun} a page (the fewest requests against the hourly limit); leave out --limit`,
    );
  }
  if (flags.csvRaw && format !== 'csv') throw new UsageError('--csv-raw only applies to --format csv');
  if (flags.header === false && (format === 'json' || format === 'ndjson')) {
    throw new UsageError(`--no-header only applies to --format csv and table; ${format} has no header line`);
  }
  if (flags.cursor !== undefined && flags.cursor.trim() === '')
    throw new UsageError('--cursor: give the cursor from a previous page');
  if (flags.output !== undefined && flags.output.trim() === '') throw new UsageError('-o/--output: give a file name');
  return {
    dateFrom: range.from?.text,
    dateTo: range.to?.text,
    limit: flags.all ? limits.max : parseLimit(flags.limit, limits),
    cursor: flags.cursor,
    all: Boolean(flags.all),
    format,
    output: flags.output,
    csvRaw: Boolean(flags.csvRaw),
    header: flags.header !== false,
  };
}

function chooseFormat(given: string | undefined, json: boolean): SearchesFormat {
  if (given !== undefined && !(FORMATS as readonly string[]).includes(given)) {
    // commander's .choices() catches this first; kept so run() is safe on its own.
    throw new UsageError(`--format: "${given}" is not one of ${FORMATS.join(', ')}`);
  }
  if (json && given !== undefined && given !== 'json') {
    throw new UsageError(`--json means --format json; it cannot be combined with --format ${given}`);
  }
  return json ? 'json' : ((given as SearchesFormat | undefined) ?? 'table');
}

function parseLimit(text: string | undefined, limits: PageLimits): number {
  if (text === undefined) return limits.default;
  const limit = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(limit >= 1 && limit <= limits.max)) {
    throw new UsageError(`--limit: "${text}" is not a whole number from 1 to ${limits.max}`);
  }
  return limit;
}

export type AnalyticsListFlags = SearchesListFlags & { offset?: string };

export interface AnalyticsListOptions extends SearchesListOptions {
  /** Where an offset-paged list starts (--offset, from a resume hint). */
  offset: number | undefined;
  /** The endpoint's own filters, as flags, repeated in a resume command (e.g. --source code_snippet). */
  filterArgs: string[];
}

export interface ListShape extends PageLimits {
  style: PagingStyle;
}

/** A list's flags as its route declares them: --limit up to the largest page, --cursor or --offset. */
export function listShape(
  route: Pick<PagedRoute<object, unknown, object>, 'style' | 'defaultLimit' | 'maxLimit' | 'noun'>,
): ListShape {
  return { style: route.style, default: route.defaultLimit, max: route.maxLimit, noun: route.noun };
}

export function addListOptions(command: Command, shape: ListShape): Command {
  command
    .option(
      '--from <date>',
      'start of the date range: YYYY-MM-DD, ISO 8601 (UTC unless it has an offset) or a duration before now (7d, 12h, 2w, 30m)',
    )
    .option('--to <date>', 'end of the date range, EXCLUSIVE: that day itself is not counted')
    .option(
      '--limit <n>',
      `${shape.noun} per page, 1..${shape.max} (default ${shape.default}; --all always uses ${shape.max})`,
    );
  if (shape.style === 'offset+hasMore')
    command.option('--offset <n>', 'start after this many rows (from a resume hint)');
  else command.option('--cursor <cursor>', 'start at this cursor (from a previous page, or from a resume hint)');
  return command
    .option(
      '--all',
      `follow every page to the end, ${shape.max} ${shape.noun} per request (each request counts against the 100/hour analytics limit)`,
    )
    .addOption(
      new Option('--format <format>', 'output format (default: table; --json is --format json)').choices(FORMATS),
    )
    .option('-o, --output <file>', 'write the data to this file instead of stdout')
    .option(
      '--csv-raw',
      "keep CSV cells that start with = + - @ tab or CR as they are (by default they get a leading ')",
    )
    .option('--no-header', 'leave out the header line of csv and piped table output (to append a resumed export)');
}

export function parseAnalyticsListFlags(
  flags: AnalyticsListFlags,
  json: boolean,
  now: number,
  shape: ListShape,
  filterArgs: string[] = [],
): AnalyticsListOptions {
  const options = parseListFlags(flags, json, now, shape);
  return { ...options, offset: parseOffset(flags.offset, flags.all), filterArgs };
}

function parseOffset(text: string | undefined, all: boolean | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`--offset: "${text}" is not a whole number of rows (0 or more)`);
  if (!all && Number(text) > 1_000_000) throw new UsageError(`--offset: ${text} is past any page the API serves`);
  return Number(text);
}
