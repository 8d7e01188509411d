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
export function tableWriter<Item>(
  stream: NodeJS.WritableStream,
  opts: TableOptions,
  columns: Columns<Item>,
): PageWriter<Item, object>;
export function tableWriter<Item>(
  stream: NodeJS.WritableStream,
  opts: TableOptions,
  columns = SEARCH_COLUMNS as unknown as Columns<Item>,
): PageWriter<Item, object> {
  return opts.terminal ? drawnTableWriter(stream, opts, columns) : tsvWriter(stream, opts.header, columns);
}

function tsvWriter<Item>(
  stream: NodeJS.WritableStream,
  header: boolean,
  columns: Columns<Item>,
): PageWriter<Item, object> {
  const line = (cells: readonly string[]) => `${cells.map((c) => escapeCell(c, { backslash: true })).join('\t')}\n`;
  return {
    begin: () => (header ? writeChunk(stream, line(columns.tableHeader)) : Promise.resolve()),
    writePage: (items) => writeChunk(stream, items.map((s) => line(columns.tableCells(s))).join('')),
    end: async () => undefined,
  };
}

type TableModule = typeof import('cli-table3');

/**
 * One drawn table a page, all with the layout fitted to the first page, so an `--all` run on a
 * terminal reads as one long table; only the first carries the header.
 */
function drawnTableWriter<Item>(
  stream: NodeJS.WritableStream,
  opts: TableOptions,
  columns: Columns<Item>,
): PageWriter<Item, object> {
  let Table: TableModule | undefined;
  let layout: TableLayout | undefined;
  let pages = 0;
  return {
    async begin() {
      ({ default: Table } = await import('cli-table3'));
    },
    async writePage(items) {
      if (!Table) throw new Error('tableWriter: begin() was not called');
      if (items.length === 0 && pages > 0) return;
      const rows = items.map((s) => columns.tableCells(s).map((c) => escapeCell(c, { backslash: false })));
      // Search terms have their own priorities (page, then timestamp give way); other lists share the
      // room among their long-text columns.
      const header = [...columns.tableHeader];
      layout ??=
        columns === SEARCH_COLUMNS
          ? fitColumns([header, ...rows], opts.columns ?? 80)
          : fitFlexible([header, ...rows], opts.columns ?? 80, columns);
      const shown = layout.shown;
      const dates = columns === SEARCH_COLUMNS ? [TIMESTAMP] : (columns.dates ?? []);
      const pick = (row: readonly string[]) =>
        shown.map((i) => (dates.includes(i) && layout!.dateOnly ? dateOf(row[i] ?? '') : (row[i] ?? '')));
      // cli-table3 passes all of a table's rows to one call (push.apply): a page of a few hundred
      // thousand rows overflowed the stack. Such a page is drawn as several tables of TABLE_ROWS.
      for (let first = 0; first === 0 || first < rows.length; first += TABLE_ROWS) {
        const table = new Table({
          ...(pages++ === 0 ? { head: pick(header) } : {}),
          colWidths: layout.widths,
          colAligns: shown.map((i) => columns.align[i] ?? 'left'),
          wordWrap: false,
          truncate: '…',
          style: { compact: true, head: opts.color ? ['bold'] : [], border: [] },
        });
        for (const row of rows.slice(first, first + TABLE_ROWS)) table.push(pick(row));
        await writeChunk(stream, `${table.toString()}\n`);
      }
    },
    end: async () => undefined,
  };
}

/** Rows drawn in one cli-table3 table: far below the number of arguments a call can take. */
const TABLE_ROWS = 1000;
const QUERY = 0;
const PAGE = 3;
const TIMESTAMP = 4;
const PADDING = 2;
/** The narrowest a query or page column gets (padding included): a few characters and the "…". */
const MIN_FLEXIBLE = 10;
/** Before a timestamp is shortened or dropped, the query gets at least this much (or all it needs). */
const QUERY_COMFORT = 30;
/** Before other lists shorten or drop a column, each long-text column gets this much (or all it needs). */
const FLEXIBLE_COMFORT = 15;

export interface TableLayout {
  /** Which columns (indexes into the header) are drawn, in order. */
  shown: number[];
  /** Their widths, padding included, as cli-table3 counts them. */
  widths: number[];
  /** Timestamp columns shown as their date (YYYY-MM-DD) only. */
  dateOnly: boolean;
}

/**
 * A layout that fits `columns` terminal cells without wrapping a row. Columns give way by priority:
 * the page column shrinks first, then the timestamp shortens to a date, then it goes, then the page
 * column goes; the query keeps the most room throughout. Below ~40 columns, cells are cut shorter still.
 */
