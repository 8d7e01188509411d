// When an export stops early (429 past the cap, Ctrl-C, an API fault), what was written is whole
// rows, and this builds the one command that carries on from the next cursor: same project and
// filters, same format, no second header, its output appended where the first run's went.
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { GlobalOptions } from '../../config/settings.js';
import { repeatedFlags, shellCommand, shellQuote } from '../shell.js';
import type { ListExportOptions } from '../../list-export/options.js';

/**
 * For any paged list (`searches list`, `analytics views`, ...): its command words, its own filters
 * as flags (`filterArgs`), and where the next page starts, by cursor or by offset.
 */
export function listResumeCommand(
  command: string[],
  opts: ListExportOptions,
  globals: GlobalOptions,
  next: { cursor?: string | null | undefined; offset?: number | undefined },
): string {
  const args = ['mint-admin', ...globalArgs(globals), ...command, ...(opts.filterArgs ?? [])];
  if (opts.dateFrom !== undefined) args.push('--from', opts.dateFrom);
  if (opts.dateTo !== undefined) args.push('--to', opts.dateTo);
  args.push(...(opts.all ? ['--all'] : ['--limit', String(opts.limit)]));
  args.push('--format', opts.format);
  if (opts.csvRaw) args.push('--csv-raw');
  // Appended rows must not repeat the header; a JSON document goes to a file of its own.
  if (opts.format === 'csv' || opts.format === 'table') args.push('--no-header');
  args.push(...(next.offset !== undefined ? ['--offset', String(next.offset)] : ['--cursor', next.cursor ?? '']));
  if (opts.output !== undefined && opts.format === 'json') args.push('-o', nextFreeName(opts.output));
  const line = shellCommand(args);
  return opts.output !== undefined && opts.format !== 'json' ? `${line} >> ${shellQuote(opts.output)}` : line;
}

/** What to tell the user about where the resumed output goes. */
export function resumeNote(opts: ListExportOptions): string {
  if (opts.format === 'json') {
    return opts.output === undefined
      ? 'it prints the rest as a second JSON document'
      : 'it writes the rest as a second JSON document in a new file';
  }
  return opts.output === undefined
    ? "append its output to where this run's output went"
    : `it appends the rest to ${opts.output}`;
}

export function globalArgs(globals: GlobalOptions): string[] {
  return repeatedFlags(globals, ['profile', 'project', 'baseUrl', 'quiet']);
}

/** `searches.json` -> `searches.part2.json` (or part3, ... if that exists already). */
export function nextFreeName(path: string): string {
  const ext = extname(path);
  const stem = basename(path, ext).replace(/\.part\d+$/, '');
  for (let n = 2; ; n++) {
    const candidate = join(dirname(path), `${stem}.part${n}${ext}`);
    if (!existsSync(candidate)) return candidate;
  }
}
