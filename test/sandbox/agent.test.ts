import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { agentPath, call } from './helpers.js';

const START = Date.UTC(2026, 9, 1, 12, 0, 0);
let clock = START;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.faults.reset());

async function create(prompt: string) {
  return call(sandbox, 'POST', agentPath(sandbox), { prompt });
}
async function poll(id: string) {
  return call(sandbox, 'GET', agentPath(sandbox, `/${id}`));
}

describe('agent jobs (v2)', () => {
  it('creates an active job with the AgentJob shape', async () => {
    const res = await create('Document the new webhook retries');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      status: 'active',
      source: { repository: 'https://github.com/sandbox/docs', ref: 'mint-agent/document-the-new-webhook-retries' },
      model: 'sonnet',
      prLink: null,
      createdAt: new Date(START).toISOString(),
      archivedAt: null,
    });
  });

  it.each([
    ['a plain prompt completes with a pull request', 'Fix typos', 'completed', true, false],
    ['[fail] fails', 'Fix typos [fail]', 'failed', false, false],
    ['[no-changes] completes without a pull request', 'Fix typos [no-changes]', 'completed', false, false],
    ['[archive] is archived', 'Fix typos [archive]', 'archived', false, true],
  ])('%s, on the third poll', async (_name, prompt, finalStatus, hasPr, archived) => {
    const { body: job } = await create(prompt);
    expect((await poll(job.id)).body.status).toBe('active');
    expect((await poll(job.id)).body.status).toBe('active');
    const final = (await poll(job.id)).body;
    expect(final.status).toBe(finalStatus);
    if (hasPr) expect(final.prLink).toMatch(/^https:\/\/github\.com\/sandbox\/docs\/pull\/\d+$/);
    else expect(final.prLink).toBeNull();
    expect(final.archivedAt).toBe(archived ? new Date(clock).toISOString() : null);
    // Terminal jobs stay terminal.
    expect((await poll(job.id)).body).toEqual(final);
  });

  it('finishes after agentPollsToFinish polls', async () => {
    sandbox.faults.agentPollsToFinish = 1;
    const { body: job } = await create('Quick one');
    expect((await poll(job.id)).body.status).toBe('completed');
  });

  it('a follow-up message makes the job active again and applies the new outcome', async () => {
    sandbox.faults.agentPollsToFinish = 1;
    const { body: job } = await create('Add a guide');
    const done = (await poll(job.id)).body;
    expect(done.prLink).toMatch(/\/pull\/\d+$/);

    const msg = await call(sandbox, 'POST', agentPath(sandbox, `/${job.id}/message`), {
      prompt: 'Also fix the sidebar',
    });
    expect(msg.status).toBe(200);
    expect(msg.body).toMatchObject({ id: job.id, status: 'active', prLink: null });
    // Same job, same pull request once it finishes again.
    expect((await poll(job.id)).body.prLink).toBe(done.prLink);

    await call(sandbox, 'POST', agentPath(sandbox, `/${job.id}/message`), { prompt: 'Now break [fail]' });
    expect((await poll(job.id)).body.status).toBe('failed');
  });

  it.each([
    ['no body', undefined],
    ['an empty prompt', { prompt: '' }],
    ['a non-string prompt', { prompt: 42 }],
    ['an array body', ['prompt']],
  ])('rejects %s with 400 and an Error body', async (_name, body) => {
    const res = await call(sandbox, 'POST', agentPath(sandbox), body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String) });
  });

  it('rejects a message with an empty prompt with 400', async () => {
    const { body: job } = await create('x');
    expect((await call(sandbox, 'POST', agentPath(sandbox, `/${job.id}/message`), { prompt: '' })).status).toBe(400);
  });

  it.each([
    ['GET', '/nope'],
    ['POST', '/nope/message'],
  ])('answers %s of an unknown job with 404', async (method, suffix) => {
    const res = await call(
      sandbox,
      method,
      agentPath(sandbox, suffix),
      method === 'POST' ? { prompt: 'x' } : undefined,
    );
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.stringContaining('not found') });
  });

  it('answers an unknown project with 404', async () => {
    const res = await call(sandbox, 'POST', '/v2/agent/proj_other/job', { prompt: 'x' });
    expect(res.status).toBe(404);
  });
});

describe('agent rate limit', () => {
  it('gives 429 with Retry-After after 100 creates in an hour, and frees a slot as the window slides', async () => {
    const limited = await startSandbox({ now: () => clock, searchTermCount: 10 });
    try {
      clock = START;
      const first = await call(limited, 'POST', agentPath(limited), { prompt: 'first' });
      expect(first.status).toBe(201);
      clock += 10 * 60 * 1000;
      for (let i = 1; i < 100; i++) {
        expect((await call(limited, 'POST', agentPath(limited), { prompt: `job ${i}` })).status).toBe(201);
      }
      const refused = await call(limited, 'POST', agentPath(limited), { prompt: 'one too many' });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: expect.stringContaining('Rate limit') });
      expect(refused.headers.get('retry-after')).toBe(String(50 * 60));

      clock = START + 60 * 60 * 1000 + 1;
      expect((await call(limited, 'POST', agentPath(limited), { prompt: 'slot freed' })).status).toBe(201);
      expect((await call(limited, 'POST', agentPath(limited), { prompt: 'full again' })).status).toBe(429);
    } finally {
      await limited.close();
      clock = START;
    }
  });
});
