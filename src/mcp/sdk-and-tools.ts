// What the server loads when it starts: the SDK's server and stdio transport, and the tools. A module
// of its own, imported lazily by server.ts, so that no other command loads the SDK or zod.
export { McpServer, StdioServerTransport } from './sdk.js';
export { TOOLS } from './tools/index.js';
