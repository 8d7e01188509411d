// Benchmark of the bundle download against the sandbox (run `npm run build` first):
//   1. wall time of `mint-admin export download <job> -o <dir>` against `curl -s "$URL" | tar -xzf - -C <dir>`
//      on the same kind of link, for ~10,000 files / ~100 MB of files, on disk (target <= 1.15x) and on
//      tmpfs (<= 1.3x), and for 200,000 tiny files on disk (<= 1.5x); runs alternate, median (min-max);
//   2. peak RSS of mint-admin for a ~50 MB and a ~500 MB archive: the difference must stay < 20 MB
//      (the archive is streamed to disk and extracted from disk, never held in memory).
// Peak RSS comes from /usr/bin/time -v when present, else from sampling `ps` every 20 ms.
// Every timed run extracts into a directory of its own, and nothing is deleted until the timed runs
// are over: ext4 skips inodes freed in the last minute or so when it allocates new ones, reading an
// inode-table block for each (perf: 40% of `tar`'s time in recently_deleted() after the previous
// run's 10,000 files were removed), so deleting each run's tree before the next made the same
// 10,000 files take 0.3-2 s of kernel time from one run to the next, for both sides. For the same
// reason the disk runs start after a sync and a minute's wait (`npm test` just before deletes many
// files). Within each pair the side that goes first alternates (A B B A ...), so a drift of the
// machine's state cannot favour one side.
// Prints a markdown table; exits 1 if a target is missed. BENCH_KEEP_BUNDLES=1 keeps the generated
// archives in the sandbox's cache (os.tmpdir()/mint-admin-sandbox) for the next run.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox } = /** @type {typeof import('../src/sandbox/index.js')} */ (
  await import(join(root, 'dist/sandbox/index.js'))
);
const { describeEnv, max, measure, median, min, rssSource, settleDisk } = await import('./measure.mjs');
const { alternatingPairs, completedExport, cpuSeconds, runCurlTar } = await import('./download-sides.mjs');
/** @import { CompletedExport } from './download-sides.mjs' */
/** @import { Measured } from './measure.mjs' */
/** @typedef {{ files: number; bytesPerFile: number }} BundleSpec */
const CLI = join(root, 'dist/cli/main.cjs');
const work = mkdtempSync(join(tmpdir(), 'mint-admin-bench-download-'));
const MB = 1e6;

// BENCH_QUICK=1 shrinks everything 20x: a smoke test of the script, not a measurement.
const scale = process.env.BENCH_QUICK === '1' ? 20 : 1;
const TIMING = { files: 10_000 / scale, bytesPerFile: 10_000 };
// The sandbox's files compress to ~56%, so these give archives of ~50 MB and ~500 MB.
const RSS_SMALL = { files: 3_000 / scale, bytesPerFile: 30_000 };
const RSS_LARGE = { files: 30_000 / scale, bytesPerFile: 30_000 };
const RUNS = 9;
// Many tiny files: the per-entry cost (tar parsing, open/write/close) against GNU tar's.
const TINY = { files: 200_000 / scale, bytesPerFile: 100 };
const TINY_RUNS = 3;
// tmpfs takes the disk out of the comparison: what remains is each side's own CPU and syscall cost.
const TMPFS = process.platform === 'linux' && existsSync('/dev/shm') ? '/dev/shm' : undefined;

const downloader = (/** @type {string} */ jobId, /** @type {string} */ dir) => [
  CLI,
  '--quiet',
  'export',
  'download',
  jobId,
  '-o',
  dir,
];
// ext4's memory of freed inodes (see the top): a minute, once the deletions are on disk.
const RECENTLY_DELETED_MS = process.env.BENCH_QUICK === '1' ? 0 : 65_000;
let runs = 0;
/** A directory no run has used, under `parent`; removed with `parent` after the timed runs. */
const freshDir = (/** @type {string} */ parent) => join(parent, `run-${++runs}`);

/**
 * A sandbox with a completed export of `spec`, its archive generated, and the job id.
 * @param {BundleSpec} spec
 */
async function exportOf(spec) {
  return completedExport(await startSandbox({ bundle: spec, seed: 11 }), work);
}

/**
 * One run of mint-admin into `dir` (which must not exist); the tree is left for the caller to remove.
 * @param {CompletedExport} exp
 * @param {string} dir
 */
async function runMintAdmin(exp, dir) {
  settleDisk();
  const result = await measure(process.execPath, downloader(exp.jobId, dir), exp.env);
  if (result.code !== 0) throw new Error(`mint-admin exited ${result.code}: ${result.stderr}`);
  return result;
}

