// AdminClient's analytics iterators against the sandbox and small loopback servers: each yields
// exactly what a bare fetch loop over the API reads, with the fewest requests (the largest page), a
// `break` stops the requests, a call's signal ends the walk, a bad query sends nothing, and an answer
// that would loop is refused after the good pages.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AdminClient,
  ApiError,
  UsageError,
  type Conversation,
  type FeedbackItem,
  type PageTraffic,
  type SearchTerm,
} from '../../src/index.js';
import { SANDBOX_FIXED_DATA_END, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { FakeClock } from '../helpers/clock.js';
import { json, sequence, startServer } from '../helpers/server.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    searchTermCount: 230,
    analytics: { pages: 300, feedback: 450, conversations: 2100 },
    dataEndsAt: SANDBOX_FIXED_DATA_END,
  });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.requests.length = 0;
});

const clients: AdminClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
function client(baseUrl = sandbox.baseUrl): AdminClient {
  const made = new AdminClient({ apiKey: sandbox.apiKey, baseUrl, clock: new FakeClock() });
  clients.push(made);
  return made;
}

/** What the iterator sent: the query of each request to the route, in order. */
const sent = (route: string) =>
  sandbox.requests
    .map((r) => new URL(r.path, 'http://x'))
    .filter((u) => u.pathname === `/v1/analytics/${sandbox.projectId}/${route}`)
    .map((u) => Object.fromEntries(u.searchParams));

/** Every item of a route read with a plain fetch loop (a cursor while more, or offsets), the requests then forgotten. */
async function bareLoop(
  route: string,
  key: string,
  query: Record<string, string>,
  pageSize: number,
): Promise<unknown[]> {
  const items: unknown[] = [];
  let position: Record<string, string> = route === 'views' || route === 'visitors' ? { offset: '0' } : {};
  for (;;) {
    const url = `${sandbox.baseUrl}/v1/analytics/${sandbox.projectId}/${route}?${new URLSearchParams({ ...query, limit: String(pageSize), ...position })}`;
    const page = (await (
      await fetch(url, { headers: { authorization: `Bearer ${sandbox.apiKey}` } })
    ).json()) as Record<string, unknown>;
    const rows = page[key] as unknown[];
    items.push(...rows);
    const more = route === 'searches' ? page.nextCursor !== null : page.hasMore === true;
    if (!more) break;
    position =
      'offset' in position
        ? { offset: String(Number(position.offset) + rows.length) }
        : { cursor: page.nextCursor as string };
  }
  sandbox.requests.length = 0;
  return items;
}

async function collect<T>(walk: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of walk) items.push(item);
  return items;
}

type Walk = (api: AdminClient, query: { limit?: number }) => AsyncIterable<unknown>;
const ITERATORS: Array<[string, Walk, string, string, number]> = [
  ['feedbackEntries', (api, q) => api.feedbackEntries(sandbox.projectId, q), 'feedback', 'feedback', 100],
  ['conversations', (api, q) => api.conversations(sandbox.projectId, q), 'assistant', 'conversations', 1000],
  ['pageViews', (api, q) => api.pageViews(sandbox.projectId, q), 'views', 'views', 250],
  ['pageVisitors', (api, q) => api.pageVisitors(sandbox.projectId, q), 'visitors', 'visitors', 250],
  ['searchTerms', (api, q) => api.searchTerms(sandbox.projectId, q), 'searches', 'searches', 100],
];

