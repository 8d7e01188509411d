// The sandbox's deployments, previews and automations: builds that take a few polls with a growing
// log, both endings, the documented errors and the two rate limits (on an injected clock).
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from './helpers.js';

let open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});

async function sandbox(opts: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const s = await startSandbox(opts);
  open.push(s);
  return s;
}

async function pollToEnd(s: Sandbox, statusId: string) {
  const seen: Array<{ status: string; logs: string[] }> = [];
  for (let i = 0; i < 10; i++) {
    const res = await call(s, 'GET', `/v1/project/update-status/${statusId}`);
    expect(res.status).toBe(200);
    seen.push({ status: res.body.status, logs: res.body.logs });
    if (res.body.status === 'success' || res.body.status === 'failure') return { seen, last: res.body };
  }
  throw new Error('the build never ended');
}

describe('sandbox deployments and previews', () => {
  it('a deployment is queued, runs for a few polls with a growing log, then succeeds', async () => {
    const s = await sandbox();
    const start = await call(s, 'POST', `/v1/project/update/${s.projectId}`);
    expect(start.status).toBe(202);
    expect(start.body).toEqual({ statusId: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const { seen, last } = await pollToEnd(s, start.body.statusId);
    expect(seen.map((x) => x.status)).toEqual(['in_progress', 'in_progress', 'in_progress', 'success']);
    expect(seen.map((x) => x.logs.length)).toEqual([3, 4, 5, 7]);
    expect(last.logs).toEqual([
      expect.stringMatching(/^Cloning main at [0-9a-f]{7}$/),
      'Installing dependencies',
      'Building pages (step 1 of 3)',
      'Building pages (step 2 of 3)',
      'Building pages (step 3 of 3)',
      'Build succeeded',
      'Deployed main',
    ]);
    expect(last).toMatchObject({
      _id: start.body.statusId,
      projectId: s.projectId,
      summary: 'Deployed',
      subdomain: 'sandbox',
      source: 'api',
      commit: { ref: 'main' },
    });
    expect(Date.parse(last.endedAt)).toBeGreaterThanOrEqual(Date.parse(last.createdAt));
  });

  it.each([
    ['a fail/ branch', (_s: Sandbox) => {}, 'fail/broken-nav'],
    ['the buildsFail knob', (s: Sandbox) => void (s.faults.buildsFail = true), 'feat/ok'],
  ])('a preview fails with %s, and answers its URL at once', async (_name, arrange, branch) => {
    const s = await sandbox();
    arrange(s);
    const start = await call(s, 'POST', `/v1/project/preview/${s.projectId}`, { branch });
    expect(start.status).toBe(202);
    expect(start.body.previewUrl).toBe(`https://sandbox-${branch.replace('/', '-')}.mintlify.app`);
    const { last } = await pollToEnd(s, start.body.statusId);
    expect(last).toMatchObject({ status: 'failure', summary: 'Build failed: docs.json is invalid' });
    expect(last.logs.slice(-2)).toEqual(['Error: docs.json: "navigation" is missing', 'Build failed']);
  });

  it.each([
    ['no branch', {}, 400],
    ['an empty branch', { branch: '' }, 400],
  ])('a preview with %s is a 400', async (_name, body, status) => {
    const s = await sandbox();
    expect((await call(s, 'POST', `/v1/project/preview/${s.projectId}`, body)).status).toBe(status);
  });

  it('a plan without previews is a 403; an unknown status id a 404', async () => {
    const s = await sandbox();
    s.faults.previewForbidden = true;
    const res = await call(s, 'POST', `/v1/project/preview/${s.projectId}`, { branch: 'x' });
    expect(res).toMatchObject({
      status: 403,
      body: { error: 'Preview deployments are not available on your current plan.' },
    });
    expect((await call(s, 'GET', '/v1/project/update-status/nope')).status).toBe(404);
  });
});

describe('sandbox automations', () => {
  it('triggers the scheduled automation and the webhook one', async () => {
    const s = await sandbox();
    const trigger = await call(s, 'POST', `/v1/workflow/${s.projectId}/wf_scheduled/trigger`);
    expect(trigger).toMatchObject({
      status: 202,
      body: {
        schemaId: 'wf_scheduled',
        instanceId: expect.stringMatching(/^wfi_/),
        jobId: expect.stringMatching(/^job_/),
      },
    });
    const hook = await call(s, 'POST', `/v2/workflow/${s.projectId}/wf_webhook/webhook`);
    expect(hook).toMatchObject({ status: 202, body: { success: true, runId: expect.stringMatching(/^wfi_/) } });
  });

  it.each([
    ['an unknown automation', 'trigger', 'wf_nope', 404],
    ['the webhook automation', 'trigger', 'wf_webhook', 400],
    ['a scheduled automation by webhook', 'webhook', 'wf_scheduled', 404],
  ])('answers %s by %s with its documented error', async (_name, how, id, status) => {
    const s = await sandbox();
    const path =
      how === 'trigger' ? `/v1/workflow/${s.projectId}/${id}/trigger` : `/v2/workflow/${s.projectId}/${id}/webhook`;
    expect((await call(s, 'POST', path)).status).toBe(status);
  });

  it('402 when credits are exhausted; the webhook 503 knob answers that many 503s', async () => {
    const s = await sandbox();
    s.faults.creditsExhausted = true;
    expect((await call(s, 'POST', `/v1/workflow/${s.projectId}/wf_scheduled/trigger`)).status).toBe(402);
    s.faults.creditsExhausted = false;
    await call(s, 'POST', '/_sandbox/faults', { webhookCreditCheckFailures: 2 }, {});
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await call(s, 'POST', `/v2/workflow/${s.projectId}/wf_webhook/webhook`)).status);
    expect(statuses).toEqual([503, 503, 202]);
  });
});

