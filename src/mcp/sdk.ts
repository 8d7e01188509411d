// The MCP SDK and zod, as the CLI bundle carries them: this module is built on its own into
// dist/cli/vendor-mcp.cjs (scripts/build.mjs), required only when `mint-admin mcp` starts, so no other
// command reads or compiles it. Only the server and stdio parts of the SDK are imported: its HTTP
// transports (express, hono) never enter the bundle. zod's builders are named one by one, not as its
// `z` namespace: the namespace carries every locale, and half the chunk with it (730 KB against 380).
// First: zod's settings must be in place before the SDK's modules make any schema.
import './zod-jitless.js';
import { boolean, enum as enumOf, number, string } from 'zod';

export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

// Here, not in the program: only `mint-admin mcp` reads this chunk (input-json-schema.ts).
export { INPUT_JSON_SCHEMAS } from './input-json-schemas.generated.js';

/** The zod builders the tools' input schemas use; add one here when a tool needs it. */
export const z = { boolean, enum: enumOf, number, string };
