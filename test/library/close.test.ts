// close() ends a client: a call made afterwards says so, sending nothing (it used to fail as a network
// error, UND_ERR_DESTROYED, that sent the script looking at its proxy), and a call still waiting on
// the API when the client closes ends with the same error.
import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient, UsageError } from '../../src/index.js';
import { json, startServer, type Handler } from '../helpers/server.js';

const KEY = 'mint_libraryCloseTest0123456789';
const JOB = {
  id: 'job_1',
  status: 'active',
  source: { repository: 'acme/docs', ref: 'main' },
  model: 'sonnet',
  prLink: null,
  createdAt: '2026-11-22T12:00:00.000Z',
  archivedAt: null,
};
const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function clientOf(routes: Record<string, Handler>) {
  const server = await startServer(routes);
  servers.push(server);
  return { server, client: new AdminClient({ apiKey: KEY, baseUrl: server.url }) };
}

describe('AdminClient.close()', () => {
  it('a call after close() is a UsageError saying the client is closed, and nothing is sent', async () => {
    const { server, client } = await clientOf({ 'GET /v2/agent/proj/job/job_1': json(200, JOB) });
    expect((await client.getAgentJob('proj', 'job_1')).id).toBe('job_1');
    await client.close();
    const error = await client.getAgentJob('proj', 'job_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('this AdminClient is closed: make a new one to call the API again');
    expect(server.requests).toHaveLength(1);
    expect(server.unexpected).toEqual([]);
  });

  it('an iterator started after close() ends with the same error before any request', async () => {
    const { server, client } = await clientOf({});
    await client.close();
    const walk = async () => {
      for await (const term of client.searchTerms('proj', { dateFrom: '2026-11-01' })) void term;
    };
    await expect(walk()).rejects.toThrow('this AdminClient is closed');
    expect(server.requests).toEqual([]);
  });

  it('a call waiting on the API when the client closes ends at once with that error', async () => {
    const { server, client } = await clientOf({ 'GET /v2/agent/proj/job/job_1': () => undefined });
    const pending = client.getAgentJob('proj', 'job_1').catch((e: unknown) => e);
    while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await client.close();
    expect(await pending).toBeInstanceOf(UsageError);
  });

  it('close() twice is harmless', async () => {
    const { client } = await clientOf({});
    await client.close();
    await expect(client.close()).resolves.toBeUndefined();
  });
});
