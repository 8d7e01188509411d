// autopilot_run through a real MCP client over stdio (the built CLI) against the sandbox: listed only
// with --allow autopilot, a run id, the webhook family's refusals (402, 404, 503) in words that say
// no run started, an answer that never came as "it may have started", sent once, never the key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { autopilotRun } from '../../src/mcp/tools/autopilot.js';
import { useSandbox } from '../helpers/sandbox.js';
import { connect, dataOf, textOf, traffic, type Connected } from './helpers.js';

const fx = useSandbox();
let allowed: Connected;

beforeAll(async () => {
  allowed = await connect(['--allow', 'autopilot'], fx.env());
});
afterAll(async () => {
  await allowed?.close();
});

const run = (server: Connected, args: Record<string, unknown>) =>
  server.client.callTool({ name: 'autopilot_run', arguments: args });
const posts = () =>
  fx.sandbox.requests.filter((r) => r.origin === 'api' && r.method === 'POST' && r.path.includes('/autopilot/'));

describe('autopilot_run', () => {
  it('is listed only with --allow autopilot, as a write tool sent once that talks to the API', async () => {
    const { tools } = await allowed.client.listTools();
    const tool = tools.find((t) => t.name === 'autopilot_run');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false, openWorldHint: true });
    expect(tool?.inputSchema.required).toEqual(['prompt']);
    const readOnly = await connect(['--allow', 'agent'], fx.env());
    try {
      expect((await readOnly.client.listTools()).tools.map((t) => t.name)).not.toContain('autopilot_run');
      expect((await run(readOnly, { prompt: 'Update the changelog' })).isError).toBe(true);
    } finally {
      await readOnly.close();
    }
    expect(posts()).toEqual([]);
  });

  it('starts a run and answers its run id; an empty prompt is refused before anything is sent', async () => {
    const got = dataOf(await run(allowed, { prompt: 'Update the changelog for v2.4' }));
    expect(got.runId).toMatch(/^apr_[0-9a-f]+$/);
    expect(got.next).toMatch(/cannot follow it/);
    expect(posts()).toHaveLength(1);
    expect((await run(allowed, { prompt: '' })).isError).toBe(true);
    expect(posts()).toHaveLength(1);
  });

  it('402: credits exhausted, no run started, tell the user', async () => {
    fx.sandbox.faults.creditsExhausted = true;
    const refused = await run(allowed, { prompt: 'x' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^AI credits are exhausted for this billing cycle \(402[^\n]*\); no run was started\nNext step: tell the user/,
    );
  });

  it('404: a project without Autopilot, said as such', async () => {
    const other = await connect(['--allow', 'autopilot'], { ...fx.env(), MINTLIFY_PROJECT_ID: 'proj_other' });
    try {
      const refused = await run(other, { prompt: 'x' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(
        /^Autopilot cannot be run for this project \(404[^\n]*\n.*check the project id this server runs with/s,
      );
    } finally {
      await other.close();
    }
  });

  it('one 503 (the credit check, before anything starts) is sent again and the run starts', async () => {
    fx.sandbox.faults.webhookCreditCheckFailures = 1;
    expect(dataOf(await run(allowed, { prompt: 'x' })).runId).toMatch(/^apr_/);
    expect(posts()).toHaveLength(2);
  });

  it('a 503 on every try: no run was started, call again later', () => {
    const failure = autopilotRun.explain!(
      new ApiError('Service Unavailable', 503, { serverMessage: 'Credit check failed. Retry the request.' }),
    );
    expect(failure).toEqual({
      message:
        'the credit check failed (503: Credit check failed. Retry the request.) on every try; no run was started',
      next: 'call autopilot_run again in a few minutes',
    });
  });

  it.each([
    ['a dropped connection', { dropConnection: true }],
    ['a 502', { status: 502, body: { error: 'bad gateway' } }],
  ])('%s under the start: it may have started, check before calling again; sent once', async (_name, fault) => {
    fx.sandbox.faults.inject({ route: 'autopilot.webhook', ...fault });
    const failed = await run(allowed, { prompt: 'x' });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(
      /\nNext step: the run may have started anyway: check Autopilot in the Mintlify dashboard .*before calling autopilot_run again, or it may run twice$/,
    );
    expect(posts()).toHaveLength(1);
  });

  it('no message either way held the key', () => {
    expect(traffic.length).toBeGreaterThan(10);
    for (const message of traffic) expect(message).not.toContain(fx.sandbox.apiKey);
  });
});
