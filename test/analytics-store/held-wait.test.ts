// A wait a 429 asked for is kept on this machine (the request ledger under $XDG_STATE_HOME), so the
// syncs after it send nothing until it ends, even when the server has recovered. They say so: that
// the wait is held here, where, until when, and how to see the hour's requests and start over
// (`analytics budget`, `analytics budget --reset`). Through runCli against the sandbox.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerPath } from '../../src/budget/ledger-file.js';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox(
  { searchTermCount: 40, analytics: { pages: 12, feedback: 20, conversations: 20 } },
  { homePerTest: true },
);
const analyticsRequests = () => t.sandbox.requests.filter((r) => r.path.startsWith('/v1/analytics/')).length;
const env = () => ({ ...t.env(), XDG_STATE_HOME: join(t.home, 'state') });
const cli = (...args: string[]) => runCli(args, { env: env() });

describe('a held wait', () => {
  it('says it is kept on this machine, where, until when, and how to see and clear it; --reset starts over', async () => {
    const db = join(t.home, 'a.duckdb');
    const from = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const ledger = ledgerPath(env(), t.sandbox.baseUrl, t.sandbox.apiKey);
    expect(ledger.startsWith(join(t.home, 'state', 'mint-admin'))).toBe(true);
    t.sandbox.faults.inject({ route: '*', status: 429, retryAfter: 3600, times: 1 });
    const first = await cli('analytics', 'sync', '--db', db, '--from', from);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(
      `stopped: the API asked to wait (429); the wait is kept on this machine (${ledger}) for every analytics command`,
    );

    // The server has recovered (the fault was for one request); this machine still holds the wait.
    const sent = analyticsRequests();
    const held = await cli('analytics', 'sync', '--db', db, '--from', from);
    expect(held.code).toBe(0);
    expect(analyticsRequests()).toBe(sent);
    expect(held.stderr).toMatch(
      new RegExp(
        `stopped: the API asked an earlier command to wait \\(429\\), and this machine keeps that wait \\(${ledger.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\): nothing was sent;.* the next run can continue at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC \\(in (59|1h00)m`,
      ),
    );
    expect(held.stderr).toContain(
      "see the hour's requests: `mint-admin analytics budget`; if the API has recovered, `mint-admin analytics budget --reset` starts over",
    );

    const shown = await cli('analytics', 'budget');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(
      `Analytics requests of the last hour, counted on this machine: ${sent} of the organization's 100`,
    );
    expect(shown.stdout).toMatch(
      /Held wait: the API asked to wait \(429\) until \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in (59|1h00)m/,
    );
    expect(shown.stdout).toContain(`Kept in: ${ledger}`);
    const json = JSON.parse((await cli('analytics', 'budget', '--json')).stdout);
    expect(json).toMatchObject({ ledger, requestsLastHour: sent, limit: 100, nextFreeAt: null });
    expect(Date.parse(json.heldWaitUntil) - Date.now()).toBeGreaterThan(3_500_000);
    expect(analyticsRequests()).toBe(sent);

    const reset = await cli('analytics', 'budget', '--reset');
    expect(reset.code).toBe(0);
    expect(reset.stderr).toContain(
      `reset: this machine's count of the hour's analytics requests and any held wait are forgotten (${ledger})`,
    );
    expect(reset.stdout).toContain('Held wait: none');
    const again = await cli('analytics', 'sync', '--db', db, '--from', from, '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ complete: true, stoppedBy: null, ledger });
    expect(analyticsRequests()).toBeGreaterThan(sent);
  });
});
