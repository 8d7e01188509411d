// The documents cannot rot: every code block in README.md and docs/*.md whose info string says
// `runnable` is run here against a sandbox (docs/development.md, Tests, says how each kind runs).
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { CLI, tempDir } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface CodeBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
}

/** The fenced blocks of a Markdown text marked `runnable` (```sh runnable). */
export function runnableBlocks(file: string, markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\w+)\s+(.*)$/.exec(lines[i] ?? '');
    if (!open?.[3]?.split(/\s+/).includes('runnable')) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith(open[1]!));
    if (end === -1) throw new Error(`${file}:${i + 1}: the runnable block is never closed`);
    blocks.push({ file, line: i + 1, lang: open[2]!, code: lines.slice(i + 1, end).join('\n') + '\n' });
    i = end;
  }
  return blocks;
}

const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const blocks = documents.flatMap((file) => runnableBlocks(file, readFileSync(join(root, file), 'utf8')));

function run(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // Never spawnSync: the sandbox runs in this process and must keep answering.
    const child = spawn(command, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('runnable code blocks in README.md and docs/', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.close());

  it('finds the marked blocks (so a broken marker cannot silently skip them all)', () => {
    expect(blocks.filter((b) => b.file === 'docs/library.md').map((b) => b.lang)).toEqual(['js', 'ts']);
    expect(blocks.filter((b) => b.file === 'docs/development.md').map((b) => b.lang)).toEqual(['sh']);
    expect(runnableBlocks('x.md', 'a\n```sh runnable\necho 1\n```\n```sh\necho 2\n```\n````js runnable\nx\n````\n')).toEqual([
      { file: 'x.md', line: 2, lang: 'sh', code: 'echo 1\n' },
      { file: 'x.md', line: 8, lang: 'js', code: 'x\n' },
    ]);
  });

  it.each(blocks.map((b) => [`${b.file}:${b.line} (${b.lang})`, b] as const))('%s runs', async (_name, block) => {
    const dir = tempDir('mint-admin-docs-');
    try {
      // `mint-admin` on PATH is the built CLI; `import 'mint-admin'` is this repository (its exports).
      const bin = join(dir.path, '.bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'mint-admin'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
      mkdirSync(join(dir.path, 'node_modules'));
      symlinkSync(root, join(dir.path, 'node_modules', 'mint-admin'), 'dir');
      const work = join(dir.path, 'work');
      mkdirSync(work);
      const env: NodeJS.ProcessEnv = {
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        HOME: dir.path,
        XDG_CONFIG_HOME: join(dir.path, 'config'),
        MINTLIFY_API_URL: sandbox.baseUrl,
        MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
        MINTLIFY_PROJECT_ID: sandbox.projectId,
      };
      let result: Awaited<ReturnType<typeof run>>;
      if (block.lang === 'sh') {
        result = await run('bash', ['-c', `set -euo pipefail\n${block.code}`], { cwd: work, env });
      } else if (block.lang === 'js' || block.lang === 'ts') {
        let code = block.code;
        if (block.lang === 'ts') {
          writeFileSync(join(dir.path, 'example.ts'), code);
          // skipLibCheck: the declarations themselves are checked by test/e2e/package.test.ts.
          const checked = await typecheck(dir.path, 'example.ts', { skipLibCheck: true });
          expect(checked.stdout + checked.stderr).toBe('');
          code = (await transform(code, { loader: 'ts', format: 'esm' })).code;
        }
        writeFileSync(join(dir.path, 'example.mjs'), code);
        result = await run(process.execPath, [join(dir.path, 'example.mjs')], { cwd: work, env });
      } else {
        throw new Error(`${block.file}:${block.line}: no runner for "${block.lang}" blocks`);
      }
      expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ code: 0, stderr: '' });
    } finally {
      dir.cleanup();
    }
  }, 60_000);
});

/**
 * tsc over one file, as a user's project would compile it (strict, nodenext), resolving
 * `mint-admin` through `dir/node_modules` and Node's types from this repository.
 */
export function typecheck(dir: string, file: string, extra: Record<string, unknown> = {}) {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'ES2022',
        lib: ['ES2023'],
        noEmit: true,
        types: ['node'],
        typeRoots: [join(root, 'node_modules/@types')],
        ...extra,
      },
      files: [file],
    }),
  );
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  return run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: dir, env: process.env });
}
