// A page and its checkpoint in one transaction: an item read again replaces itself (feedback's status
// changes), a key the API sent twice in one page is stored once (the later copy), the first page of a
// day read again replaces that day alone, every column survives exactly, and a page that cannot be
// stored leaves neither its rows nor its checkpoint. writePage inserts first and replaces only when the
// key index refuses a row, so pages mixing new and stored keys are tested too.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAnalyticsDb, type AnalyticsDb } from '../../src/analytics-store/db.js';
import { readCheckpoints, withOneThread, writePage, type Checkpoint } from '../../src/analytics-store/sync/store.js';
import { RANGE_STREAMS, STREAMS } from '../../src/analytics-store/sync/streams.js';
import { tempDir } from '../helpers/cli.js';

let dir: ReturnType<typeof tempDir> | undefined;
let db: AnalyticsDb | undefined;
afterEach(() => {
  db?.close();
  dir?.cleanup();
});
async function open(): Promise<AnalyticsDb> {
  dir = tempDir();
  return (db = await openAnalyticsDb(join(dir.path, 'a.duckdb')));
}
const rows = async (sql: string) => (await db!.connection.runAndReadAll(sql)).getRowObjectsJson();
const DAY = Date.UTC(2026, 10, 20);
const checkpoint = (stream: string, over: Partial<Checkpoint> = {}): Checkpoint => ({
  stream,
  windowFrom: DAY,
  windowTo: DAY + 86_400_000,
  cursor: null,
  pages: 1,
  rows: 1,
  complete: true,
  updatedAt: DAY + 90_000_000,
  ...over,
});
const fb = (id: string, status: string) => ({
  id,
  date: '2026-11-20',
  path: '/a',
  comment: null,
  created_at: '2026-11-20T10:00:00.000Z',
  source: 'thumbs_only',
  status,
  helpful: null,
  contact: null,
  code: null,
  filename: null,
  lang: null,
});

