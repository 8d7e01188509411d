// tools/list's JSON Schema made at build time (src/mcp/input-json-schema.ts): the committed file is
// zod's own output for the tools as they are (regenerate with `npm run mcp-schemas`), the SDK answers
// tools/list from it while still validating calls with the zod schema, and the built server lists it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { number, string } from 'zod';
import { INPUT_JSON_SCHEMAS } from '../../src/mcp/input-json-schemas.generated.js';
import { useBuiltJsonSchema } from '../../src/mcp/input-json-schema.js';
import { sdkInputJsonSchema } from '../../src/mcp/sdk-input-json-schema.js';
import { TOOLS } from '../../src/mcp/tools/index.js';
import { useSandbox } from '../helpers/sandbox.js';
import { connect, type Connected } from './helpers.js';

describe('the generated file', () => {
  it('holds every tool, and nothing else', () => {
    expect(Object.keys(INPUT_JSON_SCHEMAS).sort(), 'run `npm run mcp-schemas`').toEqual(TOOLS.map((t) => t.name).sort());
  });

  it.each(TOOLS.map((t) => [t.name, t] as const))('%s: is what zod makes of its input schema today', (name, tool) => {
    expect(JSON.parse(INPUT_JSON_SCHEMAS[name]!), `${name}'s schema changed: run \`npm run mcp-schemas\``).toEqual(sdkInputJsonSchema(tool.input));
  });
});

describe('a built JSON Schema on a registered tool', () => {
  const BUILT = { type: 'object', properties: { a: { type: 'string', description: 'from the file' } }, required: ['a'] };
  let client: Client;
  beforeAll(async () => {
    const server = new McpServer({ name: 't', version: '1' });
    const registered = server.registerTool('t', { description: 'd', inputSchema: { a: string(), n: number().optional() } }, async ({ a }) => ({ content: [{ type: 'text', text: a }] }));
    useBuiltJsonSchema(registered.inputSchema, JSON.stringify(BUILT));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'c', version: '1' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  });
  afterAll(() => client?.close());

  it('is what tools/list answers, the same at each answer (zod is handed a fresh copy to write into)', async () => {
    const first = await client.listTools();
    const second = await client.listTools();
    expect(first.tools[0]!.inputSchema).toEqual({ $schema: 'http://json-schema.org/draft-07/schema#', ...BUILT });
    expect(second.tools[0]!.inputSchema).toEqual(first.tools[0]!.inputSchema);
  });

  it('leaves the call to be checked against the zod schema', async () => {
    expect(await client.callTool({ name: 't', arguments: { a: 'yes' } })).toMatchObject({ content: [{ text: 'yes' }] });
    const refused = await client.callTool({ name: 't', arguments: { a: 'yes', n: 'not a number' } });
    expect(refused.isError).toBe(true);
  });
});

describe('the built server', () => {
  const fx = useSandbox();
  let server: Connected;
  beforeAll(async () => {
    server = await connect(['--allow', 'agent,export,deploy,preview,automation,autopilot'], fx.env());
  });
  afterAll(() => server?.close());

  it('lists each tool with the JSON Schema of the file', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(INPUT_JSON_SCHEMAS).sort());
    for (const tool of tools) expect(tool.inputSchema, tool.name).toEqual(JSON.parse(INPUT_JSON_SCHEMAS[tool.name]!));
  });
});
