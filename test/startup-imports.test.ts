// --help and --version must stay close to bare Node start-up: they may not load the heavy modules
// that only some commands need (architecture.md, convention 5). The CLI's entry (package.json's bin)
// prints pre-rendered help and version on its own; everything else loads the program (commander,
// valibot and every command), and the packages only some commands use load with their first use.
// A package counts as loaded when it is read from node_modules or when a bundle holding it (the
// build's metafile says which) is read: which file holds what is the build's business, not this test's.
// Kept, though it looks at loading rather than output, because what it guards is felt: --help and
// --version answer at bare Node speed, and DuckDB (an optional peer a user may lack) loads only for the
// commands that need it. What it no longer pins (which modules each bundle holds, whether our own
// files are require()d or import()ed) is how the build is made, not what a user sees; the bench
// (bench/startup.mjs) measures start-up itself.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { CLI, tempDir } from './helpers/cli.js';
import { sandboxApi } from './helpers/sandbox.js';

const HEAVY_PACKAGES = [
  'undici',
  'ora',
  'tar',
  'csv-stringify',
  'cli-table3',
  'valibot',
  'htmlparser2',
  'commander',
  '@duckdb/node-api',
  '@modelcontextprotocol/sdk',
  'zod',
];
const recorder = fileURLToPath(new URL('./helpers/record-imports.mjs', import.meta.url));
const cliDir = fileURLToPath(new URL('../dist/cli/', import.meta.url));
interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}
const meta = () =>
  JSON.parse(readFileSync(fileURLToPath(new URL('../dist/cli-meta.json', import.meta.url)), 'utf8')) as Metafile;
// In a git worktree whose node_modules is a link to another checkout's, esbuild names a package's
// files by the real path ('../main/node_modules/x/...'): read them as 'node_modules/x/...' all the same.
const inputsOf = (output: string) =>
  Object.keys(meta().outputs[`dist/cli/${output}`]?.inputs ?? {}).map((input) =>
    input.startsWith('../') ? input.replace(/^(?:\.\.\/)+(?:[^/]+\/)*?(?=node_modules\/)/, '') : input,
  );

