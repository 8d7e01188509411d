// The flags every analytics list shares, declared and checked in one place: the same dates, page
// size, --all, formats, -o and resume flags as `searches list` (whose checks these reuse), with each
// endpoint's own largest page. All of it is checked before anything is sent (exit 2): an analytics
// request is one of 100 the whole organization gets an hour.
import { Option, type Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { PagingStyle } from '../../paging/engine.js';
import { FORMATS, parseListFlags, type PageLimits, type SearchesListFlags, type SearchesListOptions } from '../searches/flags.js';

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

export function addListOptions(command: Command, shape: ListShape): Command {
  command
    .option('--from <date>', 'start of the date range: YYYY-MM-DD or ISO 8601 (UTC unless it has an offset)')
    .option('--to <date>', 'end of the date range, EXCLUSIVE: that day itself is not counted')
    .option('--limit <n>', `${shape.noun} per page, 1..${shape.max} (default ${shape.default}; --all always uses ${shape.max})`);
  if (shape.style === 'offset+hasMore') command.option('--offset <n>', 'start after this many rows (from a resume hint)');
  else command.option('--cursor <cursor>', 'start at this cursor (from a previous page, or from a resume hint)');
  return command
    .option('--all', `follow every page to the end, ${shape.max} ${shape.noun} per request (each request counts against the 100/hour analytics limit)`)
    .addOption(new Option('--format <format>', 'output format (default: table; --json is --format json)').choices(FORMATS))
    .option('-o, --output <file>', 'write the data to this file instead of stdout')
    .option('--csv-raw', "keep CSV cells that start with = + - @ tab or CR as they are (by default they get a leading ')")
    .option('--no-header', 'leave out the header line of csv and piped table output (to append a resumed export)');
}

export function parseAnalyticsListFlags(flags: AnalyticsListFlags, json: boolean, shape: ListShape, filterArgs: string[] = []): AnalyticsListOptions {
  const options = parseListFlags(flags, json, shape);
  return { ...options, offset: parseOffset(flags.offset, flags.all), filterArgs };
}

function parseOffset(text: string | undefined, all: boolean | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`--offset: "${text}" is not a whole number of rows (0 or more)`);
  if (!all && Number(text) > 1_000_000) throw new UsageError(`--offset: ${text} is past any page the API serves`);
  return Number(text);
}
