// CSV for spreadsheets: RFC 4180 quoting and CRLF line ends (as RFC 4180 says; Excel, LibreOffice,
// pandas and csvkit all read them), UTF-8 without a BOM. csv-stringify does the quoting and, unless
// --csv-raw, neutralises cells a spreadsheet would run as a formula (=, +, -, @, tab, CR, and their
// full-width forms) with a leading "'". Numbers are left alone: a hit count or CTR is never a formula.
import type { SearchTerm } from '../api/types.js';
import { SEARCH_COLUMNS } from './cells.js';
import { writeChunk, type Columns, type PageWriter } from './writer.js';

export const CSV_COLUMNS = SEARCH_COLUMNS.csvHeader;

export interface CsvOptions {
  /** Keep formula-like cells as they are (--csv-raw). */
  raw: boolean;
  /** Write the header line (off with --no-header, to append a resumed export). */
  header: boolean;
}

type Stringify = typeof import('csv-stringify/sync').stringify;

export function csvWriter(stream: NodeJS.WritableStream, opts: CsvOptions): PageWriter<SearchTerm, object>;
export function csvWriter<Item>(stream: NodeJS.WritableStream, opts: CsvOptions, columns: Columns<Item>): PageWriter<Item, object>;

export function csvWriter<Item>(stream: NodeJS.WritableStream, opts: CsvOptions, columns: Columns<Item> = SEARCH_COLUMNS as Columns<never>): PageWriter<Item, object> {
  let stringify: Stringify | undefined;
  const settings = {
    record_delimiter: 'windows',
    // With an explicit record delimiter csv-stringify only quotes a cell holding "\r\n"; a lone
    // "\n" or "\r" inside a term must be quoted too or it would split the row.
    quote_record_delimiter: true,
    escape_formulas: !opts.raw,
    bom: false,
  } as const;
  return {
    async begin() {
      // Loaded here, not at the top: --help and the other formats never pay for it.
      ({ stringify } = await import('csv-stringify/sync'));
      if (opts.header) await writeChunk(stream, stringify([[...columns.csvHeader]], settings));
    },
    async writePage(items) {
      if (!stringify) throw new Error('csvWriter: begin() was not called');
      await writeChunk(stream, stringify(items.map((item) => columns.csvRecord(item)), settings));
    },
    end: async () => undefined,
  };
}