/** What a run of the built CLI loaded: a URL a line, and `esm-commonjs <url>` for a CommonJS file the ES module loader loaded. */
async function recordLoads(args: string[], env: Record<string, string> = {}, status = 0): Promise<string[]> {
  const dir = tempDir();
  const record = join(dir.path, 'imports.txt');
  try {
    // Not spawnSync: the sandbox answering some commands runs in this process.
    const child = spawn(process.execPath, ['--import', recorder, CLI, ...args], {
      env: {
        ...process.env,
        ...env,
        MINT_ADMIN_RECORD_IMPORTS: record,
        XDG_CONFIG_HOME: join(dir.path, 'config'),
        XDG_CACHE_HOME: join(dir.path, 'cache'),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const r = await new Promise<{ status: number | null; stderr: string }>((resolve) =>
      child.on('close', (code) => resolve({ status: code, stderr })),
    );
    expect(r.stderr).not.toMatch(/Warning/); // e.g. an experimental feature used by the loader
    expect(r.status).toBe(status);
    return readFileSync(record, 'utf8').split('\n').filter(Boolean);
  } finally {
    dir.cleanup();
    rmSync(record, { force: true });
  }
}

const packageOf = (input: string) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];

/** The heavy packages a run of the built CLI loaded, by name, sorted: from node_modules or inside a bundle it read. */
async function heavyLoads(args: string[], env: Record<string, string> = {}, status = 0): Promise<string[]> {
  const urls = await recordLoads(args, env, status);
  const files = urls.filter((u) => u.startsWith('file://')).map((u) => fileURLToPath(u));
  const bundles = readdirSync(cliDir)
    .filter((name) => name.endsWith('.cjs') && files.includes(join(cliDir, name)))
    .flatMap((name) => inputsOf(name));
  const loaded = new Set([...files, ...bundles].map(packageOf).filter((name): name is string => name !== undefined));
  return HEAVY_PACKAGES.filter((name) => loaded.has(name)).sort();
}

const PROGRAM = ['commander', 'valibot'];

describe('start-up', () => {
  it.each(
    [
      ['--version'],
      ['--help'],
      ['export', '--help'],
      ['searches', 'list', '--help'],
      ['agent', 'run', '--help'],
      ['deploy', 'start', '--help'],
      ['preview', 'start', '-h'],
      ['automation', 'run', '--help'],
      ['autopilot', 'run', '--help'],
      ['mcp', '--help'],
    ].map((a) => [a.join(' '), a] as const),
  )(
    '`mint-admin %s` loads no heavy module, not even commander (its output was rendered at build time)',
    async (_name, args) => {
      expect(await heavyLoads(args)).toEqual([]);
    },
  );

  describe('the recorder sees what a command loads (so the checks above can fail)', () => {
    let sandbox: Sandbox;
    beforeAll(async () => {
      sandbox = await startSandbox({ searchTermCount: 5 });
    });
    afterAll(() => sandbox.close());

    it('a command loads the program, and one that sends no request not undici; --help with another flag is not pre-rendered', async () => {
      expect(await heavyLoads(['config', 'set', 'project-id', 'p1'])).toEqual(PROGRAM);
      expect(await heavyLoads(['config', 'path'])).toEqual(PROGRAM);
      expect(await heavyLoads(['--json', '--help'])).toEqual(PROGRAM);
    });

    it('a package outside the program is seen when a command loads it', async () => {
      const env = {
        MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
        MINTLIFY_PROJECT_ID: sandbox.projectId,
        MINTLIFY_API_URL: sandbox.baseUrl,
      };
      expect(await heavyLoads(['searches', 'list', '--format', 'csv'], env)).toEqual(
        [...PROGRAM, 'csv-stringify', 'undici'].sort(),
      );
    });

    it('a download loads undici', async () => {
      const env = {
        MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
        MINTLIFY_PROJECT_ID: sandbox.projectId,
        MINTLIFY_API_URL: sandbox.baseUrl,
      };
      sandbox.faults.exportPollsToFinish = 0;
      const { jobId } = await sandboxApi<{ jobId: string }>(sandbox, 'POST', '/v1/static-export/jobs', {
        domain: 'docs.example.com',
      });
      await sandboxApi(sandbox, 'GET', `/v1/static-export/jobs/${jobId}`);
      const dir = tempDir();
      try {
        const loads = await heavyLoads(['export', 'download', jobId, '-o', join(dir.path, 'site')], env);
        expect(loads).toContain('undici');
      } finally {
        dir.cleanup();
      }
    });

    it('the MCP server loads the SDK and zod, and no other command does (stdin at its end stops the server)', async () => {
      expect(await heavyLoads(['mcp'])).toEqual([...PROGRAM, '@modelcontextprotocol/sdk', 'zod'].sort());
    });

    it('DuckDB (@duckdb/node-api) loads only in the command that needs it: not for its help, not for another analytics command', async () => {
      const env = {
        MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
        MINTLIFY_PROJECT_ID: sandbox.projectId,
        MINTLIFY_API_URL: sandbox.baseUrl,
      };
      expect(await heavyLoads(['analytics', 'sync', '--help'])).toEqual([]);
      expect(await heavyLoads(['analytics', 'views', '--json'], env)).toEqual([...PROGRAM, 'undici'].sort());
      const dir = tempDir();
      try {
        const loads = await heavyLoads(
          [
            'analytics',
            'sync',
            '--db',
            join(dir.path, 'a.duckdb'),
            '--from',
            new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
            '--max-requests',
            '3',
          ],
          env,
        );
        expect(loads).toContain('@duckdb/node-api');
      } finally {
        dir.cleanup();
      }
    });
  });
});
