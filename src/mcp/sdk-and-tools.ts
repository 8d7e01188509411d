// What the server loads when it starts: the SDK's server and stdio transport, and the tools. A module
// of its own, imported lazily by server.ts, so that the bundle require()s the SDK's chunk (with its
// code cache: src/tuning/code-cache.ts) from here; a dynamic import of the chunk itself would go
// through the ES module loader instead, which neither uses that cache nor comes cheap.
export { INPUT_JSON_SCHEMAS, McpServer, StdioServerTransport } from './sdk.js';
export { TOOLS } from './tools/index.js';
