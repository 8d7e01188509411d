// --timeout bounds the whole wait, including a request in flight: an API that never answers (or
// answers slower than the deadline) still ends the wait with exit 5 within a second of it.
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const fixture = useSandbox();

const cli = (args: string[]) => fixture.cli(args);

async function created(path: string, body: unknown): Promise<Record<string, string>> {
  return fixture.api<Record<string, string>>('POST', path, body);
}

describe('--timeout with a request in flight', () => {
  it.each([
    [
      'agent get --wait',
      'agent.get' as const,
      async () => [
        'agent',
        'get',
        (await created(`/v2/agent/${fixture.sandbox.projectId}/job`, { prompt: 'x' })).id!,
        '--wait',
      ],
    ],
    [
      'export status --wait',
      'export.get' as const,
      async () => [
        'export',
        'status',
        (await created('/v1/static-export/jobs', { domain: 'docs.example.com' })).jobId!,
        '--wait',
      ],
    ],
  ])(
    '%s: an API that does not answer for a minute ends the wait at the deadline with exit 5',
    async (_name, route, args) => {
      fixture.sandbox.faults.inject({ route, delayMs: 60_000, times: 10 });
      const r = await cli([...(await args()), '--timeout', '2s', '--interval', '100ms']);
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(/resume/);
      // No timing: a wait that did not hear the deadline would sit out the minute's delay, past
      // vitest's ceiling, and fail by hanging.
    },
  );
});
