// Benchmark of `analytics sync` (run `npm run build` first):
//   1. requests: a month of the sandbox's history synced from an empty database, beside the fewest the
//      endpoints' page sizes allow for it (every window's pages, the report's weeks and months read
//      whole first included, counted from the API itself); then a
//      second sync right after, which must read only what can change (today, items since the
//      watermark, feedback whose status can change);
//   2. local cost: storing 1,000,000 conversations and 100,000 search rows the sync's way (pages of
//      the endpoint's size, each page one transaction with its checkpoint) against DuckDB loading the
//      same rows from NDJSON (read_json_auto) in one statement, the limit; rows per second, and peak
//      RSS of the storing process at a quarter, a half and all of the rows (it must stay flat).
// Each storing run is a child process of its own (peak RSS from the kernel: resourceUsage().maxRSS).
// Timings on a shared machine are noisy: the ratio is what to read. Prints a markdown table; exits 1
// if a check fails. BENCH_QUICK=1 shrinks the workloads.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';

/** @import { Sandbox } from '../src/sandbox/index.js' */
/** @import { DataTable } from '../src/analytics-store/schema.js' */
/** @typedef {typeof import('../src/analytics-store/sync/plan.js')} Plan */
/** @typedef {{ ms: number; maxRssMb: number; marks: Array<{ rows: number; rssMb: number }> }} Stored */

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = (/** @type {string} */ p) => join(root, 'dist', p);
const QUICK = Boolean(process.env.BENCH_QUICK);
const DAY = 86_400_000;

// A child's arguments, as child() passes them: the table, the row count, the database, the NDJSON file.
const [mode, table = '', n = '', dbPath = '', ndjson = ''] = process.argv.slice(2);
if (mode === 'store') await store(/** @type {DataTable} */ (table), n, dbPath);
else if (mode === 'baseline') await baseline(table, n, dbPath, ndjson);
else await main();

/**
 * Deterministic rows shaped like the API's: a conversation, or a day's search term.
 * @param {number} i
 */
function conversationRow(i) {
  const t = Date.UTC(2026, 9, 1) + i * 2000;
  return {
    id: `01J${String(i).padStart(23, '0')}`,
    date: new Date(t).toISOString().slice(0, 10),
    timestamp: new Date(t).toISOString(),
    query: `How do I configure webhooks for project ${i % 977}?`,
    response: 'Here is how: see the linked page.',
    response_type: 'answer',
    sources: [{ title: 'Webhooks', url: `https://docs.example.com/guides/webhooks-${i % 61}` }],
    resolution_status: i % 13 === 0 ? 'unanswered' : 'answered',
    query_category: 'api',
    page_url: `https://docs.example.com/page-${i % 400}`,
  };
}
/** @param {number} i */
function searchRow(i) {
  return {
    date: new Date(Date.UTC(2026, 9, 1) + Math.floor(i / 1000) * DAY).toISOString().slice(0, 10),
    search_query: `term ${i % 1000} ${i % 7}`,
    hits: 1 + (i % 50),
    ctr: (i % 100) / 100,
    top_clicked_page: `/page-${i % 300}`,
    last_searched_at: new Date(Date.UTC(2026, 9, 1) + i * 1000).toISOString(),
  };
}

/**
 * Child: store `n` rows of `table` the sync's way; prints {ms, maxRssMb, at:[{rows, rssMb}]}.
 * @param {DataTable} table
 * @param {string} n
 * @param {string} dbPath
 */
