// A tool's input schema as the MCP SDK's tools/list turns it into JSON Schema: the SDK's own object of
// the shape (normalizeObjectSchema) through its own converter (toJsonSchemaCompat, which is zod's
// toJSONSchema for a zod 4 schema), with the options its handler passes. For the build-time file
// (scripts/mcp-input-schemas.mjs) and the test that holds that file to zod; the server never loads it.
import { normalizeObjectSchema } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import type { InputShape } from './tool.js';

export function sdkInputJsonSchema(shape: InputShape): unknown {
  const object = normalizeObjectSchema(shape);
  if (object === undefined) throw new Error('not an object shape');
  return toJsonSchemaCompat(object, { strictUnions: true, pipeStrategy: 'input' });
}
