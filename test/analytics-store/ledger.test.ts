// The local ledger of analytics requests: every command that calls an analytics endpoint records each
// request it sends (retries included, as the server counts them) in one file per key and base URL,
// named by a hash (never the key), 0600 in a 0700 directory; a 429's Retry-After is recorded too.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileRequestLedger, ledgerPath, stateDirectory } from '../../src/budget/ledger-file.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox(
  { searchTermCount: 120, analytics: { pages: 30, feedback: 40, conversations: 40 } },
  { homePerTest: true },
);
const analyticsRequests = () => t.sandbox.requests.filter((r) => r.path.startsWith('/v1/analytics/')).length;

describe('the request ledger', () => {
  it.each([
    ['searches list', ['searches', 'list', '--limit', '50', '--format', 'json']],
    ['analytics views', ['analytics', 'views', '--format', 'json']],
    ['analytics gaps', ['analytics', 'gaps', '--format', 'json']],
  ])('`%s` records each analytics request it sends, in a file named by no key', async (_name, args) => {
    const r = await runCli(args, { env: t.env() });
    expect(r.code).toBe(0);
    const path = ledgerPath({ HOME: t.home }, t.sandbox.baseUrl, t.sandbox.apiKey);
    expect(path.startsWith(join(t.home, '.local', 'state', 'mint-admin'))).toBe(true);
    expect(path).not.toContain(t.sandbox.apiKey);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBe(analyticsRequests());
    expect(lines.length).toBeGreaterThan(0);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(path, '..')).join(' ')).not.toContain(t.sandbox.apiKey);
  });

  it("counts every try of a retried request, and records a 429's Retry-After", async () => {
    t.sandbox.faults.inject({ route: 'views.list', status: 503, times: 1 });
    t.sandbox.faults.inject({ route: 'views.list', status: 429, retryAfter: 2 });
    const r = await runCli(['analytics', 'views', '--format', 'json'], { env: t.env() });
    expect(r.code).toBe(0);
    const ledger = new FileRequestLedger(ledgerPath({ HOME: t.home }, t.sandbox.baseUrl, t.sandbox.apiKey));
    const lines = readFileSync(ledger.path, 'utf8').split('\n').filter(Boolean);
    expect(lines.filter((l) => !l.startsWith('R ')).length).toBe(analyticsRequests());
    expect(analyticsRequests()).toBe(3);
    expect(lines.filter((l) => l.startsWith('R '))).toHaveLength(1);
  });

  it('reads only the last hour and the latest Retry-After still ahead', () => {
    const dir = tempDir();
    try {
      const ledger = new FileRequestLedger(join(dir.path, 'state', 'x.log'));
      const now = 10_000_000;
      for (const at of [now - 3_700_000, now - 3_500_000, now - 10, now]) ledger.record(at);
      ledger.recordRetryAfter(now - 5);
      ledger.recordRetryAfter(now + 60_000);
      expect(ledger.read(now)).toEqual({ recent: [now - 3_500_000, now - 10, now], retryAfter: now + 60_000 });
    } finally {
      dir.cleanup();
    }
  });

  it('ignores a stored Retry-After past the longest believable wait, so a ledger poisoned by an older version heals', () => {
    const dir = tempDir();
    try {
      const ledger = new FileRequestLedger(join(dir.path, 'state', 'x.log'));
      const now = Date.UTC(2026, 10, 22, 12);
      ledger.recordRetryAfter(99999999999999 * 1000 + now); // no Date can hold it: toISOString throws
      ledger.recordRetryAfter(now + 315360000 * 1000); // ten years
      ledger.recordRetryAfter(now + 3_600_001);
      expect(ledger.read(now).retryAfter).toBeUndefined();
      ledger.recordRetryAfter(now + 3_600_000);
      expect(ledger.read(now).retryAfter).toBe(now + 3_600_000);
    } finally {
      dir.cleanup();
    }
  });

  it.each([['99999999999999'], ['315360000']])(
    'a 429 with Retry-After %s stops the sync for an hour at most (exit 0, said when), and a ledger holding it heals',
    async (seconds) => {
      const db = join(t.home, 'a.duckdb');
      const from = new Date().toISOString().slice(0, 10);
      t.sandbox.faults.inject({ route: '*', status: 429, retryAfter: seconds });
      const before = Date.now();
      const r = await runCli(['analytics', 'sync', '--db', db, '--from', from, '--json'], { env: t.env() });
      expect(r.stderr).not.toMatch(/error/);
      expect(r.code).toBe(0);
      const summary = JSON.parse(r.stdout) as { stoppedBy: string; nextRunAt: string };
      expect(summary.stoppedBy).toBe('rate-limited');
      const wait = Date.parse(summary.nextRunAt) - before;
      expect(wait).toBeGreaterThanOrEqual(3_600_000 - 1000);
      expect(wait).toBeLessThanOrEqual(3_600_000 + 60_000);

      // An older version stored the whole wait; the next run must not be held by it.
      const ledger = ledgerPath({ HOME: t.home }, t.sandbox.baseUrl, t.sandbox.apiKey);
      writeFileSync(ledger, `R ${Date.now() + Number(seconds) * 1000}\n`);
      const sent = analyticsRequests();
      const again = await runCli(['analytics', 'sync', '--db', db, '--from', from, '--json'], { env: t.env() });
      expect(again.code).toBe(0);
      expect((JSON.parse(again.stdout) as { stoppedBy: string | null }).stoppedBy).toBeNull();
      expect(analyticsRequests()).toBeGreaterThan(sent);
    },
  );

  it('lives under $XDG_STATE_HOME when it is absolute', () => {
    expect(stateDirectory({ XDG_STATE_HOME: '/s', HOME: '/h' })).toBe('/s/mint-admin');
    expect(stateDirectory({ XDG_STATE_HOME: 'rel', HOME: '/h' })).toBe('/h/.local/state/mint-admin');
  });
});
