// Every retry of a wait or a GET says so on stderr, once (not once by the client and again by the
// wait loop), however brief the pause; --quiet silences the notes.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const fixture = useSandbox();
let jobId: string;
beforeAll(async () => {
  jobId = (await fixture.api<{ id: string }>('POST', `/v2/agent/${fixture.sandbox.projectId}/job`, { prompt: 'x' })).id;
});
beforeEach(() => {
  fixture.sandbox.faults.agentPollsToFinish = 2;
});

const cli = (args: string[]) => fixture.cli(args);
const notes = (stderr: string) => stderr.split('\n').filter((l) => l.includes('retrying'));

describe('retry notes', () => {
  it.each([
    ['one 503', { route: 'agent.get' as const, status: 503, times: 1 }, ['the API answered 503; retrying shortly']],
    [
      'three 502s',
      { route: 'agent.get' as const, status: 502, times: 3 },
      Array(3).fill('the API answered 502; retrying shortly'),
    ],
    [
      'a dropped connection',
      { route: 'agent.get' as const, dropConnection: true },
      ['the connection to the API was dropped; retrying shortly'],
    ],
  ])('a wait says each retry once (%s)', async (_name, fault, expected) => {
    fixture.sandbox.faults.inject(fault);
    const r = await cli(['agent', 'get', jobId, '--wait', '--interval', '100ms']);
    expect(r.code).toBe(0);
    expect(notes(r.stderr)).toEqual(expected.map((n) => `agent job ${jobId}: ${n}`));
  });

  it('a single GET says its brief retry too', async () => {
    fixture.sandbox.faults.inject({ route: 'agent.get', status: 503, times: 2 });
    const r = await cli(['agent', 'get', jobId]);
    expect(r.code).toBe(0);
    // The client's backoff: up to 0.5 s, then up to 1 s (jittered).
    expect(notes(r.stderr)).toHaveLength(2);
    expect(notes(r.stderr)[0]).toBe('the API answered 503; retrying shortly');
    expect(notes(r.stderr)[1]).toMatch(/^the API answered 503; retrying (shortly|in 1s)$/);
  });

  it('--quiet says nothing about retries', async () => {
    fixture.sandbox.faults.inject({ route: 'agent.get', status: 503, times: 2 });
    const r = await cli(['agent', 'get', jobId, '--wait', '--interval', '100ms', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
