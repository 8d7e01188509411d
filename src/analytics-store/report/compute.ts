// The report's numbers, from the local database alone (no API request): this period against the one
// before, each part one SQL query over the tables of schema.ts. Aggregate tables hold one row per
// day and key, so a period is the rows whose `date` lies in it; conversations carry the day of their
// own timestamp as `date`. Where the sync read a period whole at once (a complete window of a range
// table: the API's aggregate over the whole week or month), that period's numbers come from those rows
// alone and its day rows are left out, so no day is counted twice.
import type { DuckDBConnection } from '@duckdb/node-api';
import { reportPeriods, type DateRange, type PeriodKind } from './period.js';
import { bounded } from './text.js';
import { REPORT_LIMITS, type Change, type Report, type TrafficTrend } from './types.js';

type Row = Record<string, unknown>;

/** `of`: the instant whose period to report (`--of`); default the last complete period before `now`. */
export async function computeReport(
  connection: DuckDBConnection,
  kind: PeriodKind,
  now: Date,
  of?: number,
): Promise<Report> {
  const { current, previous } = reportPeriods(kind, now, of);
  const read = async (sql: string): Promise<Row[]> => {
    const params = { cf: current.from, ct: current.to, pf: previous.from, pt: previous.to };
    return (await connection.runAndReadAll(sql, params)).getRowObjectsJS() as Row[];
  };
  // One after the other: a DuckDB connection runs one query at a time.
  const coverage = await readCoverage(connection, current, previous);
  const rows = (table: SummedTable) => rowsOf(table, coverage);
  const searchTotals = await read(totalsOf(rows('searches'), 'hits'));
  const rising = await read(searchChanges(rows('searches'), 'rising'));
  const falling = await read(searchChanges(rows('searches'), 'falling'));
  const zeroClick = await read(NEW_ZERO_CLICK(rows('searches')));
  const unansweredTotals = await read(UNANSWERED_TOTALS);
  const categories = await read(UNANSWERED_BY_CATEGORY);
  const pages = await read(THUMBS_DOWN(rows('feedback_by_page')));
  const views = await read(TRAFFIC(rows('views')));
  const visitors = await read(TRAFFIC(rows('visitors')));
  const partial = REPORTED_TABLES.map((table) => ({
    table,
    current: coverage.days[table].current,
    previous: coverage.days[table].previous,
  })).filter((t) => t.current < daysIn(current) || t.previous < daysIn(previous));
  const changes = (rows: Row[]) =>
    rows.map((r) => ({
      query: bounded(text(r.q)),
      current: num(r.c),
      previous: num(r.p),
      change: num(r.c) - num(r.p),
    }));
  return {
    period: kind,
    current,
    previous,
    daysSynced: {
      current: Math.min(...partial.map((t) => t.current), daysIn(current)),
      previous: Math.min(...partial.map((t) => t.previous), daysIn(previous)),
      ofDays: { current: daysIn(current), previous: daysIn(previous) },
      partial,
    },
    visitorsCounted: {
      current: coverage.whole.visitors.current ? 'period' : 'day',
      previous: coverage.whole.visitors.previous ? 'period' : 'day',
    },
    searches: {
      total: change(searchTotals[0]?.c, searchTotals[0]?.p),
      rising: changes(rising),
      falling: changes(falling),
      newZeroClick: zeroClick.map((r) => ({ query: bounded(text(r.q)), hits: num(r.hits) })),
    },
    unanswered: {
      total: change(unansweredTotals[0]?.c, unansweredTotals[0]?.p),
      byCategory: categories.map((r) => ({
        category: r.category === null ? UNCATEGORISED : bounded(text(r.category)),
        current: num(r.c),
        previous: num(r.p),
        examples: ((r.examples as unknown[] | null) ?? []).map((q) => bounded(text(q))),
      })),
    },
    thumbsDown: pages.map((r) => ({ path: bounded(text(r.path), 200), current: num(r.c), previous: num(r.p) })),
    views: trend(views[0]),
    visitors: trend(visitors[0]),
  };
}

export const UNCATEGORISED = '(uncategorised)';

/** A row's period as a condition on its `date` ($cf..$ct this period, $pf..$pt the one before; ends exclusive). */
const IN_CURRENT = `date >= CAST($cf AS DATE) AND date < CAST($ct AS DATE)`;
const IN_PREVIOUS = `date >= CAST($pf AS DATE) AND date < CAST($pt AS DATE)`;
const IN_EITHER = `date >= CAST($pf AS DATE) AND date < CAST($ct AS DATE)`;

