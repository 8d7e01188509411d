// The MCP SDK and zod, as published: this module is built on its own into dist/cli/vendor-mcp.cjs
// (scripts/build.mjs), required only when `mint-admin mcp` starts, so no other command reads or
// compiles it. Only the server and stdio parts of the SDK are imported: its HTTP transports (express,
// hono) never enter the bundle. The SDK makes each tool's JSON Schema for tools/list from its zod shape
// with zod's public converter. zod's builders are named one by one, not as its `z` namespace: the
// namespace carries every locale.
import { boolean, enum as enumOf, number, string } from 'zod';

export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/** The zod builders the tools' input schemas use; add one here when a tool needs it. */
export const z = { boolean, enum: enumOf, number, string };
