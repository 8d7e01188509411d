// The package as users get it: `npm pack`, installed into a temp prefix (the CLI) and temp projects
// (the library; a production install; a project made by docs/library.md's steps), the way
// docs/library.md and README say. Dependencies come from the npm cache, or the npm registry where
// the cache lacks them; nothing else is fetched (TypeScript comes from this repository).
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const npm = (args: string[], cwd: string) => run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], { cwd });

/** The packages only the CLI loads: bundled into it (scripts/build.mjs), devDependencies of the package. */
const CLI_ONLY = ['commander', 'ora', 'cli-table3', 'csv-stringify', 'htmlparser2', '@modelcontextprotocol/sdk', 'zod'];

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
    const [command, ...args] = step.split(' ');
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
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir.path], { cwd: root });
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
      expect(output.split('\n').filter((line) => /warn|ERR/i.test(line) && /mint-admin|script|prepare|build/i.test(line))).toEqual([]);
    }
  });

  it('holds only what runs: the bundled CLI and library, declarations, completions, man pages, README, LICENSE, CHANGELOG', () => {
    const allowed = [
      /^package\.json$/,
      /^(README|CHANGELOG)\.md$/,
      /^LICENSE$/,
      /^completions\/(_mint-admin|mint-admin\.(bash|fish))$/,
      /^man\/mint-admin(-[a-z]+)*\.1$/,
      /^dist\/cli\/[\w-]+\.cjs$/,
      /^dist\/cli\/help\/mint-admin(\.[a-z-]+)*\.txt$/,
      /^dist\/lib\/(index|extract-worker)\.js$/,
      /^dist\/lib\/([\w-]+\/)*[\w-]+\.d\.ts$/,
    ];
    const paths = packed.files.map((f) => f.path);
    expect(paths.filter((path) => !allowed.some((pattern) => pattern.test(path)))).toEqual([]);
    for (const needed of ['LICENSE', 'CHANGELOG.md', 'README.md', 'man/mint-admin.1', 'dist/lib/index.d.ts', 'dist/cli/main.cjs', 'dist/cli/help/mint-admin.txt', 'dist/cli/help/mint-admin.export.run.txt']) expect(paths).toContain(needed);
  });

  it('ships the two CLI bundles, the download worker, a chunk for each CLI-only package and one for undici: the entry loads the program bundle, which requires only those chunks (and the MCP chunk its own two)', () => {
    const installed = join(prefix, 'lib/node_modules/mint-admin');
    const shipped = packed.files.map((f) => f.path).filter((p) => p.startsWith('dist/cli/') && /\.c?js$/.test(p));
    // undici is a dependency, but the CLI carries the parts it uses (scripts/undici-slim.cjs) in a chunk
    // loaded with the first request, so that a command sending none does not read them.
    const chunks = ['dist/cli/vendor-cli-table3.cjs', 'dist/cli/vendor-csv-stringify-sync.cjs', 'dist/cli/vendor-htmlparser2.cjs', 'dist/cli/vendor-mcp.cjs', 'dist/cli/vendor-ora.cjs', 'dist/cli/vendor-undici.cjs'];
    // The MCP chunk's own side chunks, each required on first use of what it holds (scripts/mcp-sdk-ajv.mjs, mcp-sdk-zod3.mjs).
    const mcpChunks = ['dist/cli/vendor-mcp-ajv.cjs', 'dist/cli/vendor-mcp-zod3.cjs'];
    expect(shipped.sort()).toEqual(['dist/cli/extract-worker.cjs', 'dist/cli/main.cjs', 'dist/cli/program.cjs', ...chunks, ...mcpChunks].sort());
    const mcp = readFileSync(join(installed, 'dist/cli/vendor-mcp.cjs'), 'utf8');
    expect([...new Set([...mcp.matchAll(/require\("\.\/([\w.-]+\.cjs)"\)/g)].map((m) => `dist/cli/${m[1]!}`))].sort()).toEqual(mcpChunks);
    expect(readFileSync(join(installed, 'dist/cli/main.cjs'), 'utf8')).toContain('"program.cjs"');
    const program = readFileSync(join(installed, 'dist/cli/program.cjs'), 'utf8');
    expect(importsOf(program)).toEqual([]);
    expect([...new Set([...program.matchAll(/require\("\.\/([\w.-]+\.cjs)"\)/g)].map((m) => `dist/cli/${m[1]!}`))].sort()).toEqual(chunks);
    expect(importsOf(readFileSync(join(installed, 'dist/cli/extract-worker.cjs'), 'utf8'))).toEqual([]);
  });

  it("a production install (--omit=dev) in a fresh project gets none of the CLI's own packages, and its CLI still runs", async () => {
    const pkgJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const name of CLI_ONLY) {
      expect(pkgJson.dependencies[name], name).toBeUndefined();
      expect(existsSync(join(production, 'node_modules', name)), name).toBe(false);
    }
    const bin = join(production, 'node_modules/.bin/mint-admin');
    const env = { ...npmEnv(), MINTLIFY_API_URL: sandbox.baseUrl, MINTLIFY_ADMIN_API_KEY: sandbox.apiKey, MINTLIFY_PROJECT_ID: sandbox.projectId, XDG_CONFIG_HOME: join(dir.path, 'config') };
    expect(await run(bin, ['--version'], { cwd: production, env })).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
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
    await client.connect(new StdioClientTransport({ command: bin, args: ['mcp'], cwd: production, env: env as Record<string, string> }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('analytics_gaps');
    } finally {
      await client.close();
    }
  });

  it('a project made by exactly the steps of docs/library.md is an ES module project where the TypeScript example type-checks', async () => {
    expect((JSON.parse(readFileSync(join(byTheDocs, 'package.json'), 'utf8')) as { type?: string }).type).toBe('module');
    const [example] = runnableBlocks('docs/library.md', readFileSync(join(root, 'docs/library.md'), 'utf8')).filter((b) => b.lang === 'ts');
    writeFileSync(join(byTheDocs, 'example.ts'), example!.code);
    // `npx tsc`, as the docs say; the linked TypeScript has no .bin entry, so its bin directly.
    const checked = await run(process.execPath, [join(byTheDocs, 'node_modules/typescript/bin/tsc')], { cwd: byTheDocs });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  }, 120_000);

  it('ships exactly the declarations the library index reaches', () => {
    const installed = join(project, 'node_modules/mint-admin');
    const shipped = packed.files.map((f) => f.path).filter((p) => p.endsWith('.d.ts'));
    const reachable = closure(['dist/lib/index.d.ts'], (file) => declarationsOf(installed, file, readFileSync(join(installed, file), 'utf8')));
    expect(shipped.sort()).toEqual([...reachable].sort());
  });

  // 1.5 MB until the error model's slice (the CLI's error table, the transport split and their
  // declarations, ~6 KB) met the engines' slices on main: together 1,577,011 bytes.
  // Plus the MCP server's SDK and zod chunk (dist/cli/vendor-mcp.cjs, issue 33): 378,961 bytes as
  // built; the package went from 1,585,055 to 1,995,732 bytes with it, its help, man page and the
  // server's own code in program.cjs.
  // Plus the analytics store (issue 31: sync, query, report in program.cjs, their help and man pages):
  // 94,342 bytes; 2,090,074 with it. DuckDB itself is an optional dependency, not in the package.
  // Plus the MCP tools over the store and Autopilot, and verify's
  // #fragment check: 2,116,720 bytes in all, under this budget by 17 KB.
  // Plus the download's reader of PAX headers (issue 34, src/download/pax-ahead.ts, in the program,
  // the library and both workers, with their source maps): 15.5 KB; 2,131,438 bytes, under by 2.8 KB.
  // Plus the library's exportStaticSite over the engine's runStaticExport, the hardening of 0.3's
  // surfaces (the sync's paging guards, the database check, CSV on a terminal, the query's interrupt,
  // a mkdir that ends) and the MCP chunk split in three (the server's, ajv's, zod 3's: 375 KB, as one
  // was): 2,144,653 bytes, under this budget by 9.6 KB.
  // Plus the download's reader of plain entries (issue 34, src/download/plain-entries.ts and
  // fresh-tree.ts, which ship four times: the program, the CLI's worker, the library and its worker,
  // the library's unminified, and their declarations): ~37 KB; 2,185,917 bytes with it and the docs
  // of it. The budget grows by 45,000 bytes for it.
  // Plus tools/list's JSON Schemas made at build time (issue 33, src/mcp/input-json-schemas.generated.ts,
  // in the MCP chunk: ~9 KB, the tool descriptions repeated), the download's batch inflater, JSON's
  // escaping of C1 controls and verify's progress: 2,207,390 bytes. The budget grows by 15,000 bytes.
  // Plus the reader's calls made on the writer thread (issue 34, src/download/write-behind.ts, in the
  // program, the CLI's worker, the library's worker unminified, and its declarations) and the guard's
  // fast path for GNU tar's `./` names: 20.9 KB; 2,234,028 bytes (2,213,131 before, 1.1 KB under).
  // The budget grows by 25,000 bytes.
  // Plus the extraction worker started by the CLI's entry (early-worker.ts and booted-worker.ts, in
  // main.cjs and the library) and tar made only when the reader of plain entries hands it the stream
  // (unpacker.ts, in the program, both workers and the library): 6.6 KB; 2,240,595 bytes. The budget
  // grows by 10,000 bytes.
  // Plus 24 defects of 0.3's faces mended (the MCP server's one seam bounding every result, its input
  // limits and export_run's re-checks, the lock's start time, the FIFO prompt reader, the answer
  // check's walk, the action's comment owner) and their CHANGELOG entries (~10 KB of the 16.3):
  // 2,265,567 bytes. The budget grows by 20,000 bytes.
  // Plus issue 48's first-hour mends (`auth login`, its man page and completions, the choice
  // suggestions, help wrapped once, the URL in connection errors) and their CHANGELOG entries:
  // 2,278,986 bytes. The budget grows by 15,000 bytes.
  it('is small: under 1.55 MB unpacked, plus the MCP chunk and the analytics store', () => {
    console.log(`packed ${packed.files.length} files, ${packed.unpackedSize} bytes unpacked`);
    expect(packed.unpackedSize).toBeLessThan(1.55 * 1024 * 1024 + 378_961 + 150_000 + 45_000 + 15_000 + 25_000 + 10_000 + 20_000 + 15_000);
  });

  it('runs the CLI from the prefix bin, against the sandbox', async () => {
    const bin = join(prefix, 'bin/mint-admin');
    const env = { ...npmEnv(), MINTLIFY_API_URL: sandbox.baseUrl, MINTLIFY_ADMIN_API_KEY: sandbox.apiKey, MINTLIFY_PROJECT_ID: sandbox.projectId, XDG_CONFIG_HOME: join(dir.path, 'config') };
    expect(await run(bin, ['--version'], { cwd: dir.path, env })).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    const list = await run(bin, ['searches', 'list', '--limit', '3', '--format', 'ndjson'], { cwd: dir.path, env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { searchQuery: string }).searchQuery)).toEqual(
      sandbox.searchTerms().slice(0, 3).map((t) => t.searchQuery),
    );
    const completion = await run(bin, ['completion', 'bash'], { cwd: dir.path, env });
    expect(completion.stdout).toBe(readFileSync(join(root, 'completions/mint-admin.bash'), 'utf8'));
  });

  it('the installed CLI extracts a download in its worker thread, from the installed tar', async () => {
    const headers = { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' };
    const started = await fetch(`${sandbox.baseUrl}/v1/static-export/jobs`, { method: 'POST', headers, body: JSON.stringify({ domain: 'docs.example.com' }) });
    const { jobId } = (await started.json()) as { jobId: string };
    for (let i = 0; i < 10; i++) await fetch(`${sandbox.baseUrl}/v1/static-export/jobs/${jobId}`, { headers });
    const env = { ...npmEnv(), MINTLIFY_API_URL: sandbox.baseUrl, MINTLIFY_ADMIN_API_KEY: sandbox.apiKey, MINTLIFY_PROJECT_ID: sandbox.projectId, XDG_CONFIG_HOME: join(dir.path, 'config') };
    const r = await run(join(prefix, 'bin/mint-admin'), ['--debug', 'export', 'download', jobId, '-o', join(dir.path, 'downloaded')], { cwd: dir.path, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`extracting in a worker thread (${join(prefix, 'lib/node_modules/mint-admin/dist/cli/extract-worker.cjs')}, started with the process)`);
    expect(r.stderr).not.toContain('stood down');
    expect(existsSync(join(dir.path, 'downloaded/index.html'))).toBe(true);
  });

  it('links the man pages where man looks in the prefix', () => {
    expect(readFileSync(join(prefix, 'share/man/man1/mint-admin-export-download.1'), 'utf8')).toBe(readFileSync(join(root, 'man/mint-admin-export-download.1'), 'utf8'));
  });

  it('the library imports, and the example in docs/library.md runs against the sandbox', async () => {
    const [example] = runnableBlocks('docs/library.md', readFileSync(join(root, 'docs/library.md'), 'utf8')).filter((b) => b.lang === 'js');
    writeFileSync(join(project, 'export.mjs'), example!.code);
    const env = { ...npmEnv(), MINTLIFY_API_URL: sandbox.baseUrl, MINTLIFY_ADMIN_API_KEY: sandbox.apiKey };
    const r = await run(process.execPath, ['export.mjs'], { cwd: project, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+ files \(\d+ bytes\) in .*\/site\n$/);
    expect(existsSync(join(project, 'site/index.html'))).toBe(true);
  });

  // tsc's answer does not depend on the Node.js line running it: .ci/run checks it once, on the first line.
  it.skipIf(process.env.MINT_ADMIN_EXTRA_NODE_LINE === '1')('the TypeScript example type-checks against the installed declarations (the declarations themselves included)', async () => {
    const [example] = runnableBlocks('docs/library.md', readFileSync(join(root, 'docs/library.md'), 'utf8')).filter((b) => b.lang === 'ts');
    writeFileSync(join(project, 'example.ts'), example!.code);
    const checked = await typecheck(project, 'example.ts', { skipLibCheck: false });
    expect(checked.stdout + checked.stderr).toBe('');
  }, 120_000);

  // What only some Node.js lines have is tested on the lines that have it (.ci/run runs this file on 20, 22 and 24).
  const features = process.features as { require_module?: boolean; typescript?: string };

  it.runIf(features.require_module)(`CommonJS can require() the library (require of ES modules, Node.js ${process.version})`, async () => {
    const r = await run(process.execPath, ['-e', "const m = require('mint-admin'); console.log(typeof m.AdminClient, typeof m.downloadBundle, m.VERSION)"], { cwd: project });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: `function function ${pkg.version}\n` });
  });

  it.runIf(features.typescript === 'strip')(`node runs the TypeScript example as it is (type stripping, Node.js ${process.version})`, async () => {
    const [example] = runnableBlocks('docs/library.md', readFileSync(join(root, 'docs/library.md'), 'utf8')).filter((b) => b.lang === 'ts');
    writeFileSync(join(project, 'strip.ts'), example!.code);
    const env = { ...npmEnv(), MINTLIFY_API_URL: sandbox.baseUrl, MINTLIFY_ADMIN_API_KEY: sandbox.apiKey, MINTLIFY_PROJECT_ID: sandbox.projectId };
    const r = await run(process.execPath, ['strip.ts'], { cwd: project, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\d+ searches in all\n$/);
  });
});