async function store(table, n, dbPath) {
  const { openAnalyticsDb } = /** @type {typeof import('../src/analytics-store/db.js')} */ (
    await import(dist('analytics-store/db.js'))
  );
  const { writePage, withOneThread } = /** @type {typeof import('../src/analytics-store/sync/store.js')} */ (
    await import(dist('analytics-store/sync/store.js'))
  );
  const { STREAMS } = /** @type {typeof import('../src/analytics-store/sync/streams.js')} */ (
    await import(dist('analytics-store/sync/streams.js'))
  );
  const db = await openAnalyticsDb(dbPath);
  const stream = STREAMS[table];
  const total = Number(n);
  const pageSize = stream.pageSize;
  const make = table === 'conversations' ? conversationRow : searchRow;
  /** @type {Stored['marks']} */
  const marks = [];
  const started = performance.now();
  // As runSync does: DuckDB on one thread while pages are stored.
  await withOneThread(db.connection, async () => {
    for (let i = 0, page = 0; i < total; i += pageSize, page++) {
      const rows = [];
      for (let j = i; j < Math.min(total, i + pageSize); j++) rows.push(make(j));
      const checkpoint = {
        stream: table,
        windowFrom: Date.UTC(2026, 9, 1),
        windowTo: Date.UTC(2026, 10, 1),
        cursor: String(i + pageSize),
        pages: page + 1,
        rows: i + rows.length,
        complete: false,
        updatedAt: Date.now(),
      };
      // Each page its own transaction; the item table's key is its id, so `first` matters only per day.
      await writePage(db.connection, { stream, checkpoint, rows, first: false });
      const done = i + rows.length;
      if ([0.25, 0.5, 1].some((f) => done === Math.ceil((total * f) / pageSize) * pageSize || done === total))
        marks.push({ rows: done, rssMb: process.resourceUsage().maxRSS / 1024 });
    }
  });
  const ms = performance.now() - started;
  db.close();
  console.log(JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, marks }));
}

/**
 * Child: the same rows from an NDJSON file, loaded by DuckDB in one statement.
 * @param {string} table
 * @param {string} _n the row count, which the statement does not need
 * @param {string} dbPath
 * @param {string} ndjson
 */
