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
 * One drawn table a page, all with the layout fitted to the first page, so an `--all` run on a
 * terminal reads as one long table; only the first carries the header.
 */
function drawnTableWriter(stream: NodeJS.WritableStream, opts: TableOptions): SearchesWriter {
  let Table: TableModule | undefined;
  let layout: TableLayout | undefined;
  let pages = 0;
  return {
    async begin() {
      ({ default: Table } = await import('cli-table3'));
    },
    async writePage(searches) {
      if (!Table) throw new Error('tableWriter: begin() was not called');
      if (searches.length === 0 && pages > 0) return;
      const rows = searches.map((s) => tableCells(s).map((c) => escapeCell(c, { backslash: false })));
      layout ??= fitColumns([[...TABLE_HEADER], ...rows], opts.columns ?? 80);
      const shown = layout.shown;
      const pick = (row: readonly string[]) => shown.map((i) => (i === TIMESTAMP && layout!.dateOnly ? dateOf(row[i] ?? '') : (row[i] ?? '')));
      const table = new Table({
        ...(pages++ === 0 ? { head: pick(TABLE_HEADER) } : {}),
        colWidths: layout.widths,
        colAligns: shown.map((i) => (i === 1 || i === 2 ? 'right' : 'left')),
        wordWrap: false,
        truncate: '…',
        style: { compact: true, head: opts.color ? ['bold'] : [], border: [] },
      });
      table.push(...rows.map(pick));
      await writeChunk(stream, `${table.toString()}\n`);
    },
    end: async () => undefined,
  };
}

const QUERY = 0;
const PAGE = 3;
const TIMESTAMP = 4;
const PADDING = 2;
/** The narrowest a query or page column gets (padding included): a few characters and the "…". */
const MIN_FLEXIBLE = 10;
/** Before a timestamp is shortened or dropped, the query gets at least this much (or all it needs). */
const QUERY_COMFORT = 30;

export interface TableLayout {
  /** Which columns (indexes into TABLE_HEADER) are drawn, in order. */
  shown: number[];
  /** Their widths, padding included, as cli-table3 counts them. */
  widths: number[];
  /** Timestamps shown as their date (YYYY-MM-DD) only. */
  dateOnly: boolean;
}

/**
 * A layout that fits `columns` terminal cells without wrapping a row. Columns give way by priority:
 * the page column shrinks first, then the timestamp shortens to a date, then it goes, then the page
 * column goes; the query keeps the most room throughout. Below ~40 columns, cells are cut shorter still.
 */
export function fitColumns(rows: readonly string[][], columns: number): TableLayout {
  const natural = (i: number, dateOnly = false) =>
    Math.max(...rows.map((r, n) => displayWidth(dateOnly && n > 0 ? dateOf(r[i] ?? '') : (r[i] ?? '')))) + PADDING;
  const candidates: Array<{ timestamp: 'full' | 'date' | 'none'; page: boolean }> = [
    { timestamp: 'full', page: true },
    { timestamp: 'date', page: true },
    { timestamp: 'none', page: true },
    { timestamp: 'none', page: false },
  ];
  const q = natural(QUERY);
  const p = natural(PAGE);
  for (const [n, c] of candidates.entries()) {
    const shown = [QUERY, 1, 2, ...(c.page ? [PAGE] : []), ...(c.timestamp === 'none' ? [] : [TIMESTAMP])];
    const fixedWidths = new Map<number, number>([[1, natural(1)], [2, natural(2)]]);
    if (c.timestamp !== 'none') fixedWidths.set(TIMESTAMP, natural(TIMESTAMP, c.timestamp === 'date'));
    const fixed = [...fixedWidths.values()].reduce((a, b) => a + b, 0);
    const room = columns - (shown.length + 1) - fixed;
    const pageMin = c.page ? Math.min(p, MIN_FLEXIBLE) : 0;
    const last = n === candidates.length - 1;
    if (!last && room < Math.min(q, QUERY_COMFORT) + pageMin) continue;
    // The query takes what it needs, up to two thirds of the room when the page wants more; the page the rest.
    let query = Math.max(Math.min(q, MIN_FLEXIBLE), c.page ? Math.min(q, Math.max(room - p, Math.ceil((room * 2) / 3))) : Math.min(q, room));
    const page = c.page ? Math.max(pageMin, Math.min(p, room - query)) : 0;
    if (c.page) query = Math.max(Math.min(q, MIN_FLEXIBLE), Math.min(q, room - page));
    const widths = shown.map((i) => (i === QUERY ? query : i === PAGE ? page : fixedWidths.get(i)!));
    return { shown, widths, dateOnly: c.timestamp === 'date' };
  }
  throw new Error('unreachable: the last layout is always taken');
}

/** `2026-11-20T10:11:12.000Z` -> `2026-11-20`; anything else as it is. */
function dateOf(timestamp: string): string {
  return /^\d{4}-\d{2}-\d{2}T/.test(timestamp) ? timestamp.slice(0, 10) : timestamp;
}

/** Terminal cells a string takes: wide (East Asian, emoji) characters count two. */
function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}/u.test(ch) ? 2 : 1;
  return width;
}
