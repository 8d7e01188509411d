// Imported first by the MCP chunk (sdk.ts), before any schema exists: zod 4 compiles a parser for
// each object schema (new Function) on its first parse, which V8's code cache cannot keep, so every
// start of the server paid for compiling the JSON-RPC envelope's, initialize's and tools/list's
// parsers to parse one message each. A server's messages are few and small: zod's interpreted parse
// is as good for them. A setting of the one zod the chunk carries: the SDK's schemas and the tools'.
import { config } from 'zod';

config({ jitless: true });
