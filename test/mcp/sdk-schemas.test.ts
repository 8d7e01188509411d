// The build's transform of the MCP SDK's types.js (scripts/mcp-sdk-schemas.mjs): it must apply to
// the SDK the lockfile pins, and fail loudly, not silently, on a types.js of another shape.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script (plain ESM JavaScript), not part of the typed sources
import { markSchemasPure } from '../../scripts/mcp-sdk-schemas.mjs';

const root = new URL('../../', import.meta.url);
const require = createRequire(root);
const typesFile = require.resolve('@modelcontextprotocol/sdk/types.js').replace(/[\\/]cjs[\\/]types\.js$/, '/esm/types.js');
const typesText = readFileSync(typesFile, 'utf8');
const transform = markSchemasPure as (text: string, fileName?: string) => { text: string; wrapped: string[] };

describe('the MCP SDK schema transform', () => {
  it('applies to the SDK version in the lockfile', () => {
    const lock = JSON.parse(readFileSync(fileURLToPath(new URL('package-lock.json', root)), 'utf8')) as { packages: Record<string, { version: string }> };
    const installed = JSON.parse(readFileSync(new URL('../../package.json', `file://${typesFile}`), 'utf8')) as { version: string };
    expect(installed.version).toBe(lock.packages['node_modules/@modelcontextprotocol/sdk']!.version);
    const { text, wrapped } = transform(typesText, typesFile);
    expect(wrapped.length).toBeGreaterThanOrEqual(150);
    expect(wrapped).toContain('JSONRPCMessageSchema');
    // Every wrapped schema's initializer became a pure call, and nothing else changed.
    expect(text.match(/\/\* @__PURE__ \*\/ \(\(\) => /g)).toHaveLength(wrapped.length);
    expect(text.replace(/\/\* @__PURE__ \*\/ \(\(\) => /g, '').replace(/\)\(\)(?=;)/g, '')).toBe(typesText);
  });

  it('fails the build when types.js no longer has the expected shape', () => {
    // A release that built its schemas some other way (here: a factory per schema) leaves nothing to wrap.
    const changed = typesText.replace(/^(export )?const (\w+Schema) = /gm, '$1const $2 = make(() => null) || ');
    expect(() => transform(changed, 'types.js')).toThrow(/no longer have the shape .* expects/);
    expect(() => transform("import * as z from 'zod/v4';\nexport const JSONRPCMessageSchema = z.union([]);\n", 'types.js')).toThrow(/at least 150/);
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
