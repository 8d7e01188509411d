// An abort ends a list iterator at once: the rest of the page in hand is not yielded, a wait for the
// next page ends with the signal's reason, and no further page is asked for. Through the public
// library entry, against the sandbox and a loopback server.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminClient, type FeedbackItem } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { FakeClock } from '../helpers/clock.js';
import { json, sequence, startServer } from '../helpers/server.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ searchTermCount: 230 });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.requests.length = 0;
});

const clients: AdminClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
function client(options: { baseUrl?: string; signal?: AbortSignal } = {}): AdminClient {
  const made = new AdminClient({
    apiKey: sandbox.apiKey,
    baseUrl: options.baseUrl ?? sandbox.baseUrl,
    signal: options.signal,
    clock: new FakeClock(),
  });
  clients.push(made);
  return made;
}

const searchRequests = () =>
  sandbox.requests.filter(
    (r) => new URL(r.path, 'http://x').pathname === `/v1/analytics/${sandbox.projectId}/searches`,
  );

describe('aborting a list iterator', () => {
  it.each([
    ['the call signal', (signal: AbortSignal) => client().searchTerms(sandbox.projectId, {}, { signal })],
    ["the client's signal", (signal: AbortSignal) => client({ signal }).searchTerms(sandbox.projectId)],
  ])(
    'by %s after the first item of a 100-item page: ends with the reason, none of the other 99 yielded, no further request',
    async (_name, walk) => {
      const controller = new AbortController();
      const reason = new Error('enough');
      const terms = walk(controller.signal)[Symbol.asyncIterator]();
      const first = await terms.next();
      expect(first.done).toBe(false);
      controller.abort(reason);
      await expect(terms.next()).rejects.toBe(reason);
      // Ended: the 99 terms still in hand are never handed out.
      await expect(terms.next()).resolves.toEqual({ done: true, value: undefined });
      expect(searchRequests()).toHaveLength(1);
      expect(Object.fromEntries(new URL(searchRequests()[0]!.path, 'http://x').searchParams)).toEqual({ limit: '100' });
    },
  );

  it('in a for-await loop: the loop ends with the reason after the item it was on', async () => {
    const controller = new AbortController();
    const reason = new Error('stop here');
    const seen: string[] = [];
    const loop = async () => {
      for await (const term of client().searchTerms(sandbox.projectId, {}, { signal: controller.signal })) {
        seen.push(term.searchQuery);
        if (seen.length === 1) controller.abort(reason);
      }
    };
    await expect(loop()).rejects.toBe(reason);
    expect(seen).toHaveLength(1);
    expect(searchRequests()).toHaveLength(1);
  });

  it('while it waits for the next page: ends with the reason at once, and asks for nothing more', async () => {
    const controller = new AbortController();
    const reason = new Error('no longer needed');
    const entry: FeedbackItem = {
      id: 'f1',
      path: '/a',
      comment: null,
      createdAt: '2026-11-20T10:00:00Z',
      source: 'agent',
      status: 'pending',
    };
    const server = await startServer({
      'GET /v1/analytics/proj/feedback': sequence(
        json(200, { feedback: [entry], nextCursor: 'c1', hasMore: true }),
        // The second page is never answered: the abort, sent once it is asked for, is what ends the wait.
        () => controller.abort(reason),
      ),
    });
    try {
      const seen: string[] = [];
      const loop = async () => {
        for await (const item of client({ baseUrl: server.url }).feedbackEntries(
          'proj',
          {},
          { signal: controller.signal },
        ))
          seen.push(item.id);
      };
      await expect(loop()).rejects.toBe(reason);
      expect(seen).toEqual(['f1']);
      expect(server.requests).toHaveLength(2);
      expect(server.unexpected).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