describe('every item of a paged analytics endpoint, the largest page a request', () => {
  it.each(ITERATORS)('%s yields exactly what the API holds, in order', async (_name, walk, route, key, largest) => {
    const expected = await bareLoop(route, key, {}, largest);
    // Enough data for more than one page, so the walk has to follow the paging.
    expect(expected.length).toBeGreaterThan(largest);
    const items = await collect(walk(client(), {}));
    expect(items).toEqual(expected);
    const requests = sent(route);
    expect(requests).toHaveLength(Math.ceil(expected.length / largest));
    expect(requests.map((q) => q.limit)).toEqual(requests.map(() => String(largest)));
    expect(requests[0]).toEqual({ limit: String(largest) });
  });

  it('the walk carries every filter to every page and honours a smaller limit', async () => {
    const query = {
      dateFrom: '2026-10-01',
      dateTo: '2026-11-15',
      source: 'contextual',
      status: 'pending,resolved',
    } as const;
    const expected = (await bareLoop('feedback', 'feedback', query, 20)) as FeedbackItem[];
    expect(expected.length).toBeGreaterThan(20);
    const items = await collect(client().feedbackEntries(sandbox.projectId, { ...query, limit: 20 }));
    expect(items).toEqual(expected);
    expect(items.every((f) => f.source === 'contextual' && (f.status === 'pending' || f.status === 'resolved'))).toBe(
      true,
    );
    const requests = sent('feedback');
    expect(requests).toHaveLength(Math.ceil(expected.length / 20));
    for (const q of requests) expect(q).toMatchObject({ ...query, limit: '20' });
  });

  it('offset pages follow the rows seen, from a given offset (a resumed walk)', async () => {
    const all = (await bareLoop('views', 'views', {}, 250)) as PageTraffic[];
    const rest = await collect(client().pageViews(sandbox.projectId, { offset: 100, limit: 90 }));
    expect(rest).toEqual(all.slice(100));
    expect(sent('views').map((q) => q.offset)).toEqual(['100', '190', '280']);
  });

  it('cursor pages start at a given cursor (a resumed walk)', async () => {
    const all = (await bareLoop('assistant', 'conversations', {}, 1000)) as Conversation[];
    const start = all[700]!.id; // the sandbox's cursor is the next page's first conversation
    const rest = await collect(client().conversations(sandbox.projectId, { cursor: start }));
    expect(rest).toEqual(all.slice(700));
    expect(sent('assistant').map((q) => q.cursor)).toEqual([start, all[1700]!.id]);
  });
});

describe('stopping', () => {
  it.each(ITERATORS)(
    'a break in the loop over %s stops the requests at the page it is on',
    async (_name, walk, route) => {
      let seen = 0;
      for await (const _item of walk(client(), { limit: 5 })) {
        if (++seen === 7) break; // within the second page of 5
      }
      expect(seen).toBe(7);
      expect(sent(route)).toHaveLength(2);
    },
  );

  it('aborting the call signal during a page ends the walk with the reason, and the next page is never asked for', async () => {
    const controller = new AbortController();
    const reason = new Error('enough');
    const seen: string[] = [];
    const walk = async () => {
      for await (const entry of client().feedbackEntries(
        sandbox.projectId,
        { limit: 10 },
        { signal: controller.signal },
      )) {
        seen.push(entry.id);
        if (seen.length === 3) controller.abort(reason);
      }
    };
    await expect(walk()).rejects.toBe(reason);
    // At once: the rest of the page in hand is not yielded after the abort (it used to be drained).
    expect(seen).toHaveLength(3);
    expect(sent('feedback')).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const reason = new Error('not now');
    await expect(
      collect(client().pageVisitors(sandbox.projectId, {}, { signal: AbortSignal.abort(reason) })),
    ).rejects.toBe(reason);
    expect(sandbox.requests).toEqual([]);
  });
});

describe('a bad query is refused before anything is sent', () => {
  it.each<[string, (api: AdminClient) => AsyncIterable<unknown>, string]>([
    [
      'a page past the largest',
      (api) => api.feedbackEntries(sandbox.projectId, { limit: 101 }),
      'limit: 101 is not a page size for feedback entries; give a whole number from 1 to 100 (or none: the largest page)',
    ],
    [
      'a page of none',
      (api) => api.pageViews(sandbox.projectId, { limit: 0 }),
      'limit: 0 is not a page size for pages; give a whole number from 1 to 250 (or none: the largest page)',
    ],
    [
      'a negative offset',
      (api) => api.pageVisitors(sandbox.projectId, { offset: -1 }),
      'offset: -1 is not a number of rows to skip; give a whole number, 0 or more',
    ],
    [
      'an empty cursor',
      (api) => api.conversations(sandbox.projectId, { cursor: '' }),
      'cursor: give the nextCursor of an earlier page, or leave it out to start at the first page',
    ],
    [
      'a date that is not on the calendar',
      (api) => api.conversations(sandbox.projectId, { dateFrom: '2026-02-30' }),
      'dateFrom: "2026-02-30" is not a date; use YYYY-MM-DD (e.g. 2026-11-16), an ISO 8601 date-time (e.g. 2026-11-16T09:30:00Z) or a duration before now (7d, 12h, 2w, 30m)',
    ],
    [
      'a year before the API holds data',
      (api) => api.searchTerms(sandbox.projectId, { dateFrom: '0050-06-15' }),
      'dateFrom: "0050-06-15" is before 2020-01-01, earlier than the Admin API holds any data',
    ],
    [
      'an empty date range',
      (api) => api.pageViews(sandbox.projectId, { dateFrom: '2026-11-16', dateTo: '2026-11-16' }),
      'dateFrom must be before dateTo (dateTo is exclusive: a week is dateFrom 2026-11-16, dateTo 2026-11-23)',
    ],
    [
      'an unknown source',
      (api) => api.feedbackEntries(sandbox.projectId, { source: 'email' as never }),
      'source: "email" is not one of code_snippet, contextual, agent, thumbs_only',
    ],
    [
      'an unknown status',
      (api) => api.feedbackEntries(sandbox.projectId, { status: 'pending,open' }),
      'status: "pending,open" is not a comma-separated list of pending, in_progress, resolved, dismissed',
    ],
    [
      'a project id that would change the path',
      (api) => api.pageViews('../x'),
      'projectId: "../x" is not a project id (letters, digits, "-" and "_" only)',
    ],
  ])('%s', (_name, walk, message) => {
    const made = () => walk(client());
    expect(made).toThrow(UsageError);
    expect(made).toThrow(message);
    expect(sandbox.requests).toEqual([]);
  });
});

