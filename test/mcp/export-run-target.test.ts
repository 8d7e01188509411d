// export_run refuses a directory that is not empty before anything is sent, and says which of its
// arguments allows replacing it (`force`), as the CLI names --force: an agent cannot act on "allow".
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { connect, textOf, type Connected } from './helpers.js';

const fx = useSandbox();
const root = tempDir('mint-admin-mcp-root-');
let writer: Connected;

beforeAll(async () => {
  writer = await connect(['--allow', 'export', '--root', root.path], fx.env());
});
afterAll(async () => {
  await writer?.close();
  root.cleanup();
});

describe('export_run into a directory that is not empty', () => {
  it('is refused before an export starts, naming the force argument', async () => {
    mkdirSync(join(root.path, 'full'));
    writeFileSync(join(root.path, 'full', 'keep.txt'), 'mine');
    const result = await writer.client.callTool({
      name: 'export_run',
      arguments: { directory: 'full', domain: 'docs.example.com' },
    });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(
      /is not empty; call export_run again with force: true to replace its contents, or choose another directory/,
    );
    expect(text).not.toMatch(/allow replacing/);
    expect(fx.sandbox.requests.filter((r) => r.origin === 'api')).toEqual([]);
    expect(readdirSync(join(root.path, 'full'))).toEqual(['keep.txt']);
  });
});
