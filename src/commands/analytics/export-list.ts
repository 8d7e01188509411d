// The one analytics list command, declared per endpoint (feedback, conversations, views, visitors,
// feedback by page): it walks the pages through the paged-export engine and hands each page to the
// streaming writer of the chosen format, with the endpoint's columns. What it adds to the engine is
// what a person needs: a footer saying what was written and how many of the organization's 100
// hourly analytics requests it used, and on an early stop (429, Ctrl-C, a paging fault) the command
// that carries on from the next unwritten page.
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/client.js';
import type { AnalyticsQuery } from '../../api/types.js';
import type { PagedEndpoint, PagePosition, PagingProgress, PagingStyle } from '../../paging/engine.js';
import type { Columns, PageWriter } from '../../output/writer.js';
import { fileTarget, stdoutTarget, type OutputTarget } from '../../output/target.js';
import { shellCommand } from '../../shell.js';
import { listResumeCommand, resumeNote } from '../searches/resume.js';
import type { AnalyticsListOptions } from './list-flags.js';

export interface ListSpec<Page extends object, Item> {
  /** The command as typed, for resume commands: ['analytics', 'feedback']. */
  command: string[];
  /** Items in messages: "feedback entries". */
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
}

export interface ListResult {
  pages: number;
  items: number;
  /** Analytics requests this run sent (page requests; the client's own retries are not counted). */
  requests: number;
  next: PagePosition | null;
}

export async function exportList<Page extends object, Item>(spec: ListSpec<Page, Item>, opts: AnalyticsListOptions, ctx: Context): Promise<ListResult & { last: Page | undefined }> {
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  const { pageThrough } = await import('../../paging/engine.js');
  const target = opts.output === undefined ? stdoutTarget(ctx.io.stdout) : await fileTarget(opts.output, ctx);
  const progress = opts.all && (opts.output !== undefined || !ctx.io.stdoutIsTTY) ? await ctx.reporter.activity(`fetching ${spec.noun}`) : undefined;
  const start: PagePosition = spec.style === 'offset+hasMore' ? { offset: opts.offset } : { cursor: opts.cursor };
  const result: ListResult & { last: Page | undefined } = { pages: 0, items: 0, requests: 0, next: start, last: undefined };
  const track = (paging: PagingProgress) => Object.assign(result, { pages: paging.pages, items: paging.items, requests: paging.requests, next: spec.singlePage ? null : paging.next });
  const query = (position: PagePosition): AnalyticsQuery => ({ dateFrom: opts.dateFrom, dateTo: opts.dateTo, limit: opts.limit, ...position });
  let writer: PageWriter<Item, object> | undefined;
  try {
    await pageThrough<Page, Item>({
      endpoint: { style: spec.style, itemsKey: spec.itemsKey, noun: spec.noun, itemsAtMost: spec.itemsAtMost, fetch: (position) => spec.fetch(api, projectId, query(position)) },
      start,
      all: opts.all && !spec.singlePage,
      onPage: async (items, page, paging) => {
        writer ??= await startWriter(spec, opts, target, ctx);
        await writer.writePage(items);
        result.last = page;
        track(paging);
        progress?.update(`fetching ${spec.noun}: ${result.items} so far (page ${result.pages})`);
      },
      onStop: async (paging, error) => {
        progress?.stop();
        result.requests = paging.requests;
        if (isClosedPipe(error, opts)) return;
        track(paging);
        if (writer) await stopEarly(writer, spec, result, opts, ctx);
      },
    });
    writer ??= await startWriter(spec, opts, target, ctx);
    await writer.end(spec.summary(result.last, result.next));
  } catch (error) {
    // `| head` closed the pipe: the reader has what it wanted, which is not a failure.
    if (isClosedPipe(error, opts)) return result;
    throw error;
  } finally {
    progress?.stop();
    await target.close();
    ctx.debug(`analytics requests used: ${result.requests} (the organization shares 100 an hour)`);
  }
  if (opts.format === 'table' && result.last && spec.totals) ctx.reporter.info(spec.totals(result.last));
  if (opts.format !== 'json') ctx.reporter.info(footer(spec, result, opts));
  else if (opts.all) ctx.reporter.info(requestsUsed(result.requests));
  return result;
}

function isClosedPipe(error: unknown, opts: AnalyticsListOptions): boolean {
  return opts.output === undefined && (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
}

async function startWriter<Page extends object, Item>(spec: ListSpec<Page, Item>, opts: AnalyticsListOptions, target: OutputTarget, ctx: Context): Promise<PageWriter<Item, object>> {
  const stream = await target.open();
  const writer = await createWriter(spec, opts, stream, ctx);
  await writer.begin();
  return writer;
}

async function createWriter<Page extends object, Item>(spec: ListSpec<Page, Item>, opts: AnalyticsListOptions, stream: NodeJS.WritableStream, ctx: Context): Promise<PageWriter<Item, object>> {
  switch (opts.format) {
    case 'csv':
      return (await import('../../output/csv.js')).csvWriter(stream, { raw: opts.csvRaw, header: opts.header }, spec.columns);
    case 'ndjson':
      return (await import('../../output/ndjson.js')).ndjsonWriter<Item>(stream);
    case 'json':
      return (await import('../../output/json.js')).jsonWriter<Item, object>(stream, String(spec.itemsKey));
    case 'table': {
      const terminal = opts.output === undefined && ctx.io.stdoutIsTTY;
      return (await import('../../output/table.js')).tableWriter(stream, { terminal, columns: ctx.io.columns, color: ctx.mode.color, header: opts.header }, spec.columns);
    }
  }
}

async function stopEarly<Page extends object, Item>(writer: PageWriter<Item, object>, spec: ListSpec<Page, Item>, result: ListResult & { last: Page | undefined }, opts: AnalyticsListOptions, ctx: Context): Promise<void> {
  await writer.end(spec.summary(result.last, result.next)).catch(() => undefined);
  if (result.next === null) return;
  const where = opts.output === undefined ? '' : ` to ${opts.output}`;
  const pages = `${result.pages} ${result.pages === 1 ? 'page' : 'pages'}`;
  ctx.reporter.warn(
    `stopped after ${result.items} ${spec.noun} (${pages}, ${result.requests} analytics ${result.requests === 1 ? 'request' : 'requests'}); what was written${where} ends with a whole row.\n` +
      `To carry on from the next row (${resumeNote(opts)}), run:\n  ${listResumeCommand(spec.command, opts, ctx.globals, result.next)}`,
  );
}

function requestsUsed(requests: number): string {
  return `${requests} analytics ${requests === 1 ? 'request' : 'requests'} used (the organization shares 100 an hour)`;
}

/** The stderr line after the data: what was written, the requests it cost, and how to get more. */
export function footer<Page extends object, Item>(spec: ListSpec<Page, Item>, result: ListResult, opts: AnalyticsListOptions): string {
  const verb = opts.output === undefined ? 'Showing' : 'Wrote';
  const into = opts.output === undefined ? '' : ` to ${opts.output}`;
  const used = requestsUsed(result.requests);
  if (result.next !== null) {
    const more = result.next.offset !== undefined ? ['--offset', String(result.next.offset)] : ['--cursor', result.next.cursor ?? ''];
    return `${verb} ${result.items} ${spec.noun}${into}; ${used}; more: ${shellCommand(more)} (or --all)`;
  }
  return `${verb} ${result.items} ${spec.noun}${into}, the last of the range; ${used}`;
}
