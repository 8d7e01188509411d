// The default format. On a terminal: a drawn table (cli-table3) fitted to the terminal's width, long
// cells cut with "…". In a pipe: tab-separated rows under a header line with full values, one row a
// line (tabs, newlines and backslashes inside values escaped), so `cut -f1` and `awk -F'\t'` work.
import type { SearchTerm } from '../api/types.js';
import { escapeCell, SEARCH_COLUMNS } from './cells.js';
import { writeChunk, type Columns, type PageWriter } from './writer.js';

export interface TableOptions {
  /** True: draw a table; false: tab-separated rows. */
  terminal: boolean;
  /** Terminal width (drawn tables); 80 when unknown. */
  columns: number | undefined;
  color: boolean;
  /** Header line of the tab-separated form (off with --no-header). */
  header: boolean;
}

export function tableWriter(stream: NodeJS.WritableStream, opts: TableOptions): PageWriter<SearchTerm, object>;
export function tableWriter<Item>(stream: NodeJS.WritableStream, opts: TableOptions, columns: Columns<Item>): PageWriter<Item, object>;
export function tableWriter<Item>(stream: NodeJS.WritableStream, opts: TableOptions, columns = SEARCH_COLUMNS as unknown as Columns<Item>): PageWriter<Item, object> {
  return opts.terminal ? drawnTableWriter(stream, opts, columns) : tsvWriter(stream, opts.header, columns);
}

function tsvWriter<Item>(stream: NodeJS.WritableStream, header: boolean, columns: Columns<Item>): PageWriter<Item, object> {
  const line = (cells: readonly string[]) => `${cells.map((c) => escapeCell(c, { backslash: true })).join('\t')}\n`;
  return {
    begin: () => (header ? writeChunk(stream, line(columns.tableHeader)) : Promise.resolve()),
    writePage: (items) => writeChunk(stream, items.map((s) => line(columns.tableCells(s))).join('')),
    end: async () => undefined,
  };
}

type TableModule = typeof import('cli-table3');

/**
 * One drawn table a page, all with the column widths fitted to the first page, so an `--all` run on
 * a terminal reads as one long table; only the first carries the header.
 */
function drawnTableWriter<Item>(stream: NodeJS.WritableStream, opts: TableOptions, columns: Columns<Item>): PageWriter<Item, object> {
  let Table: TableModule | undefined;
  let widths: number[] | undefined;
  let pages = 0;
  return {
    async begin() {
      ({ default: Table } = await import('cli-table3'));
    },
    async writePage(items) {
      if (!Table) throw new Error('tableWriter: begin() was not called');
      if (items.length === 0 && pages > 0) return;
      const rows = items.map((s) => columns.tableCells(s).map((c) => escapeCell(c, { backslash: false })));
      widths ??= fitColumns([[...columns.tableHeader], ...rows], opts.columns ?? 80, columns.flexible);
      const table = new Table({
        ...(pages++ === 0 ? { head: [...columns.tableHeader] } : {}),
        colWidths: widths,
        colAligns: [...columns.align],
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

const PADDING = 2;
const MIN_FLEXIBLE = 10;

/**
 * Widths (padding included, as cli-table3 counts them) that fit `columns` terminal cells: each column
 * as wide as its longest cell, and when that is too wide, the `flexible` columns (long text: a query,
 * a page, a comment) share the rest: a column that needs less than an even share keeps its width,
 * and the others split what it leaves.
 */
export function fitColumns(rows: readonly string[][], columns: number, flexible: readonly number[] = [0, 3]): number[] {
  const header = rows[0] ?? [];
  const natural = header.map((_, i) => Math.max(...rows.map((r) => displayWidth(r[i] ?? ''))) + PADDING);
  const borders = header.length + 1;
  const total = natural.reduce((a, b) => a + b, 0) + borders;
  if (total <= columns || flexible.length === 0) return natural;
  const fixed = natural.reduce((sum, w, i) => (flexible.includes(i) ? sum : sum + w), 0);
  let room = Math.max(flexible.length * MIN_FLEXIBLE, columns - borders - fixed);
  const widths = [...natural];
  let rest = [...flexible].sort((a, b) => a - b);
  for (;;) {
    const share = Math.floor(room / rest.length);
    const fitting = rest.filter((c) => natural[c]! <= share);
    if (fitting.length === 0) break;
    for (const c of fitting) room -= natural[c]!;
    if (fitting.length === rest.length) return widths;
    rest = rest.filter((c) => !fitting.includes(c));
  }
  // An even split of what is left; the odd cells go to the later columns.
  const share = Math.floor(room / rest.length);
  const extra = room - share * rest.length;
  rest.forEach((c, k) => (widths[c] = share + (k >= rest.length - extra ? 1 : 0)));
  return widths;
}

/** Terminal cells a string takes: wide (East Asian, emoji) characters count two. */
function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}/u.test(ch) ? 2 : 1;
  return width;
}
