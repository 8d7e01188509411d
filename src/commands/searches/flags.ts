// Every flag of `searches list` checked before anything is sent (exit 2, no request): an analytics
// request is one of 100 an organization gets an hour, too dear to spend on a typo.
import { UsageError } from '../../errors.js';
import { SEARCHES } from '../../paging/endpoints.js';
import { checkDateRange, parseDateFlag } from '../../queries/dates.js';

export const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type SearchesFormat = (typeof FORMATS)[number];


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

export interface SearchesListOptions {
  dateFrom: string | undefined;
  dateTo: string | undefined;
  limit: number;
  cursor: string | undefined;
  all: boolean;
  format: SearchesFormat;
  output: string | undefined;
  csvRaw: boolean;
  header: boolean;
}

/** An endpoint's page sizes and what its items are called, for messages. */
export interface PageLimits {
  default: number;
  max: number;
  noun: string;
}

// --all always asks for the largest page, so an export costs the fewest requests.
const SEARCH_LIMITS: PageLimits = { default: SEARCHES.defaultLimit, max: SEARCHES.maxLimit, noun: 'terms' };

/** `json` is the global --json flag, which means --format json. */
export function parseListFlags(flags: SearchesListFlags, json: boolean, limits: PageLimits = SEARCH_LIMITS): SearchesListOptions {
  const format = chooseFormat(flags.format, json);
  const from = flags.from === undefined ? undefined : parseDateFlag(flags.from, '--from');
  const to = flags.to === undefined ? undefined : parseDateFlag(flags.to, '--to');
  checkDateRange(from, to);
  if (flags.all && flags.limit !== undefined) {
    throw new UsageError(`--all always asks for ${limits.max} ${limits.noun} a page (the fewest requests against the hourly limit); leave out --limit`);
  }
  if (flags.csvRaw && format !== 'csv') throw new UsageError('--csv-raw only applies to --format csv');
  if (flags.header === false && (format === 'json' || format === 'ndjson')) {
    throw new UsageError(`--no-header only applies to --format csv and table; ${format} has no header line`);
  }
  if (flags.cursor !== undefined && flags.cursor.trim() === '') throw new UsageError('--cursor: give the cursor from a previous page');
  if (flags.output !== undefined && flags.output.trim() === '') throw new UsageError('-o/--output: give a file name');
  return {
    dateFrom: flags.from,
    dateTo: flags.to,
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
