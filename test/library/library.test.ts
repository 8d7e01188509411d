// The library as a script uses it: `import { AdminClient, downloadBundle } from 'mint-admin'`, here
// from the source, against the sandbox and small loopback servers. The packed package is tested in
// test/e2e/package.test.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminClient,
  ApiError,
  autopilotRunId,
  ConfigError,
  downloadBundle,
  UsageError,
  type DownloadEvent,
  type PreviewTriggered,
  type SearchTerm,
  type UpdateStatus,
} from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { FakeClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/cli.js';
import { json, startServer } from '../helpers/server.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ searchTermCount: 250 });
});
afterAll(() => sandbox.close());

const clients: AdminClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
function client(opts: Partial<ConstructorParameters<typeof AdminClient>[0]> = {}): AdminClient {
  const made = new AdminClient({ apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl, clock: new FakeClock(), ...opts });
  clients.push(made);
  return made;
}

describe('AdminClient against the sandbox', () => {
  it('starts an export, waits for it and installs the site with downloadBundle', async () => {
    const api = client();
    const seen: string[] = [];
    const job = await api.startExport({ domain: 'docs.example.com' });
    const done = await api.waitForExport(job.jobId, { onProgress: (j) => seen.push(j.status) });
    expect(done.status).toBe('completed');
    expect(seen.at(-1)).toBe('completed');
    expect(seen[0]).not.toBe('completed');

    const dir = tempDir();
    try {
      const events: DownloadEvent[] = [];
      const target = join(dir.path, 'site');
      const result = await downloadBundle({ client: api, jobId: job.jobId, target, onEvent: (e) => events.push(e) });
      const expected = await sandbox.bundleFiles();
      expect(result.directory).toBe(target);
      expect(result.files).toBe(expected.size);
      expect(readFileSync(join(target, 'index.html'))).toEqual(expected.get('index.html'));
      expect(events.at(-1)).toEqual({
        kind: 'info',
        message: expect.stringMatching(new RegExp(`^Extracted ${expected.size} files \\(.+\\) into ${target}$`)),
      });
      // No work directory is left beside the site.
      expect(readdirSync(dir.path)).toEqual(['site']);
      expect(JSON.stringify(events)).not.toContain(sandbox.apiKey);
    } finally {
      dir.cleanup();
    }
  });

  it('walks every page of search terms with searchTerms, in order, 100 a request', async () => {
    const before = sandbox.requests.length;
    const terms: SearchTerm[] = [];
    for await (const term of client().searchTerms(sandbox.projectId, { limit: 100 })) terms.push(term);
    expect(terms).toEqual(sandbox.searchTerms());
    const paths = sandbox.requests.slice(before).map((r) => r.path.split('?')[0]);
    expect(paths).toEqual(Array(3).fill(`/v1/analytics/${sandbox.projectId}/searches`));
  });

  it('stops asking for pages when the loop breaks', async () => {
    const before = sandbox.requests.length;
    const first: string[] = [];
    for await (const term of client().searchTerms(sandbox.projectId, { limit: 100 })) {
      first.push(term.searchQuery);
      if (first.length === 5) break;
    }
    expect(first).toEqual(
      sandbox
        .searchTerms()
        .slice(0, 5)
        .map((t) => t.searchQuery),
    );
    expect(sandbox.requests.length - before).toBe(1);
  });

  it('builds a preview and runs an automation: the build reaches success with its log; the run has an id', async () => {
    const api = client();
    const queued: PreviewTriggered = await api.triggerPreview(sandbox.projectId, 'feat/lib');
    expect(queued.previewUrl).toBe('https://sandbox-feat-lib.mintlify.app');
    const looks: UpdateStatus[] = [];
    do looks.push(await api.getUpdateStatus(queued.statusId));
    while (looks.at(-1)?.status !== 'success' && looks.length < 10);
    expect(looks.map((b) => b.status)).toEqual(['in_progress', 'in_progress', 'in_progress', 'success']);
    expect(looks.at(-1)?.logs?.at(-1)).toBe('Deployed feat/lib');
    const run = await api.triggerAutomationWebhook(sandbox.projectId, 'wf_webhook');
    expect(run).toEqual({ success: true, runId: expect.stringMatching(/^wfi_/) });
  });

  it('starts an Autopilot run: the answer as it came, its run id when it is a plain token', async () => {
    const run = await client().triggerAutopilot(sandbox.projectId, 'Update the changelog');
    expect(run).toEqual({ success: true, runId: expect.stringMatching(/^apr_[0-9a-f]{16}$/) });
    expect(autopilotRunId(run)).toBe(run.runId);
    expect(sandbox.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/v2/autopilot/${sandbox.projectId}/webhook`,
      body: { prompt: 'Update the changelog' },
    });
    expect(autopilotRunId({ ok: true })).toBeUndefined();
    expect(autopilotRunId({ runId: 7 })).toBeUndefined();
    expect(autopilotRunId({ runId: 'a b' })).toBeUndefined();
  });

  it('refuses a job id that would change the URL path before sending anything', async () => {
    const before = sandbox.requests.length;
    await expect(client().getExport('../jobs')).rejects.toThrow(UsageError);
    expect(sandbox.requests.length).toBe(before);
  });
});

describe('settings are checked before anything is sent', () => {
  it.each([
    [
      'an assistant key',
      'mint_dsc_abcdefgh',
      ConfigError,
      /^apiKey holds an assistant API key \(mint_\*{4}efgh\); mint-admin needs an admin API key \(mint_\.\.\.\) from https:/,
    ],
    ['a key with a space', 'mint_abc def', ConfigError, /^apiKey is not an admin API key/],
    ['no key', '', ConfigError, /^apiKey is not an admin API key/],
  ])('%s', (_name, apiKey, type, message) => {
    const made = () => new AdminClient({ apiKey, baseUrl: sandbox.baseUrl });
    expect(made).toThrow(type);
    expect(made).toThrow(message);
  });

  it('a base URL with credentials in it, its password never repeated', () => {
    const make = () => new AdminClient({ apiKey: sandbox.apiKey, baseUrl: 'https://user:secret-pw@api.example.com' });
    expect(make).toThrow(
      'baseUrl: "https://user:REDACTED@api.example.com/" must be a plain origin with no credentials, query or fragment',
    );
    expect(make).not.toThrow(/secret-pw/);
  });
});

describe('waitForExport: a wait no timer can hold is refused before anything is sent', () => {
  // Node's timers hold at most 2^31-1 ms; a longer timeout fired at once, a longer interval not at all.
  it.each<[string, { timeoutMs?: number; intervalMs?: number }, string]>([
    [
      'a timeout past 596 hours',
      { timeoutMs: 2 ** 31 },
      'timeoutMs: 2147483648 is longer than a wait can be timed; the most is 596h (about 24.8 days)',
    ],
    [
      'an interval past 596 hours',
      { intervalMs: 597 * 3_600_000 },
      'intervalMs: 2149200000 is longer than a wait can be timed; the most is 596h (about 24.8 days)',
    ],
    [
      'an endless timeout',
      { timeoutMs: Infinity },
      'timeoutMs: Infinity is longer than a wait can be timed; the most is 596h (about 24.8 days)',
    ],
    [
      'no interval at all (a poll without pause)',
      { intervalMs: 0 },
      'intervalMs: 0 must be at least 100 (milliseconds)',
    ],
    [
      'an interval that is not a number',
      { intervalMs: Number.NaN },
      'intervalMs: NaN must be at least 100 (milliseconds)',
    ],
  ])('%s', async (_name, options, message) => {
    const before = sandbox.requests.length;
    const error = await client()
      .waitForExport('se_1', options)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(message);
    expect(sandbox.requests.length).toBe(before);
  });
});

describe('an AbortSignal on every call', () => {
  it('an already aborted call sends nothing and rejects with the signal reason', async () => {
    const before = sandbox.requests.length;
    const reason = new Error('stop');
    await expect(client().getExport('se_1', { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await expect(client().createAgentJob(sandbox.projectId, 'hi', { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
    expect(sandbox.requests.length).toBe(before);
  });

  it('aborting one call while the server is silent ends that call and not the client', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const server = await startServer({
      'GET /v1/static-export/jobs/se_slow': () => arrived(), // never answers
      'GET /v1/static-export/jobs/se_fast': json(200, {
        jobId: 'se_fast',
        status: 'queued',
        progress: 0,
        pageCount: 0,
        createdAt: '2026-11-22T12:00:00Z',
        updatedAt: '2026-11-22T12:00:00Z',
      }),
    });
    try {
      const api = client({ baseUrl: server.url });
      const controller = new AbortController();
      const slow = api.getExport('se_slow', { signal: controller.signal });
      await requestArrived;
      const reason = new Error('user cancelled');
      controller.abort(reason);
      await expect(slow).rejects.toBe(reason);
      await expect(api.getExport('se_fast')).resolves.toMatchObject({ jobId: 'se_fast', status: 'queued' });
    } finally {
      await server.close();
    }
  });

  it('a paged walk whose server repeats a cursor ends in an ApiError after the good page', async () => {
    const page = {
      searches: [{ searchQuery: 'a', hits: 1, ctr: 0, topClickedPage: null, lastSearchedAt: '2026-11-22T12:00:00Z' }],
      totalSearches: 1,
      nextCursor: 'c1',
    };
    const server = await startServer({ 'GET /v1/analytics/proj/searches': json(200, page) });
    try {
      const seen: string[] = [];
      const walk = async () => {
        for await (const term of client({ baseUrl: server.url }).searchTerms('proj')) seen.push(term.searchQuery);
      };
      const error = await walk().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('unexpected_answer');
      expect((error as Error).message).toMatch(/cursor/);
      expect(seen).toEqual(['a']);
    } finally {
      await server.close();
    }
  });
});

describe('triggerAutopilot: any JSON object is an answer, anything else is not', () => {
  it.each([
    ['extra fields and no runId', { queued: true, eta: 30 }, { queued: true, eta: 30 }],
    ['an empty object', {}, {}],
  ])('%s: returned whole', async (_name, body, expected) => {
    const server = await startServer({ 'POST /v2/autopilot/proj/webhook': json(202, body) });
    try {
      expect(await client({ baseUrl: server.url }).triggerAutopilot('proj', 'Go')).toEqual(expected);
    } finally {
      await server.close();
    }
  });

  it('an array is an ApiError (unexpected_answer), sent once', async () => {
    const server = await startServer({ 'POST /v2/autopilot/proj/webhook': json(202, [{ runId: 'r1' }]) });
    try {
      const error = await client({ baseUrl: server.url })
        .triggerAutopilot('proj', 'Go')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('unexpected_answer');
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('the library bundle', () => {
  it('reaches for no process globals: no environment, no terminal, no exit', () => {
    const bundle = new URL('../../dist/lib/index.js', import.meta.url);
    expect(existsSync(bundle)).toBe(true);
    const text = readFileSync(bundle, 'utf8');
    expect(text.match(/process\.(env|stdout|stderr|stdin|exit|argv|on)\b/g)).toBeNull();
  });
});
