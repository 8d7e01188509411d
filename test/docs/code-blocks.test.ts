// The documents cannot rot: every code block in README.md and docs/*.md whose info string says
// `runnable` is run here against a sandbox (docs/development.md, Tests, says how each kind runs).
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { CLI, tempDir } from '../helpers/cli.js';
import { isAnalyticsExample, printedCounts, run, runnableBlocks, typecheck } from '../helpers/docs.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const blocks = documents.flatMap((file) => runnableBlocks(file, readFileSync(join(root, file), 'utf8')));

describe('runnable code blocks in README.md and docs/', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
    // Jobs end at the first look: the documents show the API's default waits, the suite need not sit them out.
    sandbox.faults.agentPollsToFinish = 1;
    sandbox.faults.exportPollsToFinish = 1;
    sandbox.faults.buildPollsToFinish = 1;
  });
  afterAll(() => sandbox.close());

  it('finds the marked blocks (so a broken marker cannot silently skip them all)', () => {
    expect(blocks.filter((b) => b.file === 'docs/library.md').map((b) => b.lang)).toEqual([
      'js',
      'ts',
      'ts',
      'ts',
      'ts',
    ]);
    expect(blocks.filter((b) => b.file === 'docs/development.md').map((b) => b.lang)).toEqual(['sh']);
    expect(
      runnableBlocks('x.md', 'a\n```sh runnable\necho 1\n```\n```sh\necho 2\n```\n````js runnable\nx\n````\n'),
    ).toEqual([
      { file: 'x.md', line: 2, lang: 'sh', code: 'echo 1\n' },
      { file: 'x.md', line: 8, lang: 'js', code: 'x\n' },
    ]);
  });

  // The sandbox's data follows today's date, so a fixed date in an example goes empty as time passes;
  // relative dates (`date -d '7 days ago'`, `Date.now()`) or no date keep it meaningful.
  it.each(blocks.filter(isAnalyticsExample).map((b) => [`${b.file}:${b.line} (${b.lang})`, b] as const))(
    '%s asks for no fixed date',
    (_name, block) => {
      expect(block.code.match(/\b\d{4}-\d{2}-\d{2}\b/g)).toBeNull();
    },
  );

  it('finds the analytics examples', () => {
    expect(blocks.filter(isAnalyticsExample).map((b) => b.file)).toEqual([
      'README.md',
      'README.md',
      'README.md',
      'docs/development.md',
      'docs/library.md',
      'docs/library.md',
      'docs/sandbox.md',
    ]);
  });

  it.each(blocks.map((b) => [`${b.file}:${b.line} (${b.lang})`, b] as const))(
    '%s runs',
    async (_name, block) => {
      const dir = tempDir('mint-admin-docs-');
      try {
        // `mint-admin` on PATH is the built CLI; `import 'mint-admin'` is this repository (its exports).
        const bin = join(dir.path, '.bin');
        mkdirSync(bin);
        writeFileSync(join(bin, 'mint-admin'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, {
          mode: 0o755,
        });
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
        // An example that asks for a range the sandbox has no data for runs fine and shows nothing
        // ("Wrote 0 of 0 terms"): each must print a count, and none of them zero.
        if (isAnalyticsExample(block)) {
          const counts = printedCounts(result.stdout + result.stderr);
          expect(counts.length, 'the example prints how many it found').toBeGreaterThan(0);
          expect(
            counts,
            `every count the example prints is above zero:\n${result.stdout}${result.stderr}`,
          ).not.toContain(0);
        }
      } finally {
        dir.cleanup();
      }
    },
    60_000,
  );
});
