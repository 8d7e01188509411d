// A database with known rows around a week's two periods, and the report they make: the numbers the
// report tests assert exactly. Dates are offsets from the periods' first days, so the same rows
// serve a fixed clock (the engine's tests) and the real one (the CLI's).
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import type { Periods } from '../../src/analytics-store/report/period.js';

export const HOSTILE_TERM = '<script>alert(1)</script> | `x`';

function day(from: string, offset: number): string {
  return new Date(Date.parse(`${from}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
}

export async function fillReportDatabase(path: string, periods: Periods): Promise<void> {
  const C = (n: number) => `'${day(periods.current.from, n)}'`;
  const P = (n: number) => `'${day(periods.previous.from, n)}'`;
  const db = await openAnalyticsDb(path);
  const run = (sql: string) => db.connection.run(sql);
  try {
    await run(`INSERT INTO searches (date, search_query, hits, ctr) VALUES
      (${C(0)}, 'install', 30, 0.5), (${C(1)}, 'install', 10, 0.5), (${P(0)}, 'install', 10, 0.5),
      (${P(-1)}, 'install', 100, 0.5), ('${periods.current.to}', 'install', 50, 0.5),
      (${C(0)}, 'deploy', 5, 0.2), (${P(2)}, 'deploy', 25, 0.4),
      (${C(3)}, 'webhooks', 8, 0),
      (${C(0)}, 'sso', 4, 0), (${P(0)}, 'sso', 6, 0),
      (${P(1)}, 'pricing', 3, 1),
      (${C(2)}, '${HOSTILE_TERM.replace(/'/g, "''")}', 2, 0)`);
    await run(`INSERT INTO conversations (id, date, timestamp, query, resolution_status, query_category) VALUES
      ('c1', ${C(0)}, ${C(0)}::TIMESTAMP + INTERVAL 10 HOUR, 'How do I rotate keys?', 'unanswered', 'Auth'),
      ('c2', ${C(1)}, ${C(1)}::TIMESTAMP + INTERVAL 11 HOUR, 'SAML setup?', 'unanswered', 'Auth'),
      ('c3', ${C(2)}, ${C(2)}::TIMESTAMP + INTERVAL 12 HOUR, 'Where is the CLI?', 'unanswered', NULL),
      ('c4', ${C(2)}, ${C(2)}::TIMESTAMP + INTERVAL 13 HOUR, 'answered one', 'answered', 'Auth'),
      ('c5', ${P(0)}, ${P(0)}::TIMESTAMP, 'old question', 'unanswered', 'Auth'),
      ('c6', ${P(1)}, ${P(1)}::TIMESTAMP, 'billing question', 'unanswered', 'Billing')`);
    await run(`INSERT INTO feedback_by_page VALUES
      (${C(0)}, '/a', 1, 3, 0, 4), (${C(4)}, '/a', 0, 2, 0, 2),
      (${C(1)}, '/b', 0, 5, 0, 5), (${P(0)}, '/b', 0, 1, 0, 1),
      (${C(1)}, '/c', 4, 0, 0, 4), (${P(0)}, '/d', 0, 9, 0, 9)`);
    await run(
      `INSERT INTO views VALUES (${C(0)}, '/a', 100, 20, 120), (${C(1)}, '/b', 50, 30, 80), (${P(0)}, '/a', 100, 0, 100)`,
    );
    await run(`INSERT INTO visitors VALUES (${C(0)}, '/a', 10, 2, 12), (${P(0)}, '/a', 5, 1, 6)`);
    // What the sync read whole: every day of both periods, but for the last two days of the period
    // before, where views were not read yet (one day stopped part-way, one not started).
    const windows: string[] = [];
    const days = Math.round((Date.parse(periods.current.to) - Date.parse(periods.previous.from)) / 86_400_000);
    for (const stream of ['searches', 'views', 'visitors', 'feedback_by_page', 'caller_stats']) {
      for (let n = 0; n < days; n++) {
        const from = day(periods.previous.from, n);
        const gap = stream === 'views' && from >= day(periods.current.from, -2) && from < periods.current.from;
        if (gap && from === day(periods.current.from, -1)) continue;
        windows.push(
          `('${stream}', TIMESTAMP '${from}', TIMESTAMP '${day(from, 1)}', ${gap ? "'250'" : 'NULL'}, 1, 1, ${!gap}, now()::TIMESTAMP)`,
        );
      }
    }
    // Conversations read whole over both periods (one complete window of the item stream).
    windows.push(
      `('conversations', TIMESTAMP '${periods.previous.from}', TIMESTAMP '${periods.current.to}', NULL, 1, 6, true, now()::TIMESTAMP)`,
    );
    await run(`INSERT INTO sync_state VALUES ${windows.join(', ')}`);
  } finally {
    db.close();
  }
}

const change = (current: number, previous: number, changePercent: number | null) => ({
  current,
  previous,
  change: current - previous,
  changePercent,
});

/** The report those rows make, but for the periods themselves. */
export const EXPECTED = {
  daysSynced: {
    current: 7,
    previous: 5,
    ofDays: { current: 7, previous: 7 },
    partial: [{ table: 'views', current: 7, previous: 5 }],
  },
  visitorsCounted: { current: 'day', previous: 'day' },
  searches: {
    total: change(59, 44, 34.1),
    rising: [
      { query: 'install', current: 40, previous: 10, change: 30 },
      { query: 'webhooks', current: 8, previous: 0, change: 8 },
      { query: HOSTILE_TERM, current: 2, previous: 0, change: 2 },
    ],
    falling: [
      { query: 'deploy', current: 5, previous: 25, change: -20 },
      { query: 'pricing', current: 0, previous: 3, change: -3 },
      { query: 'sso', current: 4, previous: 6, change: -2 },
    ],
    newZeroClick: [
      { query: 'webhooks', hits: 8 },
      { query: HOSTILE_TERM, hits: 2 },
    ],
  },
  unanswered: {
    total: change(3, 2, 50),
    byCategory: [
      { category: 'Auth', current: 2, previous: 1, examples: ['SAML setup?', 'How do I rotate keys?'] },
      { category: '(uncategorised)', current: 1, previous: 0, examples: ['Where is the CLI?'] },
    ],
  },
  thumbsDown: [
    { path: '/a', current: 5, previous: 0 },
    { path: '/b', current: 5, previous: 1 },
  ],
  views: { human: change(150, 100, 50), ai: change(50, 0, null), total: change(200, 100, 100) },
  visitors: { human: change(10, 5, 100), ai: change(2, 1, 100), total: change(12, 6, 100) },
};
