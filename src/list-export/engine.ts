// The one list export: `searches list` and every analytics list (feedback, conversations, views,
// visitors, feedback by page) walk their pages through the paged-export engine and hand each page to
// the streaming writer of the chosen format, with the list's columns. What it adds to the paging is
// the same for every list: on an early stop (429, Ctrl-C, a paging fault, a full disk) what was
// written ends with a whole row and the outcome says where the next unwritten page starts; a pipe
// closed by its reader (`| head`) ends the export quietly. The words a person reads (progress, the
// footer, the command that carries on) are the face's: src/cli/commands/list-run.ts.
import type { ApiClient } from '../api/client.js';
import type { AnalyticsQuery } from '../api/types.js';
import type { OutputTarget } from '../output/target.js';
import { type Columns, diskProblem, type PageWriter } from '../output/writer.js';
import type { PagedEndpoint, PagePosition, PagingProgress, PagingStyle } from '../paging/engine.js';
import { ListOutputError } from './errors.js';
import type { ListExportOptions, ListResult } from './options.js';
import { startWriter, type WriterTerminal } from './writers.js';

export type { ListResult } from './options.js';

export interface ListSpec<Page extends object, Item> {
  /** Items in the paging engine's messages: "feedback entries". */
  noun: string;
  /** Items as a full disk's message counts them ("it holds the 100 <this> written before"); default: noun. */
  counted?: string;
  style: PagingStyle;
  itemsKey: PagedEndpoint<Page, Item>['itemsKey'];
  itemsAtMost?: PagedEndpoint<Page, Item>['itemsAtMost'];
  columns: Columns<Item>;
  fetch(api: ApiClient, projectId: string, query: AnalyticsQuery): Promise<Page>;
  /** The JSON document's fields after the items: the last page's summary and where to resume. */
  summary(last: Page | undefined, next: PagePosition | null): Record<string, unknown>;
  /** Only one page exists (feedback by page): no --all loop, no "more" hint. */
  singlePage?: boolean;
}

/** What the list export is handed by the face that runs it. */
export interface ListExportDeps<Page extends object> {
  api: ApiClient;
  projectId: string;
  /** Where the data goes (stdout, or the -o file: output/target.ts); opened on the first page, closed at the end. */
  target: OutputTarget;
  /** What the writers need to know of the terminal the data may go to. */
  terminal: WriterTerminal;
  /** Told after each page is written (a face's progress line). */
  onPage?(result: ListResult<Page>): void;
}

/**
 * How the export ended: every page asked for was written (`done`), the reader of stdout left
 * (`reader-gone`: not a failure), or it stopped early (`stopped`): what was written ends with a whole
 * row, `resumable` says whether `next` is a place to carry on from, and `error` is what stopped it
 * (a ListOutputError when the file could take no more).
 */
export type ListEnd = { how: 'done' } | { how: 'reader-gone' } | { how: 'stopped'; error: unknown; resumable: boolean };

export interface ListOutcome<Page extends object> {
  result: ListResult<Page>;
  end: ListEnd;
}

export async function exportList<Page extends object, Item>(
  spec: ListSpec<Page, Item>,
  opts: ListExportOptions,
  deps: ListExportDeps<Page>,
): Promise<ListOutcome<Page>> {
  const { api, projectId, target } = deps;
  const { pageThrough } = await import('../paging/engine.js');
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
  let resumable = false;
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
        writer ??= await startWriter(writerSpec, opts, target, deps.terminal);
        await writer.writePage(items);
        result.last = page;
        track(paging);
        deps.onPage?.(result);
      },
      // Rows already written stay; close the JSON document so it is whole.
      onStop: async (paging, error) => {
        result.requests = paging.requests;
        if (isClosedPipe(error, opts)) return;
        track(paging);
        if (writer) {
          await writer.end(spec.summary(result.last, result.next)).catch(() => undefined);
          resumable = hasNext(result.next);
        }
        // The disk filled (or failed): the file was cut back to its last whole row (output/target.ts).
        const problem = opts.output === undefined ? undefined : diskProblem(error);
        if (problem) throw diskProblemError(problem, spec.counted ?? spec.noun, result, opts, error);
      },
    });
    writer ??= await startWriter(writerSpec, opts, target, deps.terminal);
    await writer.end(spec.summary(result.last, result.next));
  } catch (error) {
    // `| head` closed the pipe: the reader has what it wanted, which is not a failure.
    if (isClosedPipe(error, opts)) return { result, end: { how: 'reader-gone' } };
    return { result, end: { how: 'stopped', error, resumable } };
  } finally {
    await target.close();
  }
  return { result, end: { how: 'done' } };
}

/**
 * A place to carry on from: not after the last page, and not before the first page was written (the
 * command itself is then the way to carry on).
 */
function hasNext(next: PagePosition | null): boolean {
  return next !== null && (next.cursor !== undefined || next.offset !== undefined);
}

function isClosedPipe(error: unknown, opts: ListExportOptions): boolean {
  return opts.output === undefined && (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
}

function diskProblemError<Page extends object>(
  problem: string,
  counted: string,
  result: ListResult<Page>,
  opts: ListExportOptions,
  cause: unknown,
): ListOutputError {
  const next = result.pages > 0 && result.next !== null ? 'carry on with the command above' : 'run the command again';
  return new ListOutputError(
    `${problem} while writing ${opts.output}: it holds the ${result.items} ${counted} written before, ending with a whole row; free some space, then ${next}`,
    opts.output ?? '',
    result.items,
    problem,
    cause,
  );
}
