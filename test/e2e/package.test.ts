// The package as users get it: `npm pack`, installed into a temp prefix (the CLI) and temp projects
// (the library; a production install; a project made by docs/library.md's steps), the way
// docs/library.md and README say. Dependencies come from the npm cache, or the npm registry where
// the cache lacks them; nothing else is fetched (TypeScript comes from this repository).
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DUCKDB_PACKAGE, DUCKDB_VERSION } from '../../src/analytics-store/warehouse-install.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { markedBlocks, runnableBlocks, typecheck } from '../helpers/docs.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? npmEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** This environment without what `npm test` itself set (its prefix, its package, its lifecycle). */
function npmEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^npm_(package_|lifecycle_|config_(prefix|global|local_prefix)$)/i.test(name)) delete env[name];
  }
  return env;
}

const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], { cwd });

/** The packages only the CLI loads: bundled into it (scripts/build.mjs), devDependencies of the package. */
const CLI_ONLY = ['commander', 'ora', 'cli-table3', 'csv-stringify', '@modelcontextprotocol/sdk', 'zod'];

/**
 * Makes `project` by the steps of docs/library.md ("A new project, step by step") with the packed
 * tarball beside it. The one step that would fetch from the registry, TypeScript and Node's types,
 * links this repository's copies instead: the same packages, found where npm would put them.
 */
async function projectByTheDocs(project: string, tarball: string, tarballName: string): Promise<Ran[]> {
  const docs = readFileSync(join(root, 'docs/library.md'), 'utf8');
  const [steps, tsconfig] = markedBlocks('docs/library.md', docs, 'setup');
  mkdirSync(project);
  copyFileSync(tarball, join(project, tarballName));
  writeFileSync(join(project, 'tsconfig.json'), tsconfig!.code);
  const ran: Ran[] = [];
  for (const step of steps!.code.split('\n').filter(Boolean)) {
    if (step === 'npm install --save-dev typescript @types/node') {
      mkdirSync(join(project, 'node_modules/@types'), { recursive: true });
      symlinkSync(join(root, 'node_modules/typescript'), join(project, 'node_modules/typescript'));
      symlinkSync(join(root, 'node_modules/@types/node'), join(project, 'node_modules/@types/node'));
      continue;
    }
    // The pinned name the docs install is not on the registry before it is published: the tarball stands for it.
    const [command, ...args] = step
      .split(' ')
      .map((word) => (word === `mint-admin@${pkg.version.split('.')[0]!}` ? `./${tarballName}` : word));
    expect(command, step).toBe('npm');
    const r = await npm(args, project);
    ran.push(r);
    expect(r.code, `${step}\n${r.stderr}`).toBe(0);
  }
  return ran;
}

/** Chunks a bundled module imports, statically or lazily: `"./chunk-X.js"`. */
function importsOf(code: string): string[] {
  return [...code.matchAll(/["']\.\/([\w.-]+\.js)["']/g)].map((m) => m[1]!);
}

/** Declaration files a .d.ts refers to, relative to the package root. */
function declarationsOf(dir: string, file: string, text: string): string[] {
  const base = file.split('/').slice(0, -1);
  return [...text.matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)\.js['"]/g)].map((m) => {
    const parts = [...base];
    for (const part of `${m[1]!}.d.ts`.split('/')) {
      if (part === '..') parts.pop();
      else if (part !== '.') parts.push(part);
    }
    return parts.join('/');
  });
}

/** The bytes of every file under `dir` (symlinks counted as links, not followed), as `du -sb` counts them. */
function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? treeBytes(path) : lstatSync(path).size;
  }
  return total;
}

/** Everything reachable from `start` through `next`. */
function closure(start: string[], next: (item: string) => string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...start];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (seen.has(item)) continue;
    seen.add(item);
    pending.push(...next(item));
  }
  return seen;
}

