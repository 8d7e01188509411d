// What a sync of a sandbox over [from, now) must store, worked out from the sandbox's API itself (each
// window paged through at the endpoint's largest page), and the fewest requests that takes.
import type { Sandbox } from '../../src/sandbox/index.js';
import { DAY_MS, startOfUtcDay, utcDay } from '../../src/analytics-store/sync/plan.js';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { DATA_TABLES } from '../../src/analytics-store/schema.js';

export interface Expected {
  rows: Record<string, number>;
  /** The fewest requests a complete sync takes: the pages of every window. */
  requests: number;
}

async function get(sb: Sandbox, route: string, query: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await fetch(`${sb.baseUrl}/v1/analytics/${sb.projectId}/${route}?${new URLSearchParams(query)}`, {
    headers: { authorization: `Bearer ${sb.apiKey}` },
  });
  if (!res.ok) throw new Error(`${route}: ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

export async function expectedSync(sb: Sandbox, from: number, now: number): Promise<Expected> {
  const before = sb.requests.length;
  const rows: Record<string, number> = Object.fromEntries(DATA_TABLES.map((t) => [t, 0]));
  let requests = 0;
  for (let day = startOfUtcDay(now); day >= from; day -= DAY_MS) requests += await readDay(sb, day, rows);
  const conversations = sb.analytics.data.conversations.filter((c) => c.timestamp >= from && c.timestamp < now).length;
  // A first sync reads feedback from `from` too; only its re-reads are held to FEEDBACK_REREAD_MS.
  const feedback = sb.analytics.data.feedback.filter((f) => f.createdAt >= from && f.createdAt < now).length;
  rows.conversations = conversations;
  rows.feedback = feedback;
  requests += Math.max(1, Math.ceil(conversations / 1000)) + Math.max(1, Math.ceil(feedback / 100));
  sb.requests.splice(before);
  return { rows, requests };
}

/** The requests one UTC day's aggregate windows take, each paged through; their rows added to `rows`. */
export async function readDay(sb: Sandbox, day: number, rows: Record<string, number> = {}): Promise<number> {
  for (const table of DATA_TABLES) rows[table] ??= 0;
  let requests = 0;
  const w = { dateFrom: utcDay(day), dateTo: utcDay(day + DAY_MS) };
  let cursor: string | null = null;
  do {
    const page = await get(sb, 'searches', { ...w, limit: '100', ...(cursor ? { cursor } : {}) });
    requests++;
    rows.searches! += (page.searches as unknown[]).length;
    cursor = page.nextCursor as string | null;
  } while (cursor);
  for (const kind of ['views', 'visitors'] as const) {
    let offset = 0;
    for (;;) {
      const page = await get(sb, kind, { ...w, limit: '250', offset: String(offset) });
      requests++;
      const got = (page[kind] as unknown[]).length;
      rows[kind]! += got;
      offset += got;
      if (!page.hasMore || got === 0) break;
    }
  }
  rows.feedback_by_page! += ((await get(sb, 'feedback/by-page', { ...w, limit: '100' })).feedback as unknown[]).length;
  rows.caller_stats! += 1;
  requests += 2;
  return requests;
}

/** Row counts and distinct keys of every table of the database at `path`. */
export async function storedCounts(
  path: string,
): Promise<{ rows: Record<string, number>; distinct: Record<string, number> }> {
  const db = await openAnalyticsDb(path, { readOnly: true });
  try {
    const rows: Record<string, number> = {};
    const distinct: Record<string, number> = {};
    const keys: Record<string, string> = {
      searches: 'date, search_query',
      views: 'date, path',
      visitors: 'date, path',
      feedback_by_page: 'date, path',
      caller_stats: 'date',
      conversations: 'id',
      feedback: 'id',
    };
    for (const table of DATA_TABLES) {
      const r = (
        await db.connection.runAndReadAll(
          `SELECT count(*)::DOUBLE AS n, (SELECT count(*) FROM (SELECT DISTINCT ${keys[table]} FROM ${table}))::DOUBLE AS d FROM ${table}`,
        )
      ).getRowObjectsJson()[0]!;
      rows[table] = Number(r.n);
      distinct[table] = Number(r.d);
    }
    return { rows, distinct };
  } finally {
    db.close();
  }
}
