// --help and --version must stay close to bare Node start-up: they may not load the heavy modules
// that only some commands need (architecture.md, convention 5).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from './helpers/cli.js';

const HEAVY_PACKAGES = ['undici', 'ora', 'tar', 'csv-stringify', 'cli-table3', 'valibot', 'htmlparser2'];
// The sandbox is heavy as a whole; any other source is heavy when it statically imports a heavy package.
const HEAVY_FOLDERS = ['src/sandbox/'];
const recorder = fileURLToPath(new URL('./helpers/record-imports.mjs', import.meta.url));
const cliDir = fileURLToPath(new URL('../dist/cli/', import.meta.url));
interface Metafile {
  inputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }> }>;
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}
const meta = () => JSON.parse(readFileSync(fileURLToPath(new URL('../dist/cli-meta.json', import.meta.url)), 'utf8')) as Metafile;

function isHeavySource(input: string, metafile: Metafile): boolean {
  if (HEAVY_FOLDERS.some((folder) => input.startsWith(folder))) return true;
  // A heavy package bundled into a chunk (valibot) shows as its own files among the chunk's inputs.
  if (HEAVY_PACKAGES.some((name) => input.startsWith(`node_modules/${name}/`))) return true;
  return (metafile.inputs[input]?.imports ?? []).some(
    (i) => i.kind === 'import-statement' && HEAVY_PACKAGES.some((name) => i.path === name || i.path.startsWith(`${name}/`)),
  );
}

/** The heavy things a run of the built CLI loaded: npm packages by name, our sources by path. */
function heavyLoads(args: string[], env: Record<string, string> = {}, status = 0): string[] {
  const dir = tempDir();
  const record = join(dir.path, 'imports.txt');
  try {
    const r = spawnSync(process.execPath, ['--import', recorder, CLI, ...args], {
      env: { ...process.env, ...env, MINT_ADMIN_RECORD_IMPORTS: record, XDG_CONFIG_HOME: join(dir.path, 'config') },
      encoding: 'utf8',
    });
    expect(r.status).toBe(status);
    const urls = readFileSync(record, 'utf8').split('\n').filter(Boolean);
    const packages = HEAVY_PACKAGES.filter((name) => urls.some((u) => u.includes(`/node_modules/${name}/`)));
    const chunks = urls.filter((u) => u.startsWith('file://') && fileURLToPath(u).startsWith(cliDir));
    const metafile = meta();
    const sources = chunks.flatMap((u) => {
      const output = `dist/cli/${fileURLToPath(u).slice(cliDir.length)}`;
      return Object.keys(metafile.outputs[output]?.inputs ?? {}).filter((input) => isHeavySource(input, metafile));
    });
    // commander is bundled: it shows as a loaded chunk that holds it.
    const commander = chunks.some((u) =>
      Object.keys(metafile.outputs[`dist/cli/${fileURLToPath(u).slice(cliDir.length)}`]?.inputs ?? {}).some((i) => i.includes('node_modules/commander/')),
    );
    return [...packages, ...new Set(sources), ...(commander ? ['commander'] : [])];
  } finally {
    dir.cleanup();
    rmSync(record, { force: true });
  }
}

describe('start-up', () => {
  it.each(
    [['--version'], ['--help'], ['export', '--help'], ['searches', 'list', '--help'], ['agent', 'run', '--help']].map((a) => [a.join(' '), a] as const),
  )('`mint-admin %s` loads no heavy module, not even commander (its output was rendered at build time)', (_name, args) => {
    expect(heavyLoads(args)).toEqual([]);
  });

  it('the recorder sees what a command loads lazily (so the checks above can fail)', () => {
    expect(heavyLoads(['config', 'set', 'project-id', 'p1'])).toEqual(['commander']);
    expect(heavyLoads(['--json', '--help'])).toEqual(['commander']);
    expect(heavyLoads(['searches', 'list', '--format', 'csv'], { MINTLIFY_ADMIN_API_KEY: 'mint_x0000000000000', MINTLIFY_PROJECT_ID: 'p', MINTLIFY_API_URL: 'http://127.0.0.1:9' }, 1)).toEqual(
      expect.arrayContaining(['undici', 'src/api/client.ts', 'commander']),
    );
  });
});
