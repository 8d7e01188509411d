// The one list export: `searches list` and every analytics list (feedback, conversations, views,
// visitors, feedback by page) walk their pages through the paged-export engine and hand each page to
// the streaming writer of the chosen format, with the list's columns. What it adds to the paging is
// what a person needs, the same for every list: a footer saying what was written; on an early stop
// (429, Ctrl-C, a paging fault, a full disk) what was written ends with a whole row and the command
// that carries on from the next unwritten page is printed; a pipe closed by its reader (`| head`)
// ends the export quietly.
import type { Context } from '../cli/context.js';
import type { ApiClient } from '../api/client.js';
import type { AnalyticsQuery } from '../api/types.js';
import type { PagedEndpoint, PagePosition, PagingProgress, PagingStyle } from '../paging/engine.js';
import { ListOutputError } from './errors.js';
import { diskProblem, type Columns, type PageWriter } from '../output/writer.js';
import { fileTarget, stdoutTarget } from '../output/target.js';
import type { ListExportOptions, ListResult } from './options.js';

export type { ListResult } from './options.js';
import { listResumeCommand, resumeNote } from './resume.js';
import { analyticsVoice, requestsUsed, type ListVoice } from './voice.js';
import { startWriter } from './writers.js';

export interface ListSpec<Page extends object, Item> {
  /** The command as typed, for resume commands: ['analytics', 'feedback']. */
  command: string[];
  /** Items in the paging engine's messages: "feedback entries". */
  noun: string;
  style: PagingStyle;
  itemsKey: PagedEndpoint<Page, Item>['itemsKey'];
  itemsAtMost?: PagedEndpoint<Page, Item>['itemsAtMost'];
  columns: Columns<Item>;
  fetch(api: ApiClient, projectId: string, query: AnalyticsQuery): Promise<Page>;
  /** The JSON document's fields after the items: the last page's summary and where to resume. */
  summary(last: Page | undefined, next: PagePosition | null): Record<string, unknown>;
  /** A line of totals shown after a table (views, visitors). */
  totals?(last: Page): string;
  /** Only one page exists (feedback by page): no --all loop, no "more" hint. */
  singlePage?: boolean;
  /** How the list speaks on stderr; default: an analytics list's words (voice.ts). */
  voice?: ListVoice<Page>;
}

export async function exportList<Page extends object, Item>(
  spec: ListSpec<Page, Item>,
  opts: ListExportOptions,
  ctx: Context,
): Promise<ListResult<Page>> {
  const voice = spec.voice ?? analyticsVoice(spec.noun);
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  const { pageThrough } = await import('../paging/engine.js');
  const target = opts.output === undefined ? stdoutTarget(ctx.io.stdout) : await fileTarget(opts.output, ctx);
  const progress =
    opts.all && (opts.output !== undefined || !ctx.io.stdoutIsTTY)
      ? await ctx.reporter.activity(`fetching ${voice.fetching}`)
      : undefined;
  const start: PagePosition = spec.style === 'offset+hasMore' ? { offset: opts.offset } : { cursor: opts.cursor };
  const result: ListResult<Page> = { pages: 0, items: 0, requests: 0, next: start, last: undefined };
  const track = (paging: PagingProgress) =>
    Object.assign(result, {
      pages: paging.pages,
      items: paging.items,
      requests: paging.requests,
      next: spec.singlePage ? null : paging.next,
    });
  const query = (position: PagePosition): AnalyticsQuery => ({
    dateFrom: opts.dateFrom,
    dateTo: opts.dateTo,
    limit: opts.limit,
    ...position,
  });
  const writerSpec = { itemsKey: String(spec.itemsKey), columns: spec.columns };
  let writer: PageWriter<Item, object> | undefined;
  try {
    await pageThrough<Page, Item>({
      endpoint: {
        style: spec.style,
        itemsKey: spec.itemsKey,
        noun: spec.noun,
        itemsAtMost: spec.itemsAtMost,
        fetch: (position) => spec.fetch(api, projectId, query(position)),
      },
      start,
      all: opts.all && !spec.singlePage,
      onPage: async (items, page, paging) => {
        writer ??= await startWriter(writerSpec, opts, target, ctx);
        await writer.writePage(items);
        result.last = page;
        track(paging);
        progress?.update(`fetching ${voice.fetching}: ${result.items} so far (page ${result.pages})`);
      },
      // Rows already written stay; close the JSON document and say how to carry on.
      onStop: async (paging, error) => {
        progress?.stop();
        result.requests = paging.requests;
        if (isClosedPipe(error, opts)) return;
        track(paging);
        if (writer) await stopEarly(writer, spec, voice, result, opts, ctx);
        // The disk filled (or failed): the file was cut back to its last whole row (output/target.ts).
        const problem = opts.output === undefined ? undefined : diskProblem(error);
        if (problem) throw diskProblemError(problem, voice, result, opts, error);
      },
    });
    writer ??= await startWriter(writerSpec, opts, target, ctx);
    await writer.end(spec.summary(result.last, result.next));
  } catch (error) {
    // `| head` closed the pipe: the reader has what it wanted, which is not a failure.
    if (isClosedPipe(error, opts)) return result;
    throw error;
  } finally {
    progress?.stop();
    await target.close();
    if (voice.countsRequests)
      ctx.debug(`analytics requests used: ${result.requests} (the organization shares 100 an hour)`);
  }
  if (opts.format === 'table' && result.last && spec.totals) ctx.reporter.info(spec.totals(result.last));
  if (opts.format !== 'json') ctx.reporter.info(voice.footer(result, opts));
  else if (opts.all && voice.countsRequests) ctx.reporter.info(requestsUsed(result.requests));
  return result;
}

function isClosedPipe(error: unknown, opts: ListExportOptions): boolean {
  return opts.output === undefined && (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
}

async function stopEarly<Page extends object, Item>(
  writer: PageWriter<Item, object>,
  spec: ListSpec<Page, Item>,
  voice: ListVoice<Page>,
  result: ListResult<Page>,
  opts: ListExportOptions,
  ctx: Context,
): Promise<void> {
  await writer.end(spec.summary(result.last, result.next)).catch(() => undefined);
  // Nothing to carry on from: the last page was written, or the stop came before the first page
  // was (the command itself is then the way to carry on).
  if (result.next === null || (result.next.cursor === undefined && result.next.offset === undefined)) return;
  const where = opts.output === undefined ? '' : ` to ${opts.output}`;
  ctx.reporter.warn(
    `stopped after ${voice.stoppedAfter(result)}; what was written${where} ends with a whole row.\n` +
      `To carry on from ${voice.nextOne} (${resumeNote(opts)}), run:\n  ${listResumeCommand(spec.command, opts, ctx.globals, result.next)}`,
  );
}

function diskProblemError<Page extends object>(
  problem: string,
  voice: ListVoice<Page>,
  result: ListResult<Page>,
  opts: ListExportOptions,
  cause: unknown,
): ListOutputError {
  const next = result.pages > 0 && result.next !== null ? 'carry on with the command above' : 'run the command again';
  return new ListOutputError(
    `${problem} while writing ${opts.output}: it holds the ${result.items} ${voice.counted} written before, ending with a whole row; free some space, then ${next}`,
    opts.output ?? '',
    result.items,
    problem,
    cause,
  );
}
