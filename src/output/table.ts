// The default format. On a terminal: a drawn table (cli-table3) fitted to the terminal's width, long
// cells cut with "…". In a pipe: tab-separated rows under a header line with full values, one row a
// line (tabs, newlines and backslashes inside values escaped), so `cut -f1` and `awk -F'\t'` work.
import type { SearchTerm } from '../api/types.js';
import { escapeCell, TABLE_HEADER, tableCells } from './cells.js';
import { writeChunk, type SearchesWriter } from './writer.js';

export interface TableOptions {
  /** True: draw a table; false: tab-separated rows. */
  terminal: boolean;
  /** Terminal width (drawn tables); 80 when unknown. */
  columns: number | undefined;
  color: boolean;
  /** Header line of the tab-separated form (off with --no-header). */
  header: boolean;
}

export function tableWriter(stream: NodeJS.WritableStream, opts: TableOptions): SearchesWriter {
  return opts.terminal ? drawnTableWriter(stream, opts) : tsvWriter(stream, opts.header);
}

function tsvWriter(stream: NodeJS.WritableStream, header: boolean): SearchesWriter {
  const line = (cells: readonly string[]) => `${cells.map((c) => escapeCell(c, { backslash: true })).join('\t')}\n`;
  return {
    begin: () => (header ? writeChunk(stream, line(TABLE_HEADER)) : Promise.resolve()),
    writePage: (searches) => writeChunk(stream, searches.map((s) => line(tableCells(s))).join('')),
    end: async () => undefined,
  };
}

type TableModule = typeof import('cli-table3');

/**
 * One drawn table a page, all with the column widths fitted to the first page, so an `--all` run on
 * a terminal reads as one long table; only the first carries the header.
 */
function drawnTableWriter(stream: NodeJS.WritableStream, opts: TableOptions): SearchesWriter {
  let Table: TableModule | undefined;
  let widths: number[] | undefined;
  let pages = 0;
  return {
    async begin() {
      ({ default: Table } = await import('cli-table3'));
    },
    async writePage(searches) {
      if (!Table) throw new Error('tableWriter: begin() was not called');
      if (searches.length === 0 && pages > 0) return;
      const rows = searches.map((s) => tableCells(s).map((c) => escapeCell(c, { backslash: false })));
      widths ??= fitColumns([[...TABLE_HEADER], ...rows], opts.columns ?? 80);
      const table = new Table({
        ...(pages++ === 0 ? { head: [...TABLE_HEADER] } : {}),
        colWidths: widths,
        colAligns: ['left', 'right', 'right', 'left', 'left'],
        wordWrap: false,
        truncate: '…',
        style: { compact: true, head: opts.color ? ['bold'] : [], border: [] },
      });
      table.push(...rows);
      await writeChunk(stream, `${table.toString()}\n`);
    },
    end: async () => undefined,
  };
}

/** Columns whose content is short and fixed-width; query and page share what is left. */
const FLEXIBLE = [0, 3];
const PADDING = 2;
const MIN_FLEXIBLE = 10;

/**
 * Widths (padding included, as cli-table3 counts them) that fit `columns` terminal cells: each column
 * as wide as its longest cell, and when that is too wide, the query and page columns share the rest:
 * a column that needs less than half keeps its width, the other gets what is left.
 */
export function fitColumns(rows: readonly string[][], columns: number): number[] {
  const natural = TABLE_HEADER.map((_, i) => Math.max(...rows.map((r) => displayWidth(r[i] ?? ''))) + PADDING);
  const borders = TABLE_HEADER.length + 1;
  const total = natural.reduce((a, b) => a + b, 0) + borders;
  if (total <= columns) return natural;
  const fixed = natural.reduce((sum, w, i) => (FLEXIBLE.includes(i) ? sum : sum + w), 0);
  const room = Math.max(2 * MIN_FLEXIBLE, columns - borders - fixed);
  const [query, page] = [natural[0]!, natural[3]!];
  const half = Math.floor(room / 2);
  const [q, p] = query <= half ? [query, room - query] : page <= half ? [room - page, page] : [half, room - half];
  return [q, natural[1]!, natural[2]!, p, natural[4]!];
}

/** Terminal cells a string takes: wide (East Asian, emoji) characters count two. */
function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}/u.test(ch) ? 2 : 1;
  return width;
}