export function fitColumns(rows: readonly string[][], columns: number): TableLayout {
  const natural = (i: number, dateOnly = false) =>
    rows.reduce(
      (widest, r, n) => Math.max(widest, displayWidth(dateOnly && n > 0 ? dateOf(r[i] ?? '') : (r[i] ?? ''))),
      0,
    ) + PADDING;
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
    const fixedWidths = new Map<number, number>([
      [1, natural(1)],
      [2, natural(2)],
    ]);
    if (c.timestamp !== 'none') fixedWidths.set(TIMESTAMP, natural(TIMESTAMP, c.timestamp === 'date'));
    const fixed = [...fixedWidths.values()].reduce((a, b) => a + b, 0);
    const room = columns - (shown.length + 1) - fixed;
    const pageMin = c.page ? Math.min(p, MIN_FLEXIBLE) : 0;
    const last = n === candidates.length - 1;
    if (!last && room < Math.min(q, QUERY_COMFORT) + pageMin) continue;
    // The query takes what it needs, up to two thirds of the room when the page wants more; the page the rest.
    let query = Math.max(
      Math.min(q, MIN_FLEXIBLE),
      c.page ? Math.min(q, Math.max(room - p, Math.ceil((room * 2) / 3))) : Math.min(q, room),
    );
    const page = c.page ? Math.max(pageMin, Math.min(p, room - query)) : 0;
    if (c.page) query = Math.max(Math.min(q, MIN_FLEXIBLE), Math.min(q, room - page));
    const widths = shown.map((i) => (i === QUERY ? query : i === PAGE ? page : fixedWidths.get(i)!));
    return { shown, widths, dateOnly: c.timestamp === 'date' };
  }
  throw new Error('unreachable: the last layout is always taken');
}

/**
 * A layout for any other list, fitted the same way as search terms: every column at its natural
 * width when that fits; else the `flexible` columns (long text: a page, a comment, a question) share
 * what the others leave. When that leaves them less than FLEXIBLE_COMFORT each, timestamps (`dates`)
 * shorten to a date, then the columns in `dropOrder` go one by one, so no row is wider than the
 * terminal (which would wrap it); in the last layout, cells are cut shorter still.
 */
export function fitFlexible(
  rows: readonly string[][],
  columns: number,
  spec: { flexible: readonly number[]; dates?: readonly number[]; dropOrder?: readonly number[] },
): TableLayout {
  const header = rows[0] ?? [];
  const dates = spec.dates ?? [];
  const natural = (i: number, dateOnly: boolean) =>
    rows.reduce(
      (widest, r, n) =>
        Math.max(widest, displayWidth(dateOnly && n > 0 && dates.includes(i) ? dateOf(r[i] ?? '') : (r[i] ?? ''))),
      0,
    ) + PADDING;
  const candidates: Array<{ dateOnly: boolean; dropped: number[] }> = [{ dateOnly: false, dropped: [] }];
  if (dates.length > 0) candidates.push({ dateOnly: true, dropped: [] });
  (spec.dropOrder ?? []).forEach((_, k, order) =>
    candidates.push({ dateOnly: dates.length > 0, dropped: order.slice(0, k + 1) }),
  );
  for (const [n, c] of candidates.entries()) {
    const shown = header.map((_, i) => i).filter((i) => !c.dropped.includes(i));
    const flexible = spec.flexible.filter((i) => shown.includes(i));
    const widths = new Map(shown.map((i) => [i, natural(i, c.dateOnly)]));
    const borders = shown.length + 1;
    const fixed = shown.filter((i) => !flexible.includes(i)).reduce((sum, i) => sum + widths.get(i)!, 0);
    const least = flexible.reduce((sum, i) => sum + Math.min(widths.get(i)!, MIN_FLEXIBLE), 0);
    const comfort = flexible.reduce((sum, i) => sum + Math.min(widths.get(i)!, FLEXIBLE_COMFORT), 0);
    if (n < candidates.length - 1 && fixed + comfort + borders > columns) continue;
    const total = [...widths.values()].reduce((a, b) => a + b, 0) + borders;
    if (total > columns && flexible.length > 0) shareRoom(widths, flexible, Math.max(least, columns - borders - fixed));
    return { shown, widths: shown.map((i) => widths.get(i)!), dateOnly: c.dateOnly };
  }
  throw new Error('unreachable: the last layout is always taken');
}

/**
 * Splits `room` among the flexible columns: a column that needs less than an even share keeps its
 * width and the others split what it leaves; the odd cells go to the later columns.
 */
function shareRoom(widths: Map<number, number>, flexible: readonly number[], room: number): void {
  let rest = [...flexible].sort((a, b) => a - b);
  for (;;) {
    const share = Math.floor(room / rest.length);
    const fitting = rest.filter((c) => widths.get(c)! <= share);
    if (fitting.length === 0) break;
    for (const c of fitting) room -= widths.get(c)!;
    if (fitting.length === rest.length) return;
    rest = rest.filter((c) => !fitting.includes(c));
  }
  const share = Math.floor(room / rest.length);
  const extra = room - share * rest.length;
  rest.forEach((c, k) =>
    widths.set(c, Math.max(Math.min(widths.get(c)!, MIN_FLEXIBLE), share + (k >= rest.length - extra ? 1 : 0))),
  );
}

/** `2026-11-20T10:11:12.000Z` -> `2026-11-20`; anything else as it is. */
function dateOf(timestamp: string): string {
  return /^\d{4}-\d{2}-\d{2}T/.test(timestamp) ? timestamp.slice(0, 10) : timestamp;
}

/** Terminal cells a string takes: wide (East Asian, emoji) characters count two. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text)
    width +=
      /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}/u.test(
        ch,
      )
        ? 2
        : 1;
  return width;
}