describe('the packed package', () => {
  const dir = tempDir('mint-admin-package-');
  const prefix = join(dir.path, 'prefix');
  const project = join(dir.path, 'project');
  let packed: { filename: string; unpackedSize: number; files: Array<{ path: string; size: number }> };
  let tarball: string;
  let globalInstall: Ran;
  let projectInstall: Ran;
  const production = join(dir.path, 'production');
  let productionInstall: Ran;
  const byTheDocs = join(dir.path, 'by-the-docs');
  let docsSteps: Ran[];
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await startSandbox();
    // The build already ran (pretest); --ignore-scripts keeps prepack from building again.
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir.path], {
      cwd: root,
    });
    expect(pack.code, pack.stderr).toBe(0);
    packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;
    tarball = join(dir.path, packed.filename);
    globalInstall = await npm(['install', '--global', '--prefix', prefix, tarball], dir.path);
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'script', private: true, type: 'module' }));
    projectInstall = await npm(['install', tarball], project);
    mkdirSync(production);
    expect((await npm(['init', '-y'], production)).code).toBe(0);
    productionInstall = await npm(['install', '--omit=dev', tarball], production);
    docsSteps = await projectByTheDocs(byTheDocs, tarball, packed.filename);
  }, 300_000);
  afterAll(async () => {
    await sandbox?.close();
    dir.cleanup();
  });

  it('installs without a warning about the package or its scripts', () => {
    for (const install of [globalInstall, projectInstall, productionInstall, ...docsSteps]) {
      expect(install.code, install.stderr).toBe(0);
      const output = `${install.stdout}\n${install.stderr}`;
      expect(
        output.split('\n').filter((line) => /warn|ERR/i.test(line) && /mint-admin|script|prepare|build/i.test(line)),
      ).toEqual([]);
    }
  });

  it('holds only what runs: the bundled CLI and library, declarations, man pages, README, LICENSE, CHANGELOG (the completions are what `mint-admin completion` prints)', () => {
    const allowed = [
      /^package\.json$/,
      /^(README|CHANGELOG)\.md$/,
      /^LICENSE$/,
      /^man\/mint-admin(-[a-z]+)*\.1$/,
      /^dist\/cli\/[\w-]+\.cjs$/,
      /^dist\/cli\/help\/mint-admin(\.[a-z-]+)*\.txt$/,
      /^dist\/lib\/index\.js$/,
      /^dist\/lib\/([\w-]+\/)*[\w-]+\.d\.ts$/,
    ];
    const paths = packed.files.map((f) => f.path);
    expect(paths.filter((path) => !allowed.some((pattern) => pattern.test(path)))).toEqual([]);
    // Beside the bundles, exactly: package.json's man pages and the four documents (the completions are printed by `mint-admin completion`).
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { man: string[] };
    expect(paths.filter((path) => !path.startsWith('dist/')).sort()).toEqual(
      [
        'package.json',
        'README.md',
        'CHANGELOG.md',
        'LICENSE',
        ...manifest.man.map((page) => page.replace(/^\.\//, '')),
      ].sort(),
    );
    for (const needed of [
      'LICENSE',
      'CHANGELOG.md',
      'README.md',
      'man/mint-admin.1',
      'dist/lib/index.d.ts',
      'dist/cli/main.cjs',
      'dist/cli/help/mint-admin.txt',
      'dist/cli/help/mint-admin.export.run.txt',
    ])
      expect(paths).toContain(needed);
  });

  it("ships the CLI bundles and every file they require beside them, and no import() of the CLI's own files (a plain require skips the ES module loader's lexing)", () => {
    const installed = join(prefix, 'lib/node_modules/mint-admin');
    const shipped = packed.files.map((f) => f.path).filter((p) => p.startsWith('dist/cli/') && /\.c?js$/.test(p));
    for (const needed of ['dist/cli/main.cjs', 'dist/cli/program.cjs']) expect(shipped).toContain(needed);
    for (const file of shipped) {
      const code = readFileSync(join(installed, file), 'utf8');
      expect(importsOf(code), file).toEqual([]);
      const required = [...code.matchAll(/require\("\.\/([\w.-]+\.cjs)"\)/g)].map((m) => `dist/cli/${m[1]!}`);
      expect(
        required.filter((path) => !shipped.includes(path)),
        file,
      ).toEqual([]);
    }
  });

  it("a production install (--omit=dev) in a fresh project gets none of the CLI's own packages, and its CLI still runs", async () => {
    const pkgJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const name of CLI_ONLY) {
      expect(pkgJson.dependencies[name], name).toBeUndefined();
      expect(existsSync(join(production, 'node_modules', name)), name).toBe(false);
    }
    const bin = join(production, 'node_modules/.bin/mint-admin');
    const env = {
      ...npmEnv(),
      MINTLIFY_API_URL: sandbox.baseUrl,
      MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
      MINTLIFY_PROJECT_ID: sandbox.projectId,
      XDG_CONFIG_HOME: join(dir.path, 'config'),
    };
    expect(await run(bin, ['--version'], { cwd: production, env })).toEqual({
      code: 0,
      stdout: `${pkg.version}\n`,
      stderr: '',
    });
    const help = await run(bin, ['--help'], { cwd: production, env });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: mint-admin /);
    // Through commander (a flag after --help is not pre-rendered) and the CSV writer's chunk.
    const csv = await run(bin, ['searches', 'list', '--limit', '2', '--format', 'csv'], { cwd: production, env });
    expect(csv.code, csv.stderr).toBe(0);
    const rows = csv.stdout.split('\r\n'); // RFC 4180 line ends
    expect(rows[0]).toBe('searchQuery,hits,ctr,topClickedPage,lastSearchedAt');
    expect(rows.filter(Boolean)).toHaveLength(3);
    // The MCP server, from its chunk: a production install has no SDK or zod of its own.
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: bin, args: ['mcp'], cwd: production, env: env as Record<string, string> }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('analytics_gaps');
    } finally {
      await client.close();
    }
  });

  it('a project made by exactly the steps of docs/library.md is an ES module project where the TypeScript example type-checks', async () => {
    expect((JSON.parse(readFileSync(join(byTheDocs, 'package.json'), 'utf8')) as { type?: string }).type).toBe(
      'module',
    );
    const [example] = runnableBlocks('docs/library.md', readFileSync(join(root, 'docs/library.md'), 'utf8')).filter(
      (b) => b.lang === 'ts',
    );
    writeFileSync(join(byTheDocs, 'example.ts'), example!.code);
    // `npx tsc`, as the docs say; the linked TypeScript has no .bin entry, so its bin directly.
    const checked = await run(process.execPath, [join(byTheDocs, 'node_modules/typescript/bin/tsc')], {
      cwd: byTheDocs,
    });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  }, 120_000);

  it('ships exactly the declarations the library index reaches', () => {
    const installed = join(project, 'node_modules/mint-admin');
    const shipped = packed.files.map((f) => f.path).filter((p) => p.endsWith('.d.ts'));
    const reachable = closure(['dist/lib/index.d.ts'], (file) =>
      declarationsOf(installed, file, readFileSync(join(installed, file), 'utf8')),
    );
    expect(shipped.sort()).toEqual([...reachable].sort());
  });

  // Issue 46: at most 1.5 MB unpacked. Under it by dropping what the package carried twice or carried
  // for the machinery now gone: undici's slimmed copy (a dependency anyway), the MCP SDK's side
  // chunks, the completion files (`mint-admin completion` prints the same), the library unminified,
  // htmlparser2 bundled (a dependency now, loaded by verify alone).
  it('is small: at most 1.5 MB unpacked', () => {
    console.log(`packed ${packed.files.length} files, ${packed.unpackedSize} bytes unpacked`);
    expect(packed.unpackedSize).toBeLessThanOrEqual(1_500_000);
  });

  it('runs the CLI from the prefix bin, against the sandbox', async () => {
    const bin = join(prefix, 'bin/mint-admin');
    const env = {
      ...npmEnv(),
      MINTLIFY_API_URL: sandbox.baseUrl,
      MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
      MINTLIFY_PROJECT_ID: sandbox.projectId,
      XDG_CONFIG_HOME: join(dir.path, 'config'),
    };
    expect(await run(bin, ['--version'], { cwd: dir.path, env })).toEqual({
      code: 0,
      stdout: `${pkg.version}\n`,
      stderr: '',
    });
    const list = await run(bin, ['searches', 'list', '--limit', '3', '--format', 'ndjson'], { cwd: dir.path, env });
    expect(list.code, list.stderr).toBe(0);
    expect(
      list.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { searchQuery: string }).searchQuery),
    ).toEqual(
      sandbox
        .searchTerms()
        .slice(0, 3)
        .map((t) => t.searchQuery),
    );
    const completion = await run(bin, ['completion', 'bash'], { cwd: dir.path, env });
    expect(completion.stdout).toBe(readFileSync(join(root, 'completions/mint-admin.bash'), 'utf8'));
  });

  it('the installed CLI downloads and extracts a bundle', async () => {
    const headers = { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' };
    const started = await fetch(`${sandbox.baseUrl}/v1/static-export/jobs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ domain: 'docs.example.com' }),
    });
    const { jobId } = (await started.json()) as { jobId: string };
    for (let i = 0; i < 10; i++) await fetch(`${sandbox.baseUrl}/v1/static-export/jobs/${jobId}`, { headers });
    const env = {
      ...npmEnv(),
      MINTLIFY_API_URL: sandbox.baseUrl,
      MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
      MINTLIFY_PROJECT_ID: sandbox.projectId,
      XDG_CONFIG_HOME: join(dir.path, 'config'),
    };
    const r = await run(
      join(prefix, 'bin/mint-admin'),
      ['--debug', 'export', 'download', jobId, '-o', join(dir.path, 'downloaded')],
      { cwd: dir.path, env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir.path, 'downloaded/index.html'))).toBe(true);
  });

  // The lean default install (issue 49): DuckDB's native binding (~70 MB) is an optional peer, so no
  // install brings it, --global included (npm ignores --omit there). 0.3 installed 81 MB globally.
  it('a default global install is at most 15 MB: DuckDB is not in it', () => {
    const bytes = treeBytes(prefix);
    console.log(`global install: ${bytes} bytes`);
    expect(existsSync(join(prefix, 'lib/node_modules/@duckdb'))).toBe(false);
    expect(bytes).toBeLessThanOrEqual(15 * 1024 * 1024);
  });

  it('without DuckDB, analytics sync, query, report and the MCP analytics_query exit naming the one command; after that command (beside the global install) they run', async () => {
    const bin = join(prefix, 'bin/mint-admin');
    const env = {
      ...npmEnv(),
      MINTLIFY_API_URL: sandbox.baseUrl,
      MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
      MINTLIFY_PROJECT_ID: sandbox.projectId,
      XDG_CONFIG_HOME: join(dir.path, 'config'),
      XDG_DATA_HOME: join(dir.path, 'data'),
    };
    const command = `npm install --global ${DUCKDB_PACKAGE}@${DUCKDB_VERSION}`;
    const fails = async (args: string[]) => {
      const r = await run(bin, args, { cwd: dir.path, env });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr.trimEnd().endsWith(`Add it with: ${command}`), r.stderr).toBe(true);
    };
    await fails(['analytics', 'sync']);
    // query and report first look for the database (none: "run analytics sync first"); with a file
    // there, they reach DuckDB.
    const database = join(dir.path, 'data/mint-admin', `${sandbox.projectId}.duckdb`);
    mkdirSync(join(database, '..'), { recursive: true });
    writeFileSync(database, 'not yet a database');
    await fails(['analytics', 'query', 'SELECT 1']);
    await fails(['analytics', 'report']);
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: bin, args: ['mcp'], cwd: dir.path, env: env as Record<string, string> }),
    );
    try {
      const result = (await client.callTool({ name: 'analytics_query', arguments: { sql: 'SELECT 1' } })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
      };
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toContain(`Add it with: ${command}`);
    } finally {
      await client.close();
    }
    rmSync(database);
    // The command as printed, with this test's prefix (where a user's npm has its own).
    const [, ...args] = command.split(' ');
    const added = await npm([...args, '--prefix', prefix], dir.path);
    expect(added.code, added.stderr).toBe(0);
    const synced = await run(bin, ['analytics', 'sync', '--max-requests', '20'], { cwd: dir.path, env });
    expect(synced.code, synced.stderr).toBe(0);
    const queried = await run(bin, ['analytics', 'query', 'SELECT 42 AS answer', '--format', 'json'], {
      cwd: dir.path,
      env,
    });
    expect(queried.code, queried.stderr).toBe(0);
    expect((JSON.parse(queried.stdout) as { rows: unknown[] }).rows).toEqual([{ answer: 42 }]);
    const report = await run(bin, ['analytics', 'report', '--format', 'json'], { cwd: dir.path, env });
    expect(report.code, report.stderr).toBe(0);
  }, 300_000);

  it("in a project (a local install), the command is the project's own: without --global, and after it the warehouse runs", async () => {
    const bin = join(production, 'node_modules/.bin/mint-admin');
    const env = {
      ...npmEnv(),
      MINTLIFY_API_URL: sandbox.baseUrl,
      MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
      MINTLIFY_PROJECT_ID: sandbox.projectId,
      XDG_CONFIG_HOME: join(dir.path, 'config'),
      XDG_DATA_HOME: join(dir.path, 'data-local'),
    };
    const command = `npm install ${DUCKDB_PACKAGE}@${DUCKDB_VERSION}`;
    expect(existsSync(join(production, 'node_modules/@duckdb'))).toBe(false);
    const missing = await run(bin, ['analytics', 'sync'], { cwd: production, env });
    expect(missing.code, missing.stderr).toBe(1);
    expect(missing.stderr.trimEnd().endsWith(`Add it with: ${command} (in ${production})`), missing.stderr).toBe(true);
    const [, ...args] = command.split(' ');
    const added = await npm(args, production);
    expect(added.code, added.stderr).toBe(0);
    const synced = await run(bin, ['analytics', 'sync', '--max-requests', '20'], { cwd: production, env });
    expect(synced.code, synced.stderr).toBe(0);
  }, 300_000);

  it('links the man pages where man looks in the prefix', () => {
    expect(readFileSync(join(prefix, 'share/man/man1/mint-admin-export-download.1'), 'utf8')).toBe(
      readFileSync(join(root, 'man/mint-admin-export-download.1'), 'utf8'),
    );
  });

  it('the library imports, and the example in docs/library.md runs against the sandbox', async () => {
    const [example] = runnableBlocks('docs/library.md', readFileSync(join(root, 'docs/library.md'), 'utf8')).filter(
      (b) => b.lang === 'js',
    );
    writeFileSync(join(project, 'export.mjs'), example!.code);
    const env = { ...npmEnv(), MINTLIFY_API_URL: sandbox.baseUrl, MINTLIFY_ADMIN_API_KEY: sandbox.apiKey };
    const r = await run(process.execPath, ['export.mjs'], { cwd: project, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+ files \(\d+ bytes\) in .*\/site\n$/);
    expect(existsSync(join(project, 'site/index.html'))).toBe(true);
  });

  // tsc's answer does not depend on the Node.js line running it: .ci/run checks it once, on the first line.
  it.skipIf(process.env.MINT_ADMIN_EXTRA_NODE_LINE === '1')(
    'the TypeScript example type-checks against the installed declarations (the declarations themselves included)',
    async () => {
      const [example] = runnableBlocks('docs/library.md', readFileSync(join(root, 'docs/library.md'), 'utf8')).filter(
        (b) => b.lang === 'ts',
      );
      writeFileSync(join(project, 'example.ts'), example!.code);
      const checked = await typecheck(project, 'example.ts', { skipLibCheck: false });
      expect(checked.stdout + checked.stderr).toBe('');
    },
    120_000,
  );

  // What only some Node.js lines have is tested on the lines that have it (.ci/run runs this file on 20, 22 and 24).
  const features = process.features as { require_module?: boolean; typescript?: string };

  it.runIf(features.require_module)(
    `CommonJS can require() the library (require of ES modules, Node.js ${process.version})`,
    async () => {
      const r = await run(
        process.execPath,
        [
          '-e',
          "const m = require('mint-admin'); console.log(typeof m.AdminClient, typeof m.downloadBundle, m.VERSION)",
        ],
        { cwd: project },
      );
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: `function function ${pkg.version}\n` });
    },
  );

  it.runIf(features.typescript === 'strip')(
    `node runs the TypeScript example as it is (type stripping, Node.js ${process.version})`,
    async () => {
      const [example] = runnableBlocks('docs/library.md', readFileSync(join(root, 'docs/library.md'), 'utf8')).filter(
        (b) => b.lang === 'ts',
      );
      writeFileSync(join(project, 'strip.ts'), example!.code);
      const env = {
        ...npmEnv(),
        MINTLIFY_API_URL: sandbox.baseUrl,
        MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
        MINTLIFY_PROJECT_ID: sandbox.projectId,
      };
      const r = await run(process.execPath, ['strip.ts'], { cwd: project, env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/\d+ searches in all\n$/);
    },
  );
});
