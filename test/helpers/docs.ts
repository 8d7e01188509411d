// Code blocks of the documents, and how they run (test/docs/code-blocks.test.ts and
// test/e2e/package.test.ts share them).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  return markedBlocks(file, markdown, 'runnable');
}

/** The fenced blocks of a Markdown text marked `mark` (```sh setup: docs/library.md's project steps). */
export function markedBlocks(file: string, markdown: string, mark: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\w+)\s+(.*)$/.exec(lines[i] ?? '');
    if (!open?.[3]?.split(/\s+/).includes(mark)) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith(open[1]!));
    if (end === -1) throw new Error(`${file}:${i + 1}: the ${mark} block is never closed`);
    blocks.push({ file, line: i + 1, lang: open[2]!, code: lines.slice(i + 1, end).join('\n') + '\n' });
    i = end;
  }
  return blocks;
}

/** A block that reads analytics: a CLI analytics command, or a library call of one. */
export function isAnalyticsExample(block: CodeBlock): boolean {
  return /\bsearches list\b|\banalytics (searches|feedback|conversations|thread|callers|views|visitors|gaps)\b|\.(searchTerms|listSearches|conversations|feedbackEntries|pageViews|pageVisitors)\(/.test(
    block.code,
  );
}

/**
 * The counts an analytics example prints: the CLI's "Wrote N of M terms" / "Showing N terms" and
 * "N gaps found", and the library examples' "N searches in all" / "N code reports pending".
 */
export function printedCounts(output: string): number[] {
  const pattern = /\b(?:Wrote|Showing) (\d+)\b|\b(\d+) (?:gaps found|searches in all|code reports pending)\b/g;
  return [...output.matchAll(pattern)].map((m) => Number(m[1] ?? m[2]));
}

export function run(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
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
  return run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
    cwd: dir,
    env: process.env,
  });
}
