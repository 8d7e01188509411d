// The build's changes to the MCP SDK in its chunk (scripts/mcp-sdk-schemas.mjs, scripts/mcp-sdk-ajv.mjs):
// they must apply to the SDK the lockfile pins, fail loudly on a types.js of another shape, and leave
// a chunk whose schemas and validator behave as the SDK's own.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
// @ts-expect-error: build scripts (plain ESM JavaScript), not part of the typed sources
import { lazySdkAjv } from '../../scripts/mcp-sdk-ajv.mjs';
// @ts-expect-error: as above
import { lazySdkSchemas, makeSchemasLazy } from '../../scripts/mcp-sdk-schemas.mjs';
// @ts-expect-error: as above
import { lazySdkZod3 } from '../../scripts/mcp-sdk-zod3.mjs';

const root = new URL('../../', import.meta.url);
const require = createRequire(root);
const typesFile = require.resolve('@modelcontextprotocol/sdk/types.js').replace(/[\\/]cjs[\\/]types\.js$/, '/esm/types.js');
const typesText = readFileSync(typesFile, 'utf8');
const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
const transform = makeSchemasLazy as (text: string, fileName?: string) => { text: string; wrapped: string[] };

describe('the MCP SDK schema transform', () => {
  it('applies to the SDK version in the lockfile', () => {
    const lock = JSON.parse(readFileSync(fileURLToPath(new URL('package-lock.json', root)), 'utf8')) as { packages: Record<string, { version: string }> };
    const installed = JSON.parse(readFileSync(new URL('../../package.json', `file://${typesFile}`), 'utf8')) as { version: string };
    expect(installed.version).toBe(lock.packages['node_modules/@modelcontextprotocol/sdk']!.version);
    const { text, wrapped } = transform(typesText, typesFile);
    expect(wrapped.length).toBeGreaterThanOrEqual(150);
    expect(wrapped).toContain('JSONRPCMessageSchema');
    // Every wrapped schema's initializer became a pure, lazy build of the same call, and nothing else
    // changed but the helper's definition after the imports.
    const opening = /\/\* @__PURE__ \*\/ __mintLazySchema\(\(\) => /g;
    expect(text.match(opening)).toHaveLength(wrapped.length);
    const helper = /\nconst __mintLazySchema = [^]*?\n};\n/.exec(text)![0];
    expect(text.length).toBe(typesText.length + helper.length + wrapped.length * ('/* @__PURE__ */ __mintLazySchema(() => '.length + ')'.length));
  });

  it('gives schemas that zod and the SDK treat as the ones it replaces', async () => {
    // The transformed module beside the original, both importing the same zod (as in the bundle).
    const zodUrl = pathToFileURL(require.resolve('zod/v4')).href;
    const dir = tempDir();
    try {
      const file = join(dir.path, 'types.mjs');
      writeFileSync(file, transform(typesText, typesFile).text.replace("from 'zod/v4'", `from ${JSON.stringify(zodUrl)}`).replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'));
      type Types = Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown; error?: { issues: unknown[] } } }>;
      const lazy = (await import(pathToFileURL(file).href)) as Types;
      const eager = (await import(pathToFileURL(typesFile).href)) as Types;
      const z = (await import(zodUrl)) as typeof import('zod/v4');
      expect(Object.keys(lazy).sort()).toEqual(Object.keys(eager).sort());
      const messages: unknown[] = [
        { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'c', version: '1' } } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'agent_get', arguments: { id: 'x' }, _meta: { progressToken: 3 } } },
        { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'hi' }], isError: true } },
        { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'bad' } },
        { jsonrpc: '1.0', id: 4, method: 'ping' },
        { id: 'x', method: 7 },
      ];
      for (const name of ['JSONRPCMessageSchema', 'ClientRequestSchema', 'ClientNotificationSchema', 'CallToolRequestSchema', 'InitializeRequestSchema', 'CallToolResultSchema', 'ServerResultSchema']) {
        for (const message of messages) expect(lazy[name]!.safeParse(message), `${name} on ${JSON.stringify(message)}`).toEqual(eager[name]!.safeParse(message));
      }
      // zod's own checks: instanceof (its trait check), the internals, composing and extending a lazy schema.
      const initialize = lazy.InitializeRequestSchema as unknown as import('zod/v4').ZodObject;
      expect(initialize instanceof z.ZodObject).toBe(true);
      expect(initialize._zod.def.type).toBe('object');
      expect((initialize.shape.method as unknown as import('zod/v4').ZodLiteral<string>).value).toBe('initialize');
      const extended = initialize.extend({ extra: z.number() });
      expect(extended.safeParse({ method: 'initialize', params: messages[0] && (messages[0] as { params: unknown }).params, extra: 1 }).success).toBe(true);
      expect(z.union([initialize, z.string()]).safeParse('s').success).toBe(true);
      expect(z.toJSONSchema(lazy.ImplementationSchema as unknown as import('zod/v4').ZodType)).toEqual(z.toJSONSchema(eager.ImplementationSchema as unknown as import('zod/v4').ZodType));
    } finally {
      dir.cleanup();
    }
  });

  it('fails the build when types.js no longer has the expected shape', () => {
    // A release that built its schemas some other way (here: a factory per schema) leaves nothing to wrap.
    const changed = typesText.replace(/^(export )?const (\w+Schema) = /gm, '$1const $2 = make(() => null) || ');
    expect(() => transform(changed, 'types.js')).toThrow(/no longer have the shape .* expects/);
    expect(() => transform("import * as z from 'zod/v4';\nexport const JSONRPCMessageSchema = z.union([]);\n", 'types.js')).toThrow(/at least 150/);
  });

  it('fails the build when the SDK no longer has the files or imports the chunk\'s transforms expect', async () => {
    const { build } = await import('esbuild');
    const dir = tempDir();
    try {
      // An MCP chunk without the SDK's types.js, and whose SDK imports neither ajv nor zod 3: each
      // transform would apply to nothing.
      writeFileSync(join(dir.path, 'entry.js'), 'export const x = 1;\n');
      for (const plugin of [lazySdkSchemas(), lazySdkAjv(), lazySdkZod3()]) {
        const attempt = build({ entryPoints: { 'vendor-mcp': join(dir.path, 'entry.js') }, outdir: join(dir.path, 'out'), bundle: true, metafile: true, logLevel: 'silent', plugins: [plugin] });
        await expect(attempt).rejects.toThrow(/no longer (imports|keeps|applies)|as scripts\/mcp-sdk-zod3\.mjs expects/);
      }
    } finally {
      dir.cleanup();
    }
  });

  it('leaves out of the built MCP chunk the schemas nothing references', () => {
    const meta = JSON.parse(readFileSync(fileURLToPath(new URL('dist/cli-meta.json', root)), 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
    };
    const inputs = meta.outputs['dist/cli/vendor-mcp.cjs']!.inputs;
    const types = Object.entries(inputs).find(([input]) => /@modelcontextprotocol\/sdk\/dist\/esm\/types\.js$/.test(input));
    // 12.4 KB minified with every schema; the server references about half of them.
    expect(types?.[1].bytesInOutput).toBeLessThan(9_000);
  });
});

