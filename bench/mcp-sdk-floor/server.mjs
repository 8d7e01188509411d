// The MCP SDK's own minimal stdio server, as its examples write one (modelled on the SDK's
// src/examples/server/progressExample.ts, with the README's `zod/v4` import): McpServer,
// StdioServerTransport and one tool with a zod input schema; nothing of mint-admin. bench/mcp.mjs
// bundles it the way scripts/build.mjs bundles the CLI (esbuild, CommonJS, one minified file) and
// starts it through launch.cjs, with and without a V8 code cache: the start-up the SDK itself allows,
// the floor beside which `mint-admin mcp` is measured.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod/v4';

const server = new McpServer({ name: 'sdk-floor', version: '1.0.0' });
server.registerTool(
  'add',
  { title: 'Addition', description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } },
  async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
);
// Not a top-level await: the bundle is CommonJS, as the CLI's is.
server.connect(new StdioServerTransport()).catch((error) => {
  console.error('Server error:', error);
  process.exit(1);
});
