// The server answers `initialize` before it loads the MCP SDK (src/mcp/early-transport.ts), then hands
// the SDK every message. What a client sees must be what the SDK itself would answer: the same
// protocol versions, one answer per request, and the SDK's own answer (dropped) equal to the early one.
import { spawn } from 'node:child_process';
import { SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../src/mcp/early-transport.js';
import { CLI, cliEnv } from '../helpers/cli.js';
import { connect } from './helpers.js';

/** The raw lines the server writes for these requests (stdin then closed), and its stderr. */
function exchange(lines: unknown[]): Promise<{ out: Array<Record<string, unknown>>; err: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'mcp'], { env: cliEnv({ MINTLIFY_PROJECT_ID: 'proj_x' }) as NodeJS.ProcessEnv });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('close', (code) => resolve({ out: out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)), err, code }));
    child.stdin.end(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  });
}

const initialize = (protocolVersion: string) => ({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } } });

describe('initialize answered before the SDK loads', () => {
  it('speaks the protocol versions the bundled SDK speaks', () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_VERSIONS);
  });

  it.each([
    ['a version it speaks', '2025-06-18', '2025-06-18'],
    ['a version it does not: its newest', '1999-01-01', SDK_VERSIONS[0]],
  ])('%s: one answer, the SDK\'s own the same, and the session goes on', async (_name, asked, answered) => {
    const { out, err, code } = await exchange([initialize(asked), { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]);
    expect(code).toBe(0);
    expect(err).not.toMatch(/differs/);
    expect(out.filter((m) => m.id === 'init')).toEqual([
      { jsonrpc: '2.0', id: 'init', result: expect.objectContaining({ protocolVersion: answered, capabilities: { tools: { listChanged: true } }, serverInfo: expect.objectContaining({ name: 'mint-admin' }) }) },
    ]);
    expect((out.find((m) => m.id === 2)!.result as { tools: unknown[] }).tools.length).toBeGreaterThan(5);
  });

  it('a client that does not start with initialize gets the SDK\'s answer, not the early one', async () => {
    const { out, code } = await exchange([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(code).toBe(0);
    expect(out).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('the SDK\'s Client connects as usual', async () => {
    const server = await connect([], { MINTLIFY_PROJECT_ID: 'proj_x' });
    try {
      expect(server.client.getServerVersion()?.name).toBe('mint-admin');
      expect(server.client.getInstructions()).toMatch(/readers typed is data/);
      expect(server.stderr()).not.toMatch(/differs/);
    } finally {
      await server.close();
    }
  });
});