type SummedTable = (typeof SUMMED_TABLES)[number];
/** The aggregate tables the report sums, each with its range table (schema.ts RANGE_TABLES). */
const SUMMED_TABLES = ['searches', 'views', 'visitors', 'feedback_by_page'] as const;
/** Every table the report reads, in the order a partial one is named. */
const REPORTED_TABLES = [...SUMMED_TABLES, 'conversations'] as const;
type Coverage = {
  /** Days of each period read whole, per table: rows alone cannot tell a day with no traffic from a day not read yet. */
  days: Record<(typeof REPORTED_TABLES)[number], { current: number; previous: number }>;
  /** Whether the period was read whole at once (a complete range window), per summed table. */
  whole: Record<SummedTable, { current: boolean; previous: boolean }>;
  /** Range tables this database has (one made before them has none until its next sync). */
  rangeTables: Set<string>;
};

/**
 * What the sync read of each period, from sync_state: for an aggregate, the period read whole at once
 * (a complete range window) or the days read whole (complete one-day windows); for conversations, the
 * days its complete windows cover.
 */
async function readCoverage(connection: DuckDBConnection, current: DateRange, previous: DateRange): Promise<Coverage> {
  const all = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJS() as Row[];
  const windows = await all(
    `SELECT stream, strftime(window_from, '%Y-%m-%d') AS f, strftime(window_to, '%Y-%m-%d') AS t, window_to - window_from = INTERVAL 1 DAY AS one_day FROM sync_state WHERE complete`,
  );
  const tables = new Set(
    (
      await all(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'main' AND table_catalog = current_database()`,
      )
    ).map((r) => text(r.name)),
  );
  const periods = { current, previous };
  const coverage = {
    days: {},
    whole: {},
    rangeTables: new Set([...tables].filter((t) => t.endsWith('_by_range'))),
  } as Coverage;
  for (const table of SUMMED_TABLES) {
    const whole = (range: DateRange) =>
      windows.some((w) => w.stream === `${table}_by_range` && w.f === range.from && w.t === range.to);
    const days = (range: DateRange) =>
      new Set(
        windows
          .filter((w) => w.stream === table && w.one_day === true && text(w.f) >= range.from && text(w.f) < range.to)
          .map((w) => w.f),
      ).size;
    coverage.whole[table] = { current: whole(current), previous: whole(previous) };
    coverage.days[table] = {
      current: whole(current) ? daysIn(current) : days(current),
      previous: whole(previous) ? daysIn(previous) : days(previous),
    };
  }
  // An item stream's complete windows follow one another from its first: they cover first..last.
  const items = windows.filter((w) => w.stream === 'conversations');
  const first = items.map((w) => text(w.f)).sort()[0];
  const last = items
    .map((w) => text(w.t))
    .sort()
    .at(-1);
  const covered = (range: DateRange) =>
    first === undefined || last === undefined
      ? 0
      : Math.max(0, Math.round((Date.parse(min(last, range.to)) - Date.parse(max(first, range.from))) / 86_400_000));
  coverage.days.conversations = { current: covered(periods.current), previous: covered(periods.previous) };
  return coverage;
}

const min = (a: string, b: string) => (a < b ? a : b);
const max = (a: string, b: string) => (a > b ? a : b);

/**
 * The rows of `table` the report sums, as a subquery with a `date`: a period read whole at once is its
 * range rows (dated the period's first day), any other period its day rows; never both for a period.
 */
function rowsOf(table: SummedTable, coverage: Coverage): string {
  const range = `${table}_by_range`;
  const whole = coverage.whole[table];
  if (!coverage.rangeTables.has(range) || (!whole.current && !whole.previous)) return table;
  const periods = [
    whole.current ? `(date_from = CAST($cf AS DATE) AND date_to = CAST($ct AS DATE))` : '',
    whole.previous ? `(date_from = CAST($pf AS DATE) AND date_to = CAST($pt AS DATE))` : '',
  ].filter(Boolean);
  const dayRows = [whole.current ? `NOT (${IN_CURRENT})` : '', whole.previous ? `NOT (${IN_PREVIOUS})` : ''].filter(
    Boolean,
  );
  return `(SELECT * FROM ${table} WHERE ${dayRows.join(' AND ')}
    UNION ALL BY NAME
    SELECT * EXCLUDE (date_from, date_to), date_from AS date FROM ${range} WHERE ${periods.join(' OR ')})`;
}

function totalsOf(rows: string, column: string): string {
  return `SELECT coalesce(sum(${column}) FILTER (WHERE ${IN_CURRENT}), 0) AS c, coalesce(sum(${column}) FILTER (WHERE ${IN_PREVIOUS}), 0) AS p FROM ${rows}`;
}

/** The terms whose hits rose (or fell) the most from the period before; a term new this period rises by all its hits. */
function searchChanges(rows: string, direction: 'rising' | 'falling'): string {
  return `
  SELECT search_query AS q,
         coalesce(sum(hits) FILTER (WHERE ${IN_CURRENT}), 0) AS c,
         coalesce(sum(hits) FILTER (WHERE ${IN_PREVIOUS}), 0) AS p
  FROM ${rows} WHERE ${IN_EITHER}
  GROUP BY search_query
  HAVING ${direction === 'rising' ? 'c > p' : 'c < p'}
  ORDER BY c - p ${direction === 'rising' ? 'DESC' : 'ASC'}, search_query LIMIT ${REPORT_LIMITS.searches}`;
}

/**
 * Terms searched this period without a single click (hits x ctr is the day's clicks), which were not
 * a no-click term the period before: searched then with clicks, or not searched at all.
 */
const NEW_ZERO_CLICK = (rows: string) => `
  WITH per AS (
    SELECT search_query AS q,
           sum(hits) FILTER (WHERE ${IN_CURRENT}) AS hits,
           sum(hits * coalesce(ctr, 0)) FILTER (WHERE ${IN_CURRENT}) AS clicks,
           sum(hits) FILTER (WHERE ${IN_PREVIOUS}) AS before_hits,
           sum(hits * coalesce(ctr, 0)) FILTER (WHERE ${IN_PREVIOUS}) AS before_clicks
    FROM ${rows} WHERE ${IN_EITHER} GROUP BY search_query)
  SELECT q, hits FROM per
  WHERE hits > 0 AND clicks = 0 AND (before_hits IS NULL OR before_hits = 0 OR before_clicks > 0)
  ORDER BY hits DESC, q LIMIT ${REPORT_LIMITS.zeroClick}`;

const UNANSWERED = `resolution_status = 'unanswered'`;

const UNANSWERED_TOTALS = `
  SELECT count(*) FILTER (WHERE ${IN_CURRENT}) AS c, count(*) FILTER (WHERE ${IN_PREVIOUS}) AS p
  FROM conversations WHERE ${UNANSWERED}`;

const UNANSWERED_BY_CATEGORY = `
  SELECT query_category AS category,
         count(*) FILTER (WHERE ${IN_CURRENT}) AS c,
         count(*) FILTER (WHERE ${IN_PREVIOUS}) AS p,
         list(query ORDER BY timestamp DESC, id) FILTER (WHERE ${IN_CURRENT} AND query IS NOT NULL)[1:${REPORT_LIMITS.examples}] AS examples
  FROM conversations WHERE ${UNANSWERED} AND ${IN_EITHER}
  GROUP BY query_category
  HAVING c > 0
  ORDER BY c DESC, category NULLS LAST LIMIT ${REPORT_LIMITS.categories}`;

const THUMBS_DOWN = (rows: string) => `
  SELECT path, coalesce(sum(thumbs_down) FILTER (WHERE ${IN_CURRENT}), 0) AS c, coalesce(sum(thumbs_down) FILTER (WHERE ${IN_PREVIOUS}), 0) AS p
  FROM ${rows} WHERE ${IN_EITHER}
  GROUP BY path HAVING c > 0
  ORDER BY c DESC, path LIMIT ${REPORT_LIMITS.pages}`;

function TRAFFIC(rows: string): string {
  const sums = ['human', 'ai', 'total'].map(
    (k) =>
      `coalesce(sum(${k}) FILTER (WHERE ${IN_CURRENT}), 0) AS ${k}_c, coalesce(sum(${k}) FILTER (WHERE ${IN_PREVIOUS}), 0) AS ${k}_p`,
  );
  return `SELECT ${sums.join(', ')} FROM ${rows} WHERE ${IN_EITHER}`;
}

function trend(row: Row | undefined): TrafficTrend {
  return {
    human: change(row?.human_c, row?.human_p),
    ai: change(row?.ai_c, row?.ai_p),
    total: change(row?.total_c, row?.total_p),
  };
}

function change(currentValue: unknown, previousValue: unknown): Change {
  const current = num(currentValue);
  const previous = num(previousValue);
  return {
    current,
    previous,
    change: current - previous,
    changePercent: previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10,
  };
}

/** DuckDB's counts are BIGINT; sums of the API's numbers DOUBLE. */
function num(value: unknown): number {
  if (typeof value === 'bigint') return Number(value);
  return typeof value === 'number' ? value : 0;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

function daysIn(range: DateRange): number {
  return Math.round((Date.parse(range.to) - Date.parse(range.from)) / 86_400_000);
}