async function baseline(table, _n, dbPath, ndjson) {
  const { openAnalyticsDb } = /** @type {typeof import('../src/analytics-store/db.js')} */ (
    await import(dist('analytics-store/db.js'))
  );
  const db = await openAnalyticsDb(dbPath);
  const started = performance.now();
  await db.connection.run(
    `INSERT INTO ${table} BY NAME SELECT * FROM read_json_auto('${ndjson}', format = 'newline_delimited')`,
  );
  const ms = performance.now() - started;
  db.close();
  console.log(JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
}

/**
 * Runs this script as a child in one of its modes; returns what it printed last, parsed.
 * @param {string[]} argv
 * @returns {Stored}
 */
function child(...argv) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...argv], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`bench child ${argv.join(' ')} exited ${r.status}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '');
}

/**
 * @param {string} path
 * @param {number} n
 * @param {(i: number) => object} make
 */
async function writeNdjson(path, n, make) {
  const out = createWriteStream(path);
  for (let i = 0; i < n; i++) if (!out.write(`${JSON.stringify(make(i))}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'mint-admin-bench-sync-'));
  /** @type {string[]} */
  const rows = [];
  /** @type {string[]} */
  const verdicts = [];
  try {
    // ---- 1. requests for a month of sandbox history
    const { startSandbox } = /** @type {typeof import('../src/sandbox/index.js')} */ (
      await import(dist('sandbox/index.js'))
    );
    const { ApiClient } = /** @type {typeof import('../src/api/client.js')} */ (await import(dist('api/client.js')));
    const { systemClock } = /** @type {typeof import('../src/clock.js')} */ (await import(dist('clock.js')));
    const { openAnalyticsDb } = /** @type {typeof import('../src/analytics-store/db.js')} */ (
      await import(dist('analytics-store/db.js'))
    );
    const { runSync } = /** @type {typeof import('../src/analytics-store/sync/engine.js')} */ (
      await import(dist('analytics-store/sync/engine.js'))
    );
    const { startOfUtcDay, utcDay, FEEDBACK_REREAD_MS, SETTLE_MS } = /** @type {Plan} */ (
      await import(dist('analytics-store/sync/plan.js'))
    );
    const { RequestBudget } = /** @type {typeof import('../src/analytics-store/sync/budget.js')} */ (
      await import(dist('analytics-store/sync/budget.js'))
    );
    const { Agent } = await import('undici');
    const sandbox = await startSandbox(
      QUICK ? { searchTermCount: 300, analytics: { pages: 60, feedback: 300, conversations: 1000 } } : {},
    );
    const dispatcher = new Agent();
    const api = new ApiClient({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      userAgent: 'bench',
      dispatcher,
      clock: systemClock,
    });
    const now = Date.now();
    const days = QUICK ? 7 : 30;
    const from = startOfUtcDay(now) - days * DAY;
    const minimum = await fewestRequests(sandbox, from, now, { startOfUtcDay, utcDay, FEEDBACK_REREAD_MS, SETTLE_MS });
    const db = await openAnalyticsDb(join(work, 'month.duckdb'));
    const count = () => sandbox.requests.filter((r) => r.path.startsWith('/v1/analytics/')).length;
    const before = count();
    // No hourly cap here: the figure is how many requests a month costs, over however many hours.
    const first = await runSync({
      connection: db.connection,
      path: 'month.duckdb',
      api,
      projectId: sandbox.projectId,
      from,
      clock: systemClock,
      budget: new RequestBudget(100_000, undefined, 100_000),
    });
    const firstSent = count() - before;
    const second = await runSync({
      connection: db.connection,
      path: 'month.duckdb',
      api,
      projectId: sandbox.projectId,
      from,
      clock: systemClock,
      budget: new RequestBudget(100_000, undefined, 100_000),
    });
    const secondSent = count() - before - firstSent;
    db.close();
    await dispatcher.close();
    await sandbox.close();
    rows.push(
      `| requests: ${days + 1} days of sandbox history, first sync | ${firstSent} | ${minimum.requests} (fewest the page sizes allow) | ${(firstSent / minimum.requests).toFixed(2)} |`,
    );
    rows.push(
      `| requests: a second sync right after | ${secondSent} | ${minimum.changeable} (today's 5 windows${minimum.yesterday ? ` + yesterday's ${minimum.yesterday} pages, not settled yet` : ''} + items since the watermark + feedback re-read) | ${(secondSent / minimum.changeable).toFixed(2)} |`,
    );
    verdicts.push(
      `${firstSent === minimum.requests && first.complete ? 'PASS' : 'MISS'} a month syncs in the fewest requests the page sizes allow (${firstSent} = ${minimum.requests})`,
    );
    verdicts.push(
      `${secondSent === minimum.changeable && second.complete ? 'PASS' : 'MISS'} a second sync reads only what can change (${secondSent} requests)`,
    );

    // ---- 2. local cost
    /** @type {Array<[string, number]>} */
    const sizes = [
      ['conversations', QUICK ? 20_000 : 1_000_000],
      ['searches', QUICK ? 5_000 : 100_000],
    ];
    for (const [table, n] of sizes) {
      const ndjson = join(work, `${table}.ndjson`);
      await writeNdjson(ndjson, n, table === 'conversations' ? conversationRow : searchRow);
      // Interleaved: baseline, ours, baseline, ours; the better of each.
      /** @type {Stored[]} */
      const ours = [];
      /** @type {Stored[]} */
      const limit = [];
      for (let run = 0; run < 2; run++) {
        limit.push(child('baseline', table, String(n), join(work, `${table}-base-${run}.duckdb`), ndjson));
        ours.push(child('store', table, String(n), join(work, `${table}-ours-${run}.duckdb`)));
      }
      const best = (/** @type {Stored[]} */ xs) => xs.reduce((a, b) => (a.ms < b.ms ? a : b));
      const o = best(ours);
      const l = best(limit);
      const rate = (/** @type {Stored} */ x) => Math.round(n / (x.ms / 1000));
      rows.push(
        `| store ${n.toLocaleString('en')} ${table} (rows/s) | ${rate(o).toLocaleString('en')} | ${rate(l).toLocaleString('en')} (read_json_auto of NDJSON, one statement) | ${(rate(o) / rate(l)).toFixed(2)} |`,
      );
      const marks = o.marks.map((m) => `${m.rows.toLocaleString('en')} rows: ${m.rssMb.toFixed(0)} MB`).join(', ');
      rows.push(
        `| peak RSS storing ${table} | ${o.maxRssMb.toFixed(0)} MB | ${l.maxRssMb.toFixed(0)} MB | ${(o.maxRssMb / l.maxRssMb).toFixed(2)} |`,
      );
      const [firstMark, lastMark] = [o.marks[0], o.marks.at(-1)];
      const growth = firstMark && lastMark && o.marks.length >= 2 ? lastMark.rssMb - firstMark.rssMb : 0;
      verdicts.push(
        `${growth < 64 ? 'PASS' : 'MISS'} peak RSS flat as ${table} grow (${marks}; growth from a quarter to all ${growth.toFixed(0)} MB, target < 64 MB)`,
      );
      console.log(
        `raw: ${table} ours ${ours.map((x) => x.ms.toFixed(0)).join(', ')} ms; read_json_auto ${limit.map((x) => x.ms.toFixed(0)).join(', ')} ms`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log('| figure | mint-admin | baseline | ratio |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(
    'Timings were taken on a shared machine: read the ratios of interleaved runs (better of two each), not the absolute rates.',
  );
  for (const v of verdicts) console.log(v);
  if (verdicts.some((v) => v.startsWith('MISS'))) process.exitCode = 1;
}

/**
 * The fewest requests a sync of [from, now) takes, and how many a second one right after needs.
 * @param {Sandbox} sandbox
 * @param {number} from
 * @param {number} now
 * @param {Pick<Plan, 'startOfUtcDay' | 'utcDay' | 'FEEDBACK_REREAD_MS' | 'SETTLE_MS'>} engine
 */
async function fewestRequests(sandbox, from, now, { startOfUtcDay, utcDay, FEEDBACK_REREAD_MS, SETTLE_MS }) {
  /**
   * One page of an analytics endpoint, as far as this count reads it (the sandbox is ours).
   * @param {string} route
   * @param {Record<string, string>} query
   * @returns {Promise<any>}
   */
  const get = async (route, query) => {
    const res = await fetch(
      `${sandbox.baseUrl}/v1/analytics/${sandbox.projectId}/${route}?${new URLSearchParams(query)}`,
      { headers: { authorization: `Bearer ${sandbox.apiKey}` } },
    );
    return res.json();
  };
  const before = sandbox.requests.length;
  let requests = 0;
  let today = 0;
  let yesterday = 0;
  let unsettled = 0;
  /** The requests one window of the aggregate endpoints takes: searches, views and visitors paged, feedback by page and caller stats one each. */
  async function pagesOver(/** @type {{ dateFrom: string; dateTo: string }} */ w) {
    let pages = 0;
    /** @type {string | null} */
    let cursor = null;
    do {
      const page = await get('searches', { ...w, limit: '100', ...(cursor ? { cursor } : {}) });
      pages++;
      cursor = page.nextCursor;
    } while (cursor);
    for (const kind of ['views', 'visitors']) {
      let offset = 0;
      for (;;) {
        const page = await get(kind, { ...w, limit: '250', offset: String(offset) });
        pages++;
        offset += page[kind].length;
        if (!page.hasMore || page[kind].length === 0) break;
      }
    }
    return pages + 2; // feedback by page, caller stats: one each
  }
  for (let day = startOfUtcDay(now); day >= from; day -= DAY) {
    const pages = await pagesOver({ dateFrom: utcDay(day), dateTo: utcDay(day + DAY) });
    requests += pages;
    if (day === startOfUtcDay(now)) today = pages;
    // In the first hours after midnight UTC yesterday has not settled: a second sync reads it again whole.
    if (day === startOfUtcDay(now) - DAY && now - startOfUtcDay(now) < SETTLE_MS) yesterday = pages;
  }
  // The report's periods within the reach, each read whole at once first (engine.ts reportRanges):
  // searches, views and visitors over the range in their pages, feedback by page in one.
  const { reportPeriods } = /** @type {typeof import('../src/analytics-store/report/period.js')} */ (
    await import(dist('analytics-store/report/period.js'))
  );
  const weeks = reportPeriods('week', new Date(now));
  const months = reportPeriods('month', new Date(now));
  /** @type {Set<number>} */
  const starts = new Set();
  for (const range of [weeks.current, weeks.previous, months.current, months.previous]) {
    const start = Date.parse(`${range.from}T00:00:00Z`);
    if (start < from || starts.has(start)) continue; // a month starting on a week's Monday is not read whole (engine.ts)
    starts.add(start);
    const pages = (await pagesOver({ dateFrom: range.from, dateTo: range.to })) - 1; // no caller stats by range
    requests += pages;
    if (Date.parse(`${range.to}T00:00:00Z`) + SETTLE_MS > now) unsettled += pages;
  }
  const conversations = sandbox.analytics.data.conversations.filter(
    (c) => c.timestamp >= from && c.timestamp < now,
  ).length;
  const feedback = sandbox.analytics.data.feedback.filter(
    (f) => f.createdAt >= Math.max(from, now - FEEDBACK_REREAD_MS) && f.createdAt < now,
  ).length;
  const feedbackPages = Math.max(1, Math.ceil(feedback / 100));
  requests += Math.max(1, Math.ceil(conversations / 1000)) + feedbackPages;
  sandbox.requests.splice(before);
  // A range read in the first hours after its period ended has not settled: a second sync reads it again.
  return { requests, changeable: today + yesterday + unsettled + 1 + feedbackPages, yesterday };
}
