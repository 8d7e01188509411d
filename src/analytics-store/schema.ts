// The analytics database's tables: one per endpoint, columns named after the API's fields in snake_case.
// Aggregating endpoints are read one day at a time and carry that day as `date`; item endpoints carry
// the day of their own timestamp as `date` (for the Parquet partitions). Primary keys make "never
// stored twice" structural: items by id, aggregates by (date, key). sync_state holds the checkpoints.
// Stable: the report and query commands and analysts' own SQL read these names.

/** The tables the sync fills, one per endpoint, in the order a sync reads them. */
export const DATA_TABLES = [
  'searches',
  'views',
  'visitors',
  'feedback_by_page',
  'caller_stats',
  'conversations',
  'feedback',
] as const;
export type DataTable = (typeof DATA_TABLES)[number];

/**
 * The aggregates the report sums, as read over a whole period at once (a week or a month): the API
 * aggregates over any date range, so a week of views costs the pages of one answer instead of seven.
 * Each row carries the range it was read for (date_from, date_to exclusive) and overlaps the day
 * tables' rows of the same days: sum one or the other, never both.
 */
export const RANGE_TABLES = [
  'searches_by_range',
  'views_by_range',
  'visitors_by_range',
  'feedback_by_page_by_range',
] as const;
export type RangeTable = (typeof RANGE_TABLES)[number];
/** The day table each range table mirrors. */
export const RANGE_OF: Record<RangeTable, 'searches' | 'views' | 'visitors' | 'feedback_by_page'> = {
  searches_by_range: 'searches',
  views_by_range: 'views',
  visitors_by_range: 'visitors',
  feedback_by_page_by_range: 'feedback_by_page',
};

/** Every table of the database, the sync's own included. */
export const TABLES = [...DATA_TABLES, ...RANGE_TABLES, 'sync_state'] as const;
/** Tables added after 0.3: a database made before them is still this version's, and gets them on its next sync. */
export const ADDED_TABLES: readonly TableName[] = RANGE_TABLES;
export type TableName = (typeof TABLES)[number];

/** views and visitors have the same columns: one table of each, per day and page. */
function trafficTable(name: 'views' | 'visitors'): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (
    date DATE NOT NULL,
    path VARCHAR NOT NULL,
    human DOUBLE NOT NULL,
    ai DOUBLE NOT NULL,
    total DOUBLE NOT NULL,
    PRIMARY KEY (date, path)
  )`;
}

/** A range table: the day table's columns with the range (date_from, date_to) for `date`, keyed by range and key. */
function rangeTable(name: RangeTable, columns: string, key: string): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (
    date_from DATE NOT NULL,
    date_to DATE NOT NULL,
    ${columns},
    PRIMARY KEY (date_from, date_to, ${key})
  )`;
}
const TRAFFIC_COLUMNS = 'path VARCHAR NOT NULL, human DOUBLE NOT NULL, ai DOUBLE NOT NULL, total DOUBLE NOT NULL';

export const DDL: Record<TableName, string> = {
  // GET /v1/analytics/{projectId}/searches, per day.
  searches: `CREATE TABLE IF NOT EXISTS searches (
    date DATE NOT NULL,
    search_query VARCHAR NOT NULL,
    hits DOUBLE NOT NULL,
    ctr DOUBLE,
    top_clicked_page VARCHAR,
    last_searched_at TIMESTAMP,
    PRIMARY KEY (date, search_query)
  )`,
  // GET .../views and .../visitors, per day and page; human + ai = total.
  views: trafficTable('views'),
  visitors: trafficTable('visitors'),
  // GET .../feedback/by-page, per day and page.
  feedback_by_page: `CREATE TABLE IF NOT EXISTS feedback_by_page (
    date DATE NOT NULL,
    path VARCHAR NOT NULL,
    thumbs_up DOUBLE NOT NULL,
    thumbs_down DOUBLE NOT NULL,
    code DOUBLE NOT NULL,
    total DOUBLE NOT NULL,
    PRIMARY KEY (date, path)
  )`,
  // GET .../assistant/caller-stats, per day: one row a day.
  caller_stats: `CREATE TABLE IF NOT EXISTS caller_stats (
    date DATE NOT NULL PRIMARY KEY,
    web DOUBLE NOT NULL,
    api DOUBLE NOT NULL,
    other DOUBLE NOT NULL,
    total DOUBLE NOT NULL
  )`,
  // GET .../assistant: one row per conversation id.
  conversations: `CREATE TABLE IF NOT EXISTS conversations (
    id VARCHAR NOT NULL PRIMARY KEY,
    date DATE,
    timestamp TIMESTAMP,
    query VARCHAR,
    response VARCHAR,
    response_type VARCHAR,
    sources STRUCT(title VARCHAR, url VARCHAR)[],
    resolution_status VARCHAR,
    query_category VARCHAR,
    page_url VARCHAR
  )`,
  // GET .../feedback: one row per feedback id, replaced when read again (its status changes).
  feedback: `CREATE TABLE IF NOT EXISTS feedback (
    id VARCHAR NOT NULL PRIMARY KEY,
    date DATE,
    path VARCHAR,
    comment VARCHAR,
    created_at TIMESTAMP,
    source VARCHAR,
    status VARCHAR,
    helpful BOOLEAN,
    contact VARCHAR,
    code VARCHAR,
    filename VARCHAR,
    lang VARCHAR
  )`,
  // The same aggregates over a whole week or month (RANGE_TABLES), for the report.
  searches_by_range: rangeTable(
    'searches_by_range',
    'search_query VARCHAR NOT NULL, hits DOUBLE NOT NULL, ctr DOUBLE, top_clicked_page VARCHAR, last_searched_at TIMESTAMP',
    'search_query',
  ),
  views_by_range: rangeTable('views_by_range', TRAFFIC_COLUMNS, 'path'),
  visitors_by_range: rangeTable('visitors_by_range', TRAFFIC_COLUMNS, 'path'),
  feedback_by_page_by_range: rangeTable(
    'feedback_by_page_by_range',
    'path VARCHAR NOT NULL, thumbs_up DOUBLE NOT NULL, thumbs_down DOUBLE NOT NULL, code DOUBLE NOT NULL, total DOUBLE NOT NULL',
    'path',
  ),
  // The checkpoints, written in the same transaction as the page they follow. One row per stream and
  // window: an aggregate stream's window is one day (window_from = that day, window_to the next); a
  // range stream's window is its week or month; an item stream has one open window at a time (window_from = the watermark it started from).
  // `cursor` is where the next page starts (a cursor or an offset); `complete` once the window's last
  // page is stored. An item stream's watermark is the window_to of its newest complete window.
  // One row of stream '_pass' marks the current pass (all windows brought up to date, over one run or
  // many): its window_to is when the pass began, `complete` once a run finished it.
  sync_state: `CREATE TABLE IF NOT EXISTS sync_state (
    stream VARCHAR NOT NULL,
    window_from TIMESTAMP NOT NULL,
    window_to TIMESTAMP NOT NULL,
    cursor VARCHAR,
    pages INTEGER NOT NULL DEFAULT 0,
    rows BIGINT NOT NULL DEFAULT 0,
    complete BOOLEAN NOT NULL DEFAULT false,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (stream, window_from)
  )`,
};

/** The statements that bring an empty (or current) database to this schema; safe to run every open. */
export function schemaStatements(): string[] {
  return TABLES.map((name) => DDL[name]);
}