// One date check for every way the library sends a date: the one-page calls refuse what the
// iterators refuse, before anything is sent (a rejected promise, as the call's other failures).
describe('the one-page calls check their query as the iterators do', () => {
  it.each<[string, (api: AdminClient) => Promise<unknown>, string]>([
    [
      'listSearches, a day not on the calendar',
      (api) => api.listSearches(sandbox.projectId, { dateFrom: '2026-02-30' }),
      'dateFrom: "2026-02-30" is not a date',
    ],
    [
      'listFeedback, an empty range',
      (api) => api.listFeedback(sandbox.projectId, { dateFrom: '7d', dateTo: '8d' }),
      'dateFrom must be before dateTo',
    ],
    [
      'listConversations, a page past the largest',
      (api) => api.listConversations(sandbox.projectId, { limit: 1001 }),
      'limit: 1001 is not a page size',
    ],
    [
      'listViews, year 50',
      (api) => api.listViews(sandbox.projectId, { dateTo: '0050-01-01' }),
      'dateTo: "0050-01-01" is before 2020-01-01',
    ],
    [
      'listVisitors, words',
      (api) => api.listVisitors(sandbox.projectId, { dateFrom: 'last week' }),
      'dateFrom: "last week" is not a date',
    ],
    [
      'callerStats, a day not on the calendar',
      (api) => api.callerStats(sandbox.projectId, { dateTo: '2026-04-31' }),
      'dateTo: "2026-04-31" is not a date',
    ],
    [
      'feedbackByPage, a day not on the calendar',
      (api) => api.feedbackByPage(sandbox.projectId, { dateFrom: '2026-02-29' }),
      'dateFrom: "2026-02-29" is not a date',
    ],
  ])('%s', async (_name, call, message) => {
    await expect(call(client())).rejects.toThrow(UsageError);
    await expect(call(client())).rejects.toThrow(message);
    expect(sandbox.requests).toEqual([]);
  });

  it('a duration before now (7d, 12h) is sent as the instant it names on the client clock, the same on every page of a walk', async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 22, 12));
    const api = new AdminClient({ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl, clock });
    clients.push(api);
    await api.listSearches(sandbox.projectId, { dateFrom: '2w', dateTo: '12h', limit: 5 });
    expect(sent('searches')).toEqual([
      { dateFrom: '2026-11-08T12:00:00.000Z', dateTo: '2026-11-22T00:00:00.000Z', limit: '5' },
    ]);
    sandbox.requests.length = 0;
    let n = 0;
    for await (const _ of api.searchTerms(sandbox.projectId, { dateFrom: '30d', limit: 10 })) {
      if (++n === 1) clock.advance(3_600_000); // time passes during the walk; the range does not move
    }
    const froms = sent('searches').map((q) => q.dateFrom);
    expect(froms.length).toBeGreaterThan(1);
    expect(new Set(froms)).toEqual(new Set(['2026-10-23T12:00:00.000Z']));
  });
});

