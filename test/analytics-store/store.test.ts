// A page and its checkpoint in one transaction: an item read again replaces itself (feedback's status
// changes), a key the API sent twice in one page is stored once, the first page of a day read again
// replaces the day, and a page that cannot be stored leaves neither its rows nor its checkpoint.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAnalyticsDb, type AnalyticsDb } from '../../src/analytics-store/db.js';
import { readCheckpoints, writePage, type Checkpoint } from '../../src/analytics-store/sync/store.js';
import { STREAMS } from '../../src/analytics-store/sync/streams.js';
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
const checkpoint = (stream: string, over: Partial<Checkpoint> = {}): Checkpoint => ({ stream, windowFrom: DAY, windowTo: DAY + 86_400_000, cursor: null, pages: 1, rows: 1, complete: true, updatedAt: DAY + 90_000_000, ...over });
const fb = (id: string, status: string) => ({ id, date: '2026-11-20', path: '/a', comment: null, created_at: '2026-11-20T10:00:00.000Z', source: 'thumbs_only', status, helpful: null, contact: null, code: null, filename: null, lang: null });

describe('writePage', () => {
  it('an item read again replaces itself; one sent twice in a page is stored once', async () => {
    const { connection } = await open();
    await writePage(connection, { stream: STREAMS.feedback, checkpoint: checkpoint('feedback'), rows: [fb('f1', 'pending'), fb('f2', 'pending'), fb('f2', 'pending')], first: true });
    await writePage(connection, { stream: STREAMS.feedback, checkpoint: checkpoint('feedback'), rows: [fb('f1', 'resolved')], first: true });
    expect(await rows('SELECT id, status FROM feedback ORDER BY id')).toEqual([
      { id: 'f1', status: 'resolved' },
      { id: 'f2', status: 'pending' },
    ]);
  });

  it("a day's first page read again replaces the day's rows; its later pages add to them", async () => {
    const { connection } = await open();
    const view = (path: string, total: number) => ({ date: '2026-11-20', path, human: total, ai: 0, total });
    await writePage(connection, { stream: STREAMS.views, checkpoint: checkpoint('views', { cursor: '2', complete: false }), rows: [view('/a', 1), view('/b', 1)], first: true });
    await writePage(connection, { stream: STREAMS.views, checkpoint: checkpoint('views'), rows: [view('/c', 1)], first: false });
    await writePage(connection, { stream: STREAMS.views, checkpoint: checkpoint('views'), rows: [view('/a', 5)], first: true });
    expect(await rows('SELECT path, total FROM views ORDER BY path')).toEqual([{ path: '/a', total: 5 }]);
    expect((await readCheckpoints(connection)).map((c) => [c.stream, c.complete, c.cursor])).toEqual([['views', true, null]]);
  });

  it('a page that cannot be stored leaves neither its rows nor its checkpoint', async () => {
    const { connection } = await open();
    const bad = { ...fb('f9', 'pending'), id: null }; // a key DuckDB refuses: NOT NULL
    await expect(writePage(connection, { stream: STREAMS.feedback, checkpoint: checkpoint('feedback'), rows: [fb('f8', 'pending'), bad], first: true })).rejects.toThrow();
    expect(await rows('SELECT count(*)::INT AS n FROM feedback')).toEqual([{ n: 0 }]);
    expect(await readCheckpoints(connection)).toEqual([]);
  });
});
