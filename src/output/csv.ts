// CSV for spreadsheets: RFC 4180 quoting and CRLF line ends (as RFC 4180 says; Excel, LibreOffice,
// pandas and csvkit all read them), UTF-8 without a BOM. csv-stringify does the quoting and, unless
// --csv-raw, neutralises cells a spreadsheet would run as a formula (=, +, -, @, tab, CR, and their
// full-width forms) with a leading "'". Numbers are left alone: a hit count or CTR is never a formula.
//
// A CSV printed in a CI log is read by the Actions runner, which runs a line opening with `::` or
// holding `##[` as a workflow command (src/terminal-text.ts). A cell that opens with `::` is quoted,
// which changes nothing of its value; unless --csv-raw, a later line of a multi-line cell that
// opens with `::` gets a leading "'" and `##[` becomes `##'[`, as on a terminal.
import type { SearchTerm } from '../api/types.js';
import { controlsVisible, withoutWorkflowCommands } from '../terminal-text.js';
import { SEARCH_COLUMNS } from './cells.js';
import { writeChunk, type Columns, type PageWriter } from './writer.js';

export const CSV_COLUMNS = SEARCH_COLUMNS.csvHeader;

export interface CsvOptions {
  /** Keep formula-like cells as they are (--csv-raw). */
  raw: boolean;
  /** Write the header line (off with --no-header, to append a resumed export). */
  header: boolean;
  /**
   * Printed on a terminal (stdout, no -o): control characters in cells are shown in caret notation
   * (ESC as `^[`), as every other text a person reads, so text the public typed (a search term)
   * cannot retitle the window, write the clipboard (OSC 52) or rewrite the screen. A file or a pipe
   * gets the cells as they are.
   */
  terminal?: boolean;
}

type Stringify = typeof import('csv-stringify/sync').stringify;

export function csvWriter(stream: NodeJS.WritableStream, opts: CsvOptions): PageWriter<SearchTerm, object>;
export function csvWriter<Item>(
  stream: NodeJS.WritableStream,
  opts: CsvOptions,
  columns: Columns<Item>,
): PageWriter<Item, object>;

export function csvWriter<Item>(
  stream: NodeJS.WritableStream,
  opts: CsvOptions,
  columns: Columns<Item> = SEARCH_COLUMNS as Columns<never>,
): PageWriter<Item, object> {
  let stringify: Stringify | undefined;
  const settings = {
    record_delimiter: 'windows',
    // With an explicit record delimiter csv-stringify only quotes a cell holding "\r\n"; a lone
    // "\n" or "\r" inside a term must be quoted too or it would split the row.
    quote_record_delimiter: true,
    escape_formulas: !opts.raw,
    quoted_match: FIRST_LINE_COMMAND,
    bom: false,
  } as const;
  const shown = (cells: unknown[]) =>
    opts.terminal ? cells.map((c) => (typeof c === 'string' ? controlsVisible(c) : c)) : cells;
  const record = (item: Item) => shown(opts.raw ? columns.csvRecord(item) : columns.csvRecord(item).map(guardCell));
  return {
    async begin() {
      // Loaded here, not at the top: --help and the other formats never pay for it.
      ({ stringify } = await import('csv-stringify/sync'));
      if (opts.header) await writeChunk(stream, stringify([[...columns.csvHeader]], settings));
    },
    async writePage(items) {
      if (!stringify) throw new Error('csvWriter: begin() was not called');
      await writeChunk(stream, stringify(items.map(record), settings));
    },
    end: async () => undefined,
  };
}

/** A cell that opens with `::` (past whitespace): quoted, so its line opens with `"`. */
export const FIRST_LINE_COMMAND = /^\s*::/;

/** The later lines of a cell and its `##[`, made harmless to the Actions runner (see the top). */
export function guardCell<Cell>(cell: Cell): Cell {
  return (typeof cell === 'string' ? withoutWorkflowCommands(cell, { firstLine: false }) : cell) as Cell;
}
