// The server (src/mcp/server.ts) answers tools/list from the build-time file, for every tool the file
// holds, and lets zod convert a tool the file lacks: the server is given here a file that holds a
// stand-in for agent_get only, so which of the two answered shows. In-process, over in-memory stdio.
// (Given as an option, not mocked: the parallel test files share their module graphs.)
import { PassThrough } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createContext } from '../../src/context.js';
import { runMcpServer } from '../../src/mcp/server.js';
import { sdkInputJsonSchema } from '../../src/mcp/sdk-input-json-schema.js';
import { TOOLS } from '../../src/mcp/tools/index.js';
import { tempDir } from '../helpers/cli.js';

const STAND_IN = { type: 'object', properties: { jobId: { type: 'string', description: 'from the file' } }, required: ['jobId'] };

const home = tempDir('mint-admin-mcp-wiring-');
afterAll(() => home.cleanup());

it('tools/list gives the file\'s schema for a tool it holds, and zod\'s for one it lacks', async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const answers = new Map<number, { result: { tools: Array<{ name: string; inputSchema: unknown }> } }>();
  const waiting = new Map<number, () => void>();
  let buffered = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const message = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      answers.set(message.id, message);
      waiting.get(message.id)?.();
    }
  });
  const request = (message: Record<string, unknown>) =>
    new Promise<void>((resolve) => {
      waiting.set(message.id as number, resolve);
      stdin.write(`${JSON.stringify(message)}\n`);
    });
  const io = { stdin, stdout, stderr: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false, columns: undefined };
  const env = { HOME: home.path, XDG_CONFIG_HOME: `${home.path}/xdg` };
  const ctx = createContext({ io, env, clock: systemClock, signal: new AbortController().signal, random: Math.random }, {});
  const running = runMcpServer(ctx, { allow: new Set(), root: home.path, inputJsonSchemas: { agent_get: JSON.stringify(STAND_IN) } });
  await request({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  await request({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  stdin.end();
  await running;
  const listed = new Map(answers.get(1)!.result.tools.map((t) => [t.name, t.inputSchema]));
  expect(listed.get('agent_get')).toEqual({ $schema: 'http://json-schema.org/draft-07/schema#', ...STAND_IN });
  const exportStatus = TOOLS.find((t) => t.name === 'export_status')!;
  expect(listed.get('export_status')).toEqual(sdkInputJsonSchema(exportStatus.input));
});