/**
 * `count` pairs into fresh directories under `parent`; the trees stay until the caller removes `parent`.
 * @param {CompletedExport} exp
 * @param {string} parent
 * @param {number} count
 */
const timedPairs = (exp, parent, count) =>
  alternatingPairs(
    count,
    () => runMintAdmin(exp, freshDir(parent)),
    () => runCurlTar(exp, freshDir(parent)),
  );

const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(2)} s`;
const mbOf = (/** @type {number} */ kb) => `${(kb / 1024).toFixed(1)} MB`;
/** @type {BundleSpec[]} */
const generated = [];

try {
  // 1. Wall time, alternating the two so a noisy neighbour hits both alike; nothing is deleted
  // until every timed run is done (see the top).
  const timing = await exportOf(TIMING);
  generated.push(TIMING);
  const diskRuns = join(work, 'disk-runs');
  settleDisk();
  await new Promise((resolve) => setTimeout(resolve, RECENTLY_DELETED_MS));
  const disk = await timedPairs(timing, diskRuns, RUNS);
  const memRuns = TMPFS ? mkdtempSync(join(TMPFS, 'mint-admin-bench-')) : undefined;
  const mem = memRuns ? await timedPairs(timing, memRuns, RUNS) : undefined;
  if (memRuns) rmSync(memRuns, { recursive: true, force: true });
  await timing.sandbox.close();

  const tiny = await exportOf(TINY);
  generated.push(TINY);
  const tinyRuns = await timedPairs(tiny, join(work, 'tiny-runs'), TINY_RUNS);
  await tiny.sandbox.close();
  for (const parent of [diskRuns, join(work, 'tiny-runs')]) rmSync(parent, { recursive: true, force: true });
  const wall = (/** @type {Measured[]} */ results) => results.map((r) => r.wallMs);
  const ours = wall(disk.ours);
  const theirs = wall(disk.theirs);
  const oursTmpfs = mem ? wall(mem.ours) : [];
  const theirsTmpfs = mem ? wall(mem.theirs) : [];
  const oursTiny = wall(tinyRuns.ours);
  const theirsTiny = wall(tinyRuns.theirs);

  const dir = join(work, 'out');
  // 2. Peak RSS for a small and a large archive.
  /** @type {Array<{ sizeBytes: number; mine: number; base: number }>} */
  const rss = [];
  for (const spec of [RSS_SMALL, RSS_LARGE]) {
    const exp = await exportOf(spec);
    generated.push(spec);
    rmSync(dir, { recursive: true, force: true });
    const mine = await runMintAdmin(exp, dir);
    rmSync(dir, { recursive: true, force: true });
    const base = await runCurlTar(exp, dir);
    rmSync(dir, { recursive: true, force: true });
    rss.push({ sizeBytes: exp.sizeBytes, mine: mine.peakKb, base: base.peakKb });
    await exp.sandbox.close();
  }

  const timeRatio = median(ours) / median(theirs);
  const [small, large] = rss;
  if (!small || !large) throw new Error('two archive sizes were measured, not fewer');
  const rssGrowthMb = (large.mine - small.mine) / 1024;
  const label = 'mint-admin export download';
  console.log(
    `Download benchmark: ${label}; baseline \`curl -s URL | tar -xzf - -C dir\`; peak RSS from ${rssSource}.`,
  );
  console.log(describeEnv(['XDG_CONFIG_HOME', 'MINTLIFY_API_URL', 'MINTLIFY_ADMIN_API_KEY', 'MINTLIFY_PROJECT_ID']));
  console.log(
    `Timing bundle: ${TIMING.files} files x ${TIMING.bytesPerFile} B = ${(TIMING.files * TIMING.bytesPerFile) / MB} MB of files, archive ${(timing.sizeBytes / MB).toFixed(1)} MB; median of ${RUNS}.`,
  );
  console.log('');
  console.log('| figure | mint-admin | baseline | ratio |');
  console.log('|---|---|---|---|');
  const spreadS = (/** @type {number[]} */ xs) =>
    `${seconds(median(xs))} (${(min(xs) / 1000).toFixed(2)}-${seconds(max(xs))})`;
  console.log(
    `| download + extract, ${TIMING.files} files to disk (median of ${RUNS}) | ${spreadS(ours)} | ${spreadS(theirs)} | ${timeRatio.toFixed(2)}x |`,
  );
  if (TMPFS)
    console.log(
      `| the same to tmpfs, no disk: CPU and syscalls only (median of ${oursTmpfs.length}) | ${spreadS(oursTmpfs)} | ${spreadS(theirsTmpfs)} | ${(median(oursTmpfs) / median(theirsTmpfs)).toFixed(2)}x |`,
    );
  // CPU time (both threads; curl, gzip and tar together): steadier than wall time on a shared machine.
  /** @type {Array<[string, { ours: Measured[]; theirs: Measured[] } | undefined]>} */
  const cpuSides = [
    ['disk', disk],
    ['tmpfs', mem],
  ];
  for (const [where, sides] of cpuSides) {
    if (!sides) continue;
    const [mine, base] = [sides.ours, sides.theirs].map((results) => results.map(cpuSeconds));
    // Without /usr/bin/time -v there are no CPU figures.
    if (!mine || !base || ![...mine, ...base].every((x) => x !== undefined)) continue;
    const [mineS, baseS] = [median(/** @type {number[]} */ (mine)), median(/** @type {number[]} */ (base))];
    console.log(
      `| CPU time (user + system), ${TIMING.files} files to ${where} (median) | ${mineS.toFixed(2)} s | ${baseS.toFixed(2)} s | ${(mineS / baseS).toFixed(2)}x |`,
    );
  }
  const tinyRatio = median(oursTiny) / median(theirsTiny);
  console.log(
    `| download + extract, ${TINY.files} files of ${TINY.bytesPerFile} B to disk (archive ${(tiny.sizeBytes / MB).toFixed(1)} MB, median of ${TINY_RUNS}) | ${spreadS(oursTiny)} | ${spreadS(theirsTiny)} | ${tinyRatio.toFixed(2)}x |`,
  );
  for (const r of rss)
    console.log(
      `| peak RSS, ${(r.sizeBytes / MB).toFixed(0)} MB archive | ${mbOf(r.mine)} | ${mbOf(r.base)} | ${(r.mine / r.base).toFixed(2)}x |`,
    );
  console.log(
    `| peak RSS growth, ${(small.sizeBytes / MB).toFixed(0)} -> ${(large.sizeBytes / MB).toFixed(0)} MB archive | ${rssGrowthMb.toFixed(1)} MB | ${((large.base - small.base) / 1024).toFixed(1)} MB | - |`,
  );
  console.log('');
  console.log(
    `raw: download + extract to disk (ms): mint-admin ${ours.map((/** @type {number} */ x) => x.toFixed(0)).join(' ')}; curl | tar ${theirs.map((/** @type {number} */ x) => x.toFixed(0)).join(' ')}`,
  );
  if (TMPFS)
    console.log(
      `raw: download + extract to tmpfs (ms): mint-admin ${oursTmpfs.map((/** @type {number} */ x) => x.toFixed(0)).join(' ')}; curl | tar ${theirsTmpfs.map((/** @type {number} */ x) => x.toFixed(0)).join(' ')}`,
    );
  console.log(
    `raw: download + extract of ${TINY.files} tiny files to disk (ms): mint-admin ${oursTiny.map((/** @type {number} */ x) => x.toFixed(0)).join(' ')}; curl | tar ${theirsTiny.map((/** @type {number} */ x) => x.toFixed(0)).join(' ')}`,
  );
  const tmpfsRatio = median(oursTmpfs) / median(theirsTmpfs);
  /** @type {Array<[string, boolean]>} */
  const checks = [
    [`download + extract to disk ${timeRatio.toFixed(2)}x <= 1.15x curl | tar`, timeRatio <= 1.15],
    ...(TMPFS
      ? /** @type {Array<[string, boolean]>} */ ([
          [`download + extract to tmpfs ${tmpfsRatio.toFixed(2)}x <= 1.3x curl | tar`, tmpfsRatio <= 1.3],
        ])
      : []),
    [`download + extract of ${TINY.files} tiny files ${tinyRatio.toFixed(2)}x <= 1.5x curl | tar`, tinyRatio <= 1.5],
    [`peak RSS growth ${rssGrowthMb.toFixed(1)} MB < 20 MB`, rssGrowthMb < 20],
  ];
  for (const [text, ok] of checks) console.log(`${ok ? 'PASS' : 'MISS'} ${text}`);
  process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
  if (process.env.BENCH_KEEP_BUNDLES !== '1') {
    const cache = join(tmpdir(), 'mint-admin-sandbox');
    const names = existsSync(cache) ? readdirSync(cache) : [];
    for (const spec of generated) {
      for (const name of names.filter((n) => n.endsWith(`-seed11-${spec.files}x${spec.bytesPerFile}.tar.gz`)))
        rmSync(join(cache, name), { force: true });
    }
  }
}
