// Ids a script hands the library, whatever their type (parsed JSON gives arrays, numbers, null,
// objects): each is checked by type and content, and a bad one is a UsageError before anything is
// sent. The server here answers nothing and fails the test on any request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, downloadBundle, UsageError } from '../../src/index.js';
import { FakeClock } from '../helpers/clock.js';
import { startServer } from '../helpers/server.js';

let server: Awaited<ReturnType<typeof startServer>>;
let client: AdminClient;
beforeAll(async () => {
  server = await startServer({});
  client = new AdminClient({
    apiKey: 'mint_0123456789abcdef',
    baseUrl: server.url,
    clock: new FakeClock(),
    retry: { attempts: 1 },
  });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const BAD_IDS: Array<[string, unknown]> = [
  ["an array ['..']", ['..']],
  ["an array ['job']", ['job']],
  ['a number', 42],
  ['null', null],
  ['undefined', undefined],
  ['an object', {}],
  ['an empty string', ''],
  ['".."', '..'],
  ['"."', '.'],
  ['"a/b"', 'a/b'],
  ['" x"', ' x'],
  ['a string with a backslash', 'a\\b'],
];

// Each call puts one id into a URL path; `id` is deliberately untyped, as it is in a script's JSON.
const CALLS: Array<[string, (id: never) => Promise<unknown>]> = [
  ['getExport', (id) => client.getExport(id)],
  ['createBundle', (id) => client.createBundle(id)],
  ['waitForExport', (id) => client.waitForExport(id)],
  ['getAgentJob (job id)', (id) => client.getAgentJob('proj', id)],
  ['getAgentJob (project id)', (id) => client.getAgentJob(id, 'job')],
  ['getUpdateStatus', (id) => client.getUpdateStatus(id)],
  ['getThread', (id) => client.getThread('proj', id)],
  ['triggerAutomation', (id) => client.triggerAutomation('proj', id)],
  ['getProjectExport', (id) => client.getProjectExport('proj', id)],
  ['listSearches (project id)', (id) => client.listSearches(id, {})],
  ['searchTerms (project id)', async (id) => client.searchTerms(id).next()],
  ['downloadBundle', (id) => downloadBundle({ client, jobId: id, target: join(scratch(), 'site') })],
];

const dirs: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mint-admin-ids-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('every id is checked by type and content before a request', () => {
  describe.each(CALLS)('%s', (_name, call) => {
    it.each(BAD_IDS)('refuses %s with a UsageError, sending nothing', async (_label, id) => {
      const before = server.requests.length;
      const error = await call(id as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(server.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual([]);
      expect(error).toBeInstanceOf(UsageError);
      expect(String((error as Error).message)).not.toContain('mint_0123456789abcdef');
    });
  });
});