describe('writePage', () => {
  it('an item read again replaces itself; one sent twice in a page is stored once', async () => {
    const { connection } = await open();
    await writePage(connection, {
      stream: STREAMS.feedback,
      checkpoint: checkpoint('feedback'),
      rows: [fb('f1', 'pending'), fb('f2', 'pending'), fb('f2', 'pending')],
      first: true,
    });
    await writePage(connection, {
      stream: STREAMS.feedback,
      checkpoint: checkpoint('feedback'),
      rows: [fb('f1', 'resolved')],
      first: true,
    });
    expect(await rows('SELECT id, status FROM feedback ORDER BY id')).toEqual([
      { id: 'f1', status: 'resolved' },
      { id: 'f2', status: 'pending' },
    ]);
  });

  it("a day's first page read again replaces the day's rows; its later pages add to them", async () => {
    const { connection } = await open();
    const view = (path: string, total: number) => ({ date: '2026-11-20', path, human: total, ai: 0, total });
    await writePage(connection, {
      stream: STREAMS.views,
      checkpoint: checkpoint('views', { cursor: '2', complete: false }),
      rows: [view('/a', 1), view('/b', 1)],
      first: true,
    });
    await writePage(connection, {
      stream: STREAMS.views,
      checkpoint: checkpoint('views'),
      rows: [view('/c', 1)],
      first: false,
    });
    await writePage(connection, {
      stream: STREAMS.views,
      checkpoint: checkpoint('views'),
      rows: [view('/a', 5)],
      first: true,
    });
    expect(await rows('SELECT path, total FROM views ORDER BY path')).toEqual([{ path: '/a', total: 5 }]);
    expect((await readCheckpoints(connection)).map((c) => [c.stream, c.complete, c.cursor])).toEqual([
      ['views', true, null],
    ]);
  });

  it("a range's first page read again replaces that range's rows alone; the days' rows and other ranges stay", async () => {
    const { connection } = await open();
    const WEEK = 7 * 86_400_000;
    const range = (path: string, total: number) => ({ date: '2026-11-16', path, human: total, ai: 0, total });
    const week = (from: number, over: Partial<Checkpoint> = {}) =>
      checkpoint('views_by_range', { windowFrom: from, windowTo: from + WEEK, ...over });
    const stream = RANGE_STREAMS.views_by_range;
    const window = (from: number) => ({
      from: new Date(from).toISOString().slice(0, 10),
      to: new Date(from + WEEK).toISOString().slice(0, 10),
    });
    // The range stream turns a day stream's rows into the range's: as the API's answer would come back.
    const asRange = (from: number, r: ReturnType<typeof range>[]) =>
      r.map(({ date: _d, ...row }) => ({ date_from: window(from).from, date_to: window(from).to, ...row }));
    const monday = Date.UTC(2026, 10, 16);
    await writePage(connection, {
      stream: STREAMS.views,
      checkpoint: checkpoint('views'),
      rows: [{ date: '2026-11-20', path: '/a', human: 1, ai: 0, total: 1 }],
      first: true,
    });
    await writePage(connection, {
      stream,
      checkpoint: week(monday - WEEK),
      rows: asRange(monday - WEEK, [range('/a', 9)]),
      first: true,
    });
    await writePage(connection, {
      stream,
      checkpoint: week(monday, { cursor: '250', complete: false }),
      rows: asRange(monday, [range('/a', 3), range('/b', 4)]),
      first: true,
    });
    await writePage(connection, {
      stream,
      checkpoint: week(monday),
      rows: asRange(monday, [range('/a', 7)]),
      first: true,
    });
    expect(
      await rows(
        "SELECT strftime(date_from, '%Y-%m-%d') AS f, strftime(date_to, '%Y-%m-%d') AS t, path, total FROM views_by_range ORDER BY f, path",
      ),
    ).toEqual([
      { f: '2026-11-09', t: '2026-11-16', path: '/a', total: 9 },
      { f: '2026-11-16', t: '2026-11-23', path: '/a', total: 7 },
    ]);
    expect(await rows('SELECT path, total FROM views')).toEqual([{ path: '/a', total: 1 }]);
  });

  it('stores every column exactly, and a replaced item keeps no trace of its old values', async () => {
    const { connection } = await open();
    const conv = (id: string, query: string, sources: { title: string; url: string }[], status: string | null) => ({
      id,
      date: '2026-11-20',
      timestamp: '2026-11-20T10:00:00.123Z',
      query,
      response: 'it\'s "quoted"\nand ünïcode',
      response_type: null,
      sources,
      resolution_status: status,
      query_category: 'api',
      page_url: '/p',
    });
    await writePage(connection, {
      stream: STREAMS.conversations,
      checkpoint: checkpoint('conversations'),
      rows: [
        conv(
          'c1',
          'old',
          [
            { title: 'A', url: '/a' },
            { title: 'B', url: '/b' },
          ],
          'answered',
        ),
        conv('c2', 'two', [], null),
      ],
      first: false,
    });
    await writePage(connection, {
      stream: STREAMS.conversations,
      checkpoint: checkpoint('conversations'),
      rows: [conv('c1', 'new', [{ title: 'C', url: '/c' }], null)],
      first: false,
    });
    expect(
      await rows(
        `SELECT id, date::VARCHAR AS date, strftime(timestamp, '%Y-%m-%d %H:%M:%S.%g') AS ts, query, response, response_type, to_json(sources)::VARCHAR AS sources, resolution_status FROM conversations ORDER BY id`,
      ),
    ).toEqual([
      {
        id: 'c1',
        date: '2026-11-20',
        ts: '2026-11-20 10:00:00.123',
        query: 'new',
        response: 'it\'s "quoted"\nand ünïcode',
        response_type: null,
        sources: '[{"title":"C","url":"/c"}]',
        resolution_status: null,
      },
      {
        id: 'c2',
        date: '2026-11-20',
        ts: '2026-11-20 10:00:00.123',
        query: 'two',
        response: 'it\'s "quoted"\nand ünïcode',
        response_type: null,
        sources: '[]',
        resolution_status: null,
      },
    ]);
  });

  it('a key sent twice in one page is stored once, as the later of the two', async () => {
    const { connection } = await open();
    await writePage(connection, {
      stream: STREAMS.feedback,
      checkpoint: checkpoint('feedback'),
      rows: [
        fb('f1', 'pending'),
        fb('f2', 'pending'),
        fb('f1', 'resolved'),
        fb('f2', 'in_progress'),
        fb('f2', 'dismissed'),
      ],
      first: false,
    });
    expect(await rows('SELECT id, status FROM feedback ORDER BY id')).toEqual([
      { id: 'f1', status: 'resolved' },
      { id: 'f2', status: 'dismissed' },
    ]);
    const search = (q: string, hits: number) => ({
      date: '2026-11-20',
      search_query: q,
      hits,
      ctr: 0.5,
      top_clicked_page: '/a',
      last_searched_at: '2026-11-20T09:00:00.000Z',
    });
    await writePage(connection, {
      stream: STREAMS.searches,
      checkpoint: checkpoint('searches'),
      rows: [search('x', 1), search('y', 2), search('x', 3)],
      first: true,
    });
    expect(await rows('SELECT search_query, hits FROM searches ORDER BY search_query')).toEqual([
      { search_query: 'x', hits: 3 },
      { search_query: 'y', hits: 2 },
    ]);
  });

  it("a day read again replaces that day's rows only; other days and the checkpoint's counts stay exact", async () => {
    const { connection } = await open();
    const search = (date: string, q: string, hits: number) => ({
      date,
      search_query: q,
      hits,
      ctr: null,
      top_clicked_page: null,
      last_searched_at: null,
    });
    const next = DAY + 86_400_000;
    await writePage(connection, {
      stream: STREAMS.searches,
      checkpoint: checkpoint('searches'),
      rows: [search('2026-11-20', 'a', 1), search('2026-11-20', 'b', 1)],
      first: true,
    });
    await writePage(connection, {
      stream: STREAMS.searches,
      checkpoint: checkpoint('searches', { windowFrom: next, windowTo: next + 86_400_000 }),
      rows: [search('2026-11-21', 'a', 7)],
      first: true,
    });
    await writePage(connection, {
      stream: STREAMS.searches,
      checkpoint: checkpoint('searches', { rows: 2, pages: 1 }),
      rows: [search('2026-11-20', 'b', 4), search('2026-11-20', 'c', 5)],
      first: true,
    });
    expect(
      await rows(`SELECT date::VARCHAR AS date, search_query, hits, ctr FROM searches ORDER BY date, search_query`),
    ).toEqual([
      { date: '2026-11-20', search_query: 'b', hits: 4, ctr: null },
      { date: '2026-11-20', search_query: 'c', hits: 5, ctr: null },
      { date: '2026-11-21', search_query: 'a', hits: 7, ctr: null },
    ]);
    expect((await readCheckpoints(connection)).map((c) => [c.windowFrom, c.rows, c.pages])).toEqual([
      [DAY, 2, 1],
      [next, 1, 1],
    ]);
  });

  it('a page of new items and stored ones stores each once: the new added, the stored replaced, the checkpoint moved on', async () => {
    const { connection } = await open();
    await writePage(connection, {
      stream: STREAMS.feedback,
      checkpoint: checkpoint('feedback', { cursor: 'a', pages: 1, rows: 2, complete: false }),
      rows: [fb('f1', 'pending'), fb('f2', 'pending')],
      first: false,
    });
    await writePage(connection, {
      stream: STREAMS.feedback,
      checkpoint: checkpoint('feedback', { cursor: 'b', pages: 2, rows: 4, complete: false }),
      rows: [fb('f3', 'pending'), fb('f2', 'resolved'), fb('f4', 'pending')],
      first: false,
    });
    expect(await rows('SELECT id, status FROM feedback ORDER BY id')).toEqual([
      { id: 'f1', status: 'pending' },
      { id: 'f2', status: 'resolved' },
      { id: 'f3', status: 'pending' },
      { id: 'f4', status: 'pending' },
    ]);
    expect((await readCheckpoints(connection)).map((c) => [c.cursor, c.pages, c.rows])).toEqual([['b', 2, 4]]);
  });

  it('a page that cannot be stored leaves neither its rows nor its checkpoint', async () => {
    const { connection } = await open();
    const bad = { ...fb('f9', 'pending'), id: null }; // a key DuckDB refuses: NOT NULL
    await expect(
      writePage(connection, {
        stream: STREAMS.feedback,
        checkpoint: checkpoint('feedback'),
        rows: [fb('f8', 'pending'), bad],
        first: true,
      }),
    ).rejects.toThrow();
    expect(await rows('SELECT count(*)::INT AS n FROM feedback')).toEqual([{ n: 0 }]);
    expect(await readCheckpoints(connection)).toEqual([]);
  });
});

describe('withOneThread', () => {
  const threads = async () => Number((await rows(`SELECT current_setting('threads')::INTEGER AS n`))[0]!.n);
  it('stores on one thread and puts the setting back, also when the work fails', async () => {
    const { connection } = await open();
    await connection.run('SET threads = 3');
    expect(await withOneThread(connection, async () => threads())).toBe(1);
    expect(await threads()).toBe(3);
    await expect(withOneThread(connection, async () => Promise.reject(new Error('disk full')))).rejects.toThrow(
      'disk full',
    );
    expect(await threads()).toBe(3);
  });
});
