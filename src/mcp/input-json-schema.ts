// tools/list's JSON Schema of each tool made at build time (input-json-schemas.generated.ts), not by
// zod at every start: the SDK answers tools/list by converting each tool's zod input schema with zod's
// toJSONSchema, ~6% of the start to that answer. zod lets a schema give its own JSON Schema
// (`_zod.toJSONSchema`, which its converter uses instead of walking the schema), so the SDK's own
// handler, registration and input validation stay as they are; only the conversion is skipped.
// test/mcp/input-json-schemas.test.ts holds the file to zod's own output for the tools as they are.

/** A zod schema as far as its JSON Schema override goes. */
interface ZodInternals {
  _zod: { toJSONSchema?: () => unknown };
}

/**
 * Makes `schema` (a tool's registered input schema, as the SDK holds it) answer with `json` when zod
 * converts it; with no `json` (a tool missing from the file) zod converts it as before.
 */
export function useBuiltJsonSchema(schema: unknown, json: string | undefined): void {
  if (json === undefined || typeof schema !== 'object' || schema === null || !('_zod' in schema)) return;
  // A fresh object each time: zod's converter writes into what it is handed ($schema, its clean-up).
  (schema as ZodInternals)._zod.toJSONSchema = () => JSON.parse(json);
}
