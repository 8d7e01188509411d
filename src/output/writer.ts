// What every search-term writer shares: one call per page, so a page's rows reach the stream in a
// single write (an interrupted export never ends in half a row), and backpressure is respected, so
// memory holds at most one page however many terms an export has.
import type { SearchTerm } from '../api/types.js';

export interface PageSummary {
  /** Sum of hits over the whole date range (the API's totalSearches). */
  totalSearches: number;
  /** Where the next page starts; null when every term has been written. */
  nextCursor: string | null;
}

export interface PageWriter<Item, Summary extends object = Record<string, unknown>> {
  /** Whatever goes before the first row (a header); called once, even for an empty result. */
  begin(): Promise<void>;
  writePage(items: readonly Item[]): Promise<void>;
  /** Closes the document; also called when an export stops early, with where to resume. */
  end(summary: Summary): Promise<void>;
}

export type SearchesWriter = PageWriter<SearchTerm, PageSummary>;

/** A CSV cell before quoting: null is an empty cell. */
export type CsvCell = string | number | boolean | null;

/**
 * How one endpoint's items become rows: the CSV header and cells (API field names, raw values), the
 * table header and cells (for people), which table columns are numbers (right-aligned) and which
 * hold long text that shares what is left of a narrow terminal. Declared once per endpoint; every
 * writer reads the same declaration.
 */
export interface Columns<Item> {
  csvHeader: readonly string[];
  csvRecord(item: Item): CsvCell[];
  tableHeader: readonly string[];
  tableCells(item: Item): string[];
  align: ReadonlyArray<'left' | 'right'>;
  flexible: readonly number[];
  /** Table columns holding ISO timestamps, shown as a date when the terminal is narrow. */
  dates?: readonly number[];
  /** Table columns that go, first to last, when a terminal is too narrow for the rest. */
  dropOrder?: readonly number[];
}

/**
 * Writes one chunk and resolves once the stream has handed it on (its write callback), so at most
 * one page is ever buffered however fast pages arrive; rejects if the write fails (a full disk, a
 * closed pipe) so the loop stops fetching pages nobody can read. The stream's owner keeps an
 * 'error' listener on it: Node emits the error there too, and unheard it would crash the process.
 */
export function writeChunk(stream: NodeJS.WritableStream, chunk: string): Promise<void> {
  if (chunk === '') return Promise.resolve();
  return new Promise((resolve, reject) => {
    stream.write(chunk, (error?: Error | null) => {
      const failed = error ?? takeWriteFailure(stream);
      if (failed) reject(failed);
      else resolve();
    });
  });
}

/**
 * Where a file stream that cuts a failed write back (target.ts) leaves the failure: the stream
 * itself stays usable, so that the writer can still close the document.
 */
export const WRITE_FAILURE = Symbol('writeFailure');

function takeWriteFailure(stream: NodeJS.WritableStream): Error | undefined {
  const holder = stream as { [WRITE_FAILURE]?: Error | undefined };
  const failure = holder[WRITE_FAILURE];
  holder[WRITE_FAILURE] = undefined;
  return failure;
}

/** A write to the -o file failed for a reason of the disk (not of the data): full, quota, too big, I/O. */
export function diskProblem(error: unknown): string | undefined {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'ENOSPC':
      return 'disk full';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EFBIG':
      return 'file too large for the filesystem';
    case 'EIO':
      return 'I/O error';
    default:
      return undefined;
  }
}