describe('answers that would loop are refused after the good pages', () => {
  const feedback = (id: string): FeedbackItem => ({
    id,
    path: '/a',
    comment: null,
    createdAt: '2026-11-20T10:00:00Z',
    source: 'agent',
    status: 'pending',
  });
  const traffic = (path: string): PageTraffic => ({ path, human: 2, ai: 1, total: 3 });
  const fault = (noun: string, problem: string) =>
    `unexpected answer from the API while listing ${noun}: ${problem}; stopped rather than loop (try again later, or report it to Mintlify support if it persists)`;

  it.each<
    [
      string,
      string,
      ReturnType<typeof sequence>,
      (api: AdminClient) => AsyncIterable<{ id?: string; path?: string }>,
      string[],
      string,
      number,
    ]
  >([
    [
      'feedback whose cursor comes back',
      'GET /v1/analytics/proj/feedback',
      sequence(
        json(200, { feedback: [feedback('f1')], nextCursor: 'c1', hasMore: true }),
        json(200, { feedback: [feedback('f2')], nextCursor: 'c1', hasMore: true }),
      ),
      (api) => api.feedbackEntries('proj'),
      ['f1'],
      fault('feedback entries', 'the API sent a cursor it had sent before after 1 page'),
      2,
    ],
    [
      'conversations: an empty first page claiming more',
      'GET /v1/analytics/proj/assistant',
      json(200, { conversations: [], nextCursor: null, hasMore: true }),
      (api) => api.conversations('proj'),
      [],
      fault('conversations', 'the API sent an empty page while saying there are more on the first page'),
      1,
    ],
    [
      'views whose pages run out while claiming more (the offset stops moving)',
      'GET /v1/analytics/proj/views',
      sequence(
        json(200, { totals: { human: 2, ai: 1, total: 3 }, views: [traffic('/a')], hasMore: true }),
        json(200, { totals: { human: 2, ai: 1, total: 3 }, views: [], hasMore: true }),
      ),
      (api) => api.pageViews('proj'),
      ['/a'],
      fault('pages', 'the API sent an empty page while saying there are more after 1 page'),
      2,
    ],
  ])('%s', async (_name, route, handler, walk, good, message, requests) => {
    const server = await startServer({ [route]: handler });
    try {
      const seen: string[] = [];
      const error = await (async () => {
        for await (const item of walk(client(server.url))) seen.push(item.id ?? item.path ?? '');
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('unexpected_answer');
      expect((error as Error).message).toBe(message);
      expect(seen).toEqual(good);
      expect(server.requests).toHaveLength(requests);
      expect(server.unexpected).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('the plain methods of the endpoints that do not page', () => {
  it('thread, caller stats and feedback by page are typed calls of one request each', async () => {
    const expectedByPage = await (
      await fetch(`${sandbox.baseUrl}/v1/analytics/${sandbox.projectId}/feedback/by-page?limit=100`, {
        headers: { authorization: `Bearer ${sandbox.apiKey}` },
      })
    ).json();
    sandbox.requests.length = 0;
    const api = client();
    let first: Conversation | undefined;
    for await (const c of api.conversations(sandbox.projectId, { limit: 1 })) {
      first = c;
      break;
    }
    const thread = await api.getThread(sandbox.projectId, first!.id);
    expect(thread.threadId).toBe(first!.id);
    expect(thread.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', first!.query],
      ['assistant', first!.response],
    ]);
    const stats = await api.callerStats(sandbox.projectId, {});
    expect(stats.web + stats.api + stats.other).toBe(stats.total);
    expect(stats.total).toBe(sandbox.analytics.data.conversations.length);
    const byPage = await api.feedbackByPage(sandbox.projectId, { limit: 100 });
    expect(byPage).toEqual(expectedByPage);
    expect(byPage.feedback.length).toBeGreaterThan(0);
    expect(sandbox.requests.map((r) => r.path.split('?')[0])).toEqual([
      `/v1/analytics/${sandbox.projectId}/assistant`,
      `/v1/analytics/${sandbox.projectId}/assistant/threads/${first!.id}`,
      `/v1/analytics/${sandbox.projectId}/assistant/caller-stats`,
      `/v1/analytics/${sandbox.projectId}/feedback/by-page`,
    ]);
  });
});

// Types the library exports for the answers: a compile-time check that they name the right things.
const _typed: Array<
  SearchTerm['searchQuery'] | Conversation['resolutionStatus'] | FeedbackItem['source'] | PageTraffic['path']
> = [];
void _typed;
