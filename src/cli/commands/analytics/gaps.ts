// `analytics gaps`: one ranked list of what readers looked for and did not find, within a request
// budget (--max-requests, default 25 of the organization's 100 an hour). The gaps engine collects and
// scores (src/gaps/); this command parses the flags, shows the progress, and writes the report
// (gaps-report.ts, gaps-terminal.ts, gaps-prompt.ts).
import { Option, type Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { UsageError } from '../../../errors.js';
import {
  collectGaps,
  DEFAULT_GAPS_REQUESTS as DEFAULT_MAX_REQUESTS,
  MIN_GAPS_REQUESTS as MIN_REQUESTS,
  type GapSource,
  type GapsReport,
} from '../../../gaps/collect.js';
import { MIN_SEARCH_HITS } from '../../../gaps/score.js';
import { readDateRange } from '../../../queries/dates.js';
import { FORMATS, partialNotes, renderReport, type GapsFormat } from './gaps-report.js';

export interface GapsOptions {
  dateFrom: string | undefined;
  dateTo: string | undefined;
  format: GapsFormat;
  /** False when md is only the default: then a terminal gets a drawn table instead (gaps-terminal.ts). */
  formatGiven: boolean;
  output: string | undefined;
  maxRequests: number;
  top: number;
  prompt: boolean;
}

/** The spinner's line while a source is read (feedback by page is one request: no count to show). */
const READING: Partial<Record<GapSource, (rows: number) => string>> = {
  views: (rows) => `reading page views: ${rows} pages`,
  conversations: (rows) => `reading assistant conversations: ${rows}`,
  searches: (rows) => `reading search terms: ${rows}`,
};

type GapsFlags = {
  from?: string;
  to?: string;
  format?: GapsFormat;
  output?: string;
  maxRequests?: string;
  top?: string;
  prompt?: boolean;
};

export function parseGapsFlags(flags: GapsFlags, json: boolean, now: number): GapsOptions {
  const range = readDateRange(flags, now);
  if (json && flags.format !== undefined && flags.format !== 'json')
    throw new UsageError(`--json means --format json; it cannot be combined with --format ${flags.format}`);
  if (flags.prompt && (flags.format !== undefined || json))
    throw new UsageError('--prompt prints an instruction for `agent run`, not a report: leave out --format/--json');
  const maxRequests = wholeNumber(flags.maxRequests, '--max-requests', DEFAULT_MAX_REQUESTS);
  if (maxRequests < MIN_REQUESTS || maxRequests > 100) {
    throw new UsageError(
      `--max-requests: give ${MIN_REQUESTS} to 100 (one request per source at least; the organization has 100 an hour)`,
    );
  }
  const top = wholeNumber(flags.top, '--top', flags.prompt ? 5 : 20);
  if (top < 1) throw new UsageError('--top: give 1 or more');
  if (flags.output !== undefined && flags.output.trim() === '') throw new UsageError('-o/--output: give a file name');
  return {
    dateFrom: range.from?.text,
    dateTo: range.to?.text,
    format: json ? 'json' : (flags.format ?? 'md'),
    formatGiven: json || flags.format !== undefined,
    output: flags.output,
    maxRequests,
    top,
    prompt: Boolean(flags.prompt),
  };
}

function wholeNumber(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag}: "${text}" is not a whole number`);
  return Number(text);
}

export async function gaps(opts: GapsOptions, ctx: Context): Promise<GapsReport> {
  const { fileTarget } = await import('../../../output/target.js');
  const target = opts.output === undefined ? undefined : await fileTarget(opts.output, ctx);
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  const progress = await ctx.reporter.activity('reading analytics for the gaps report');
  const { report, rateLimit } = await collectGaps(api, projectId, opts, (source, rows) => {
    const line = READING[source]?.(rows);
    if (line) progress.update(line);
  }).finally(() => progress.stop());
  ctx.debug(
    `analytics requests used: ${report.requests.used} of --max-requests ${opts.maxRequests} (the organization shares 100 an hour)`,
  );
  const atTerminal = !target && !opts.prompt && !opts.formatGiven && ctx.io.stdoutIsTTY;
  const text = atTerminal ? '' : await renderReport(report, opts);
  if (atTerminal) {
    // Server text reaches the terminal only through ctx.print's sanitising, as below.
    const { terminalReport } = await import('./gaps-terminal.js');
    for (const line of await terminalReport(report, opts.top, ctx.io.columns ?? 80)) ctx.print(line);
  } else if (target) {
    const { writeChunk } = await import('../../../output/writer.js');
    await writeChunk(await target.open(), ctx.scrub(text));
    await target.close();
  } else if (opts.format === 'json' && !opts.prompt) {
    printJson(ctx, { ...report, gaps: report.gaps.slice(0, opts.top) });
  } else if (opts.format === 'csv' && !opts.prompt) {
    // Data with its own escaping (RFC 4180; multi-line cells): written as it is, like every CSV export.
    const { writeChunk } = await import('../../../output/writer.js');
    await writeChunk(ctx.io.stdout, ctx.scrub(text));
  } else {
    // Server text (terms, questions) reaches a terminal only through ctx.print's sanitising.
    for (const line of text.replace(/\r?\n$/, '').split(/\r?\n/)) ctx.print(line);
  }
  const used = `${report.requests.used} of ${report.requests.max} analytics requests used (the organization shares 100 an hour)`;
  if (report.partial) ctx.reporter.warn(`partial report: ${partialNotes(report).join('; ')}; ${used}`);
  else ctx.reporter.info(`${report.gaps.length} gaps${opts.output ? ` written to ${opts.output}` : ''}; ${used}`);
  if (rateLimit) throw rateLimit;
  return report;
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('gaps')
    .description(
      'content gaps, ranked: searches nobody clicked, unanswered assistant questions, poorly rated pages, weighted by page views',
    )
    .option(
      '--from <date>',
      'start of the date range: YYYY-MM-DD, ISO 8601 or a duration before now (7d, 12h, 2w, 30m)',
    )
    .option('--to <date>', 'end of the date range, EXCLUSIVE')
    .addOption(
      new Option(
        '--format <format>',
        'md (a short report, the default; at a terminal, unless given, a table fitted to its width), csv or json (--json is --format json)',
      ).choices(FORMATS),
    )
    .option('-o, --output <file>', 'write the report to this file instead of stdout')
    .option(
      '--max-requests <n>',
      `spend at most this many of the organization's 100 hourly analytics requests (default ${DEFAULT_MAX_REQUESTS}, at least ${MIN_REQUESTS})`,
    )
    .option('--top <n>', 'show the n highest-scoring gaps (default 20; 5 with --prompt)')
    .option('--prompt', 'print an instruction for `mint-admin agent run` that asks the agent to address the top gaps')
    .addHelpText(
      'after',
      `
Score = events x signal weight x traffic weight. Events: searches with no click (terms
searched ${MIN_SEARCH_HITS}+ times, click-through 0 or no top clicked page), assistant questions left
unanswered (grouped by category and page), thumbs-down votes and code-snippet reports (a
report counts 4/3). Signal weight: search 1, question 5, page 3. Traffic weight, where the
page is known: 1 + log10(1 + views/100). Each row says why it scored what it did.
The report says how many requests it used and when the budget or the rate limit cut it short.`,
    )
    .action(
      action<GapsFlags>(deps, async (_args, flags, ctx) => {
        await gaps(parseGapsFlags(flags, ctx.mode.json, ctx.clock.now()), ctx);
      }),
    );
  examples(command, [
    'mint-admin analytics gaps --from 2026-11-01 --to 2026-12-01',
    'mint-admin analytics gaps --format csv -o gaps.csv --max-requests 40',
    'mint-admin agent run "$(mint-admin analytics gaps --prompt --top 3)" --wait',
  ]);
}