describe('sandbox rate limits', () => {
  it('update, trigger and webhook share 10 per 10 s; the 11th is a 429 saying when one frees', async () => {
    let now = Date.UTC(2026, 10, 23, 10, 0, 0);
    const s = await sandbox({ now: () => now });
    const paths = [
      `/v1/project/update/${s.projectId}`,
      `/v1/workflow/${s.projectId}/wf_scheduled/trigger`,
      `/v2/workflow/${s.projectId}/wf_webhook/webhook`,
    ];
    const statuses = [];
    for (let i = 0; i < 10; i++) {
      statuses.push((await call(s, 'POST', paths[i % 3]!)).status);
      now += 100;
    }
    expect(statuses).toEqual(Array(10).fill(202));
    const limited = await call(s, 'POST', paths[0]!);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('9');
    now += 9000;
    expect((await call(s, 'POST', paths[0]!)).status).toBe(202);
  });

  it('previews allow 5 per minute, on a budget of their own', async () => {
    let now = Date.UTC(2026, 10, 23, 10, 0, 0);
    const s = await sandbox({ now: () => now });
    for (let i = 0; i < 5; i++)
      expect((await call(s, 'POST', `/v1/project/preview/${s.projectId}`, { branch: `b${i}` })).status).toBe(202);
    const limited = await call(s, 'POST', `/v1/project/preview/${s.projectId}`, { branch: 'b5' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect((await call(s, 'POST', `/v1/project/update/${s.projectId}`)).status).toBe(202);
    now += 60_000;
    expect((await call(s, 'POST', `/v1/project/preview/${s.projectId}`, { branch: 'b5' })).status).toBe(202);
  });
});

describe('sandbox Autopilot', () => {
  it('starts a run for a prompt; a missing or blank prompt is a 400; the 402 and 503 knobs apply', async () => {
    const s = await sandbox();
    const path = `/v2/autopilot/${s.projectId}/webhook`;
    expect(await call(s, 'POST', path, { prompt: 'Update the changelog' })).toMatchObject({
      status: 202,
      body: { success: true, runId: expect.stringMatching(/^apr_[0-9a-f]{16}$/) },
    });
    expect((await call(s, 'POST', path, {})).status).toBe(400);
    expect((await call(s, 'POST', path, { prompt: '  ' })).status).toBe(400);
    expect((await call(s, 'POST', '/v2/autopilot/proj_other/webhook', { prompt: 'Go' })).status).toBe(404);
    s.faults.creditsExhausted = true;
    expect((await call(s, 'POST', path, { prompt: 'Go' })).status).toBe(402);
    s.faults.creditsExhausted = false;
    s.faults.webhookCreditCheckFailures = 1;
    expect((await call(s, 'POST', path, { prompt: 'Go' })).status).toBe(503);
    expect((await call(s, 'POST', path, { prompt: 'Go' })).status).toBe(202);
  });
});
