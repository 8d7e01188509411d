// Peak RSS of `mint-admin export download` for a ~50 MB and a ~500 MB bundle of the sandbox's pages
// (issue 45: the growth must stay under 20 MB), beside `curl | tar`'s. The same measurement as the
// last part of bench/download.mjs, on its own, for a quick check of memory after a change.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox } = /** @type {typeof import('../src/sandbox/index.js')} */ (
  await import(join(root, 'dist/sandbox/index.js'))
);
const { measure, rssSource } = await import('./measure.mjs');
const { completedExport, runCurlTar } = await import('./download-sides.mjs');
const CLI = join(root, 'dist/cli/main.cjs');
const work = mkdtempSync(join(tmpdir(), 'mint-admin-bench-download-memory-'));
const scale = process.env.BENCH_QUICK === '1' ? 20 : 1;
// The sandbox's files compress to ~56%, so these give archives of ~50 MB and ~500 MB.
const SPECS = [
  { files: 3_000 / scale, bytesPerFile: 30_000 },
  { files: 30_000 / scale, bytesPerFile: 30_000 },
];
const mb = (/** @type {number} */ kb) => `${(kb / 1024).toFixed(1)} MB`;
/** @type {Array<{ size: number; mine: number; base: number }>} */
const rows = [];
try {
  for (const spec of SPECS) {
    const exp = await completedExport(await startSandbox({ bundle: spec, seed: 11 }), work);
    const dir = join(work, 'out');
    const mine = await measure(process.execPath, [CLI, '--quiet', 'export', 'download', exp.jobId, '-o', dir], exp.env);
    if (mine.code !== 0) throw new Error(`mint-admin exited ${mine.code}: ${mine.stderr}`);
    rmSync(dir, { recursive: true, force: true });
    const base = await runCurlTar(exp, dir);
    rmSync(dir, { recursive: true, force: true });
    rows.push({ size: exp.sizeBytes, mine: mine.peakKb, base: base.peakKb });
    await exp.sandbox.close();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`Peak RSS from ${rssSource}.\n\n| figure | mint-admin | curl \\| tar |\n|---|---|---|`);
for (const r of rows)
  console.log(`| peak RSS, ${(r.size / 1e6).toFixed(0)} MB archive | ${mb(r.mine)} | ${mb(r.base)} |`);
const [small, large] = rows;
if (!small || !large) throw new Error('two archive sizes were measured, not fewer');
const growth = (large.mine - small.mine) / 1024;
console.log(`| peak RSS growth, small -> large archive (must be < 20 MB) | ${growth.toFixed(1)} MB | |`);
process.exitCode = growth < 20 ? 0 : 1;