describe('the MCP chunk as built', () => {
  it('leaves ajv and zod 3 to chunks of their own, which the start never loads', () => {
    const meta = JSON.parse(readFileSync(fileURLToPath(new URL('dist/cli-meta.json', root)), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
    const inputs = Object.keys(meta.outputs['dist/cli/vendor-mcp.cjs']!.inputs);
    expect(inputs.filter((input) => /node_modules\/(ajv|ajv-formats|zod\/v3|zod-to-json-schema)\//.test(input))).toEqual([]);
    expect(Object.keys(meta.outputs['dist/cli/vendor-mcp-ajv.cjs']!.inputs).some((input) => input.includes('node_modules/ajv/'))).toBe(true);
    expect(Object.keys(meta.outputs['dist/cli/vendor-mcp-zod3.cjs']!.inputs).some((input) => input.includes('node_modules/zod-to-json-schema/'))).toBe(true);
  });

  // scripts/mcp-sdk-zod3.mjs: the SDK's two uses of zod 3 reach it through stand-ins.
  it('still takes a zod 3 input schema, and lists it as JSON Schema', async () => {
    const chunk = createRequire(import.meta.url)(fileURLToPath(new URL('dist/cli/vendor-mcp.cjs', root))) as typeof import('../../src/mcp/sdk.js');
    const z3 = require('zod/v3') as typeof import('zod/v3');
    const server = new chunk.McpServer({ name: 't', version: '1' });
    server.registerTool('v3_tool', { description: 'd', inputSchema: { name: z3.string().describe('who') } as never }, async () => ({ content: [] }));
    const { PassThrough } = await import('node:stream');
    const input = new PassThrough();
    const output = new PassThrough();
    const answers: Array<{ id: number; result: { tools: Array<{ inputSchema: unknown }> } }> = [];
    output.setEncoding('utf8').on('data', (chunkText: string) => answers.push(...chunkText.trim().split('\n').map((line) => JSON.parse(line))));
    await server.connect(new chunk.StdioServerTransport(input, output));
    input.write(`${JSON.stringify(INITIALIZE)}\n${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`);
    await expect.poll(() => answers.find((a) => a.id === 1)).toBeDefined();
    await server.close();
    expect(answers.find((a) => a.id === 1)!.result.tools[0]!.inputSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string', description: 'who' } }, required: ['name'] });
  });

  // scripts/mcp-sdk-ajv.mjs: the Server's JSON Schema validator (form elicitation) loads ajv on first use.
  it("still validates a form elicitation's answer with the SDK's ajv validator", () => {
    const chunk = createRequire(import.meta.url)(fileURLToPath(new URL('dist/cli/vendor-mcp.cjs', root))) as typeof import('../../src/mcp/sdk.js');
    const server = new chunk.McpServer({ name: 't', version: '1' });
    type Validator = { getValidator(schema: object): (input: unknown) => { valid: boolean; errorMessage?: string } };
    const validator = (server.server as unknown as { _jsonSchemaValidator: Validator })._jsonSchemaValidator;
    const check = validator.getValidator({ type: 'object', properties: { n: { type: 'integer' }, mail: { type: 'string', format: 'email' } }, required: ['n'] });
    expect(check({ n: 1, mail: 'a@example.com' }).valid).toBe(true);
    expect(check({ n: 1, mail: 'not a mail' })).toMatchObject({ valid: false, errorMessage: expect.stringMatching(/email/) });
    expect(check({ n: 'x' })).toMatchObject({ valid: false, errorMessage: expect.stringMatching(/integer/) });
  });

  // src/mcp/zod-jitless.ts: set before the SDK's modules make a schema (zod reads it when it makes one).
  it("makes zod's schemas without compiled parsers, from the chunk's first schema on", () => {
    const chunk = fileURLToPath(new URL('dist/cli/vendor-mcp.cjs', root));
    // A server answering initialize over the SDK's transport: zod parses the message with the
    // JSON-RPC and initialize schemas (objects: what zod would compile a parser for).
    const probe = `const F = globalThis.Function; let compiled = 0; globalThis.Function = new Proxy(F, { construct(t, a) { compiled++; return Reflect.construct(t, a); }, apply(t, self, a) { compiled++; return Reflect.apply(t, self, a); } });
      const m = require(${JSON.stringify(chunk)}); const { PassThrough } = require('node:stream');
      const server = new m.McpServer({ name: 't', version: '1' }); const input = new PassThrough(), output = new PassThrough();
      output.on('data', (d) => { console.log(JSON.stringify({ jitless: globalThis.__zod_globalConfig.jitless, compiled, answered: JSON.parse(d).result.serverInfo.name })); process.exit(0); });
      server.connect(new m.StdioServerTransport(input, output)).then(() => input.write(${JSON.stringify(JSON.stringify(INITIALIZE))} + '\\n'));`;
    expect(JSON.parse(execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' }))).toEqual({ jitless: true, compiled: 0, answered: 't' });
  });
});
