// The API client the CLI builds (context.ts) is handed its debug sink only under --debug: without it,
// the client would format every request's two debug lines (the URL parsed again to redact it) only
// for them to be dropped. Its lines still come under --debug.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer } from './helpers/server.js';
import { harness, PROJECT } from './commands/agent/harness.js';

const JOB = { id: 'job_1', status: 'running', createdAt: '2026-11-20T00:00:00.000Z', pullRequestUrl: null };
let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer({ [`GET /v2/agent/${PROJECT}/job/job_1`]: json(200, JOB) });
});
afterAll(() => server?.close());

describe('the API client built for a command', () => {
  it.each([
    ['without --debug formats no request line', {}, 0],
    ['with --debug writes each request line', { debug: true }, 2],
  ])('%s', async (_name, globals, lines) => {
    const h = harness(server.url, { globals });
    const formatted: string[] = [];
    const sink = h.ctx.debug;
    h.ctx.debug = (line) => (formatted.push(line), sink(line));
    try {
      await (await h.ctx.api()).getAgentJob(PROJECT, 'job_1');
      expect(formatted).toHaveLength(lines);
      await new Promise((resolve) => setImmediate(resolve)); // the captured stderr's last chunk
      expect(h.stderr().match(/^debug: [<>] /gm) ?? []).toHaveLength(lines);
    } finally {
      await h.cleanup();
    }
  });
});
