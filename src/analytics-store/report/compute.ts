// The report's numbers, from the local database alone (no API request): this period against the one
// before, each part one SQL query over the tables of schema.ts. Aggregate tables hold one row per
// day and key, so a period is the rows whose `date` lies in it; conversations carry the day of their
// own timestamp as `date`.
import type { DuckDBConnection } from '@duckdb/node-api';
import { reportPeriods, type DateRange, type PeriodKind } from './period.js';
import { bounded } from './text.js';
import { REPORT_LIMITS, type Change, type Report, type TrafficTrend } from './types.js';

type Row = Record<string, unknown>;

/** `of`: the instant whose period to report (`--of`); default the last complete period before `now`. */
export async function computeReport(connection: DuckDBConnection, kind: PeriodKind, now: Date, of?: number): Promise<Report> {
  const { current, previous } = reportPeriods(kind, now, of);
  const read = async (sql: string): Promise<Row[]> => {
    const params = { cf: current.from, ct: current.to, pf: previous.from, pt: previous.to };
    return (await connection.runAndReadAll(sql, params)).getRowObjectsJS() as Row[];
  };
  // One after the other: a DuckDB connection runs one query at a time.
  const days = await read(DAYS_SYNCED);
  const searchTotals = await read(totalsOf('searches', 'hits'));
  const rising = await read(searchChanges('rising'));
  const falling = await read(searchChanges('falling'));
  const zeroClick = await read(NEW_ZERO_CLICK);
  const unansweredTotals = await read(UNANSWERED_TOTALS);
  const categories = await read(UNANSWERED_BY_CATEGORY);
  const pages = await read(THUMBS_DOWN);
  const views = await read(TRAFFIC('views'));
  const visitors = await read(TRAFFIC('visitors'));
  const changes = (rows: Row[]) => rows.map((r) => ({ query: bounded(text(r.q)), current: num(r.c), previous: num(r.p), change: num(r.c) - num(r.p) }));
  return {
    period: kind,
    current,
    previous,
    daysSynced: {
      current: num(days[0]?.c),
      previous: num(days[0]?.p),
      ofDays: { current: daysIn(current), previous: daysIn(previous) },
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

/**
 * The days of each period every day table the report sums was read whole for (a complete one-day
 * window in sync_state), fewest over the tables: rows alone cannot tell a day with no traffic from a
 * day not read yet.
 */
const DAYS_SYNCED = `
  SELECT min(c) AS c, min(p) AS p FROM (
    SELECT t.name,
           count(DISTINCT s.date) FILTER (WHERE ${IN_CURRENT}) AS c,
           count(DISTINCT s.date) FILTER (WHERE ${IN_PREVIOUS}) AS p
    FROM (VALUES ('searches'), ('views'), ('visitors'), ('feedback_by_page')) AS t(name)
    LEFT JOIN (SELECT stream, CAST(window_from AS DATE) AS date FROM sync_state
               WHERE complete AND window_to - window_from = INTERVAL 1 DAY) AS s ON s.stream = t.name
    GROUP BY t.name)`;

function totalsOf(table: string, column: string): string {
  return `SELECT coalesce(sum(${column}) FILTER (WHERE ${IN_CURRENT}), 0) AS c, coalesce(sum(${column}) FILTER (WHERE ${IN_PREVIOUS}), 0) AS p FROM ${table}`;
}

/** The terms whose hits rose (or fell) the most from the period before; a term new this period rises by all its hits. */
function searchChanges(direction: 'rising' | 'falling'): string {
  return `
  SELECT search_query AS q,
         coalesce(sum(hits) FILTER (WHERE ${IN_CURRENT}), 0) AS c,
         coalesce(sum(hits) FILTER (WHERE ${IN_PREVIOUS}), 0) AS p
  FROM searches WHERE ${IN_EITHER}
  GROUP BY search_query
  HAVING ${direction === 'rising' ? 'c > p' : 'c < p'}
  ORDER BY c - p ${direction === 'rising' ? 'DESC' : 'ASC'}, search_query LIMIT ${REPORT_LIMITS.searches}`;
}

/**
 * Terms searched this period without a single click (hits x ctr is the day's clicks), which were not
 * a no-click term the period before: searched then with clicks, or not searched at all.
 */
const NEW_ZERO_CLICK = `
  WITH per AS (
    SELECT search_query AS q,
           sum(hits) FILTER (WHERE ${IN_CURRENT}) AS hits,
           sum(hits * coalesce(ctr, 0)) FILTER (WHERE ${IN_CURRENT}) AS clicks,
           sum(hits) FILTER (WHERE ${IN_PREVIOUS}) AS before_hits,
           sum(hits * coalesce(ctr, 0)) FILTER (WHERE ${IN_PREVIOUS}) AS before_clicks
    FROM searches WHERE ${IN_EITHER} GROUP BY search_query)
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

const THUMBS_DOWN = `
  SELECT path, coalesce(sum(thumbs_down) FILTER (WHERE ${IN_CURRENT}), 0) AS c, coalesce(sum(thumbs_down) FILTER (WHERE ${IN_PREVIOUS}), 0) AS p
  FROM feedback_by_page WHERE ${IN_EITHER}
  GROUP BY path HAVING c > 0
  ORDER BY c DESC, path LIMIT ${REPORT_LIMITS.pages}`;

function TRAFFIC(table: 'views' | 'visitors'): string {
  const sums = ['human', 'ai', 'total'].map((k) => `coalesce(sum(${k}) FILTER (WHERE ${IN_CURRENT}), 0) AS ${k}_c, coalesce(sum(${k}) FILTER (WHERE ${IN_PREVIOUS}), 0) AS ${k}_p`);
  return `SELECT ${sums.join(', ')} FROM ${table} WHERE ${IN_EITHER}`;
}

function trend(row: Row | undefined): TrafficTrend {
  return { human: change(row?.human_c, row?.human_p), ai: change(row?.ai_c, row?.ai_p), total: change(row?.total_c, row?.total_p) };
}

function change(currentValue: unknown, previousValue: unknown): Change {
  const current = num(currentValue);
  const previous = num(previousValue);
  return { current, previous, change: current - previous, changePercent: previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10 };
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
