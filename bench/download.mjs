// Benchmark of the bundle download against the sandbox (run `npm run build` first):
//   1. wall time of `mint-admin export download <job> -o <dir>` against `curl -s "$URL" | tar -xzf - -C <dir>`
//      on the same kind of link, for ~10,000 files / ~100 MB of files, on disk (target <= 1.15x) and on
//      tmpfs (<= 1.3x), and for 200,000 tiny files on disk (<= 1.5x); runs alternate, median (min-max);
//   2. peak RSS of mint-admin for a ~50 MB and a ~500 MB archive: the difference must stay < 20 MB
//      (the archive is streamed to disk and extracted from disk, never held in memory).
// Peak RSS comes from /usr/bin/time -v when present, else from sampling `ps` every 20 ms.
// Prints a markdown table; exits 1 if a target is missed. BENCH_KEEP_BUNDLES=1 keeps the generated
// archives in the sandbox's cache (os.tmpdir()/mint-admin-sandbox) for the next run.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox } = await import(join(root, 'dist/sandbox/index.js'));
const { describeEnv, max, measure, median, min, rssSource, settleDisk } = await import('./measure.mjs');
const CLI = join(root, 'dist/cli/main.cjs');
const work = mkdtempSync(join(tmpdir(), 'mint-admin-bench-download-'));
const MB = 1e6;

// BENCH_QUICK=1 shrinks everything 20x: a smoke test of the script, not a measurement.
const scale = process.env.BENCH_QUICK === '1' ? 20 : 1;
const TIMING = { files: 10_000 / scale, bytesPerFile: 10_000 };
// The sandbox's files compress to ~56%, so these give archives of ~50 MB and ~500 MB.
const RSS_SMALL = { files: 3_000 / scale, bytesPerFile: 30_000 };
const RSS_LARGE = { files: 30_000 / scale, bytesPerFile: 30_000 };
const RUNS = 5;
// Many tiny files: the per-entry cost (tar parsing, open/write/close) against GNU tar's.
const TINY = { files: 200_000 / scale, bytesPerFile: 100 };
const TINY_RUNS = 3;
// tmpfs takes the disk out of the comparison: what remains is each side's own CPU and syscall cost.
const TMPFS = process.platform === 'linux' && existsSync('/dev/shm') ? '/dev/shm' : undefined;

const downloader = (jobId, dir) => [CLI, '--quiet', 'export', 'download', jobId, '-o', dir];

async function api(sandbox, method, path, body) {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}`);
  return res.json();
}

/** A sandbox with a completed export of `spec`, its archive generated, and the job id. */
async function exportOf(spec) {
  const sandbox = await startSandbox({ bundle: spec, seed: 11 });
  sandbox.faults.exportPollsToFinish = 0;
  const { jobId } = await api(sandbox, 'POST', '/v1/static-export/jobs', { domain: 'docs.example.com' });
  while ((await api(sandbox, 'GET', `/v1/static-export/jobs/${jobId}`)).status !== 'completed');
  const bundle = await api(sandbox, 'POST', `/v1/static-export/jobs/${jobId}/bundle`);
  const env = {
    MINTLIFY_API_URL: sandbox.baseUrl,
    MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
    MINTLIFY_PROJECT_ID: sandbox.projectId,
    XDG_CONFIG_HOME: join(work, 'xdg'),
  };
  return { sandbox, jobId, env, sizeBytes: bundle.sizeBytes };
}

async function runMintAdmin(exp, dir) {
  rmSync(dir, { recursive: true, force: true });
  settleDisk();
  const result = await measure(process.execPath, downloader(exp.jobId, dir), exp.env);
  if (result.code !== 0) throw new Error(`mint-admin exited ${result.code}: ${result.stderr}`);
  rmSync(dir, { recursive: true, force: true });
  return result;
}

async function runCurlTar(exp, dir) {
  rmSync(dir, { recursive: true, force: true });
  const { bundleUrl } = await api(exp.sandbox, 'POST', `/v1/static-export/jobs/${exp.jobId}/bundle`);
  const script = 'mkdir -p "$2" && curl -sf "$1" | tar -xzf - -C "$2"';
  settleDisk();
  const result = await measure('/bin/sh', ['-c', script, 'sh', bundleUrl, dir]);
  if (result.code !== 0) throw new Error(`curl | tar exited ${result.code}: ${result.stderr}`);
  rmSync(dir, { recursive: true, force: true });
  return result;
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const mbOf = (kb) => `${(kb / 1024).toFixed(1)} MB`;
const generated = [];

try {
  // 1. Wall time, alternating the two so a noisy neighbour hits both alike.
  const timing = await exportOf(TIMING);
  generated.push(TIMING);
  const dir = join(work, 'out');
  const ours = [];
  const theirs = [];
  for (let i = 0; i < RUNS; i++) {
    ours.push((await runMintAdmin(timing, dir)).wallMs);
    theirs.push((await runCurlTar(timing, dir)).wallMs);
  }
  const oursTmpfs = [];
  const theirsTmpfs = [];
  if (TMPFS) {
    const memDir = join(mkdtempSync(join(TMPFS, 'mint-admin-bench-')), 'out');
    for (let i = 0; i < RUNS; i++) {
      oursTmpfs.push((await runMintAdmin(timing, memDir)).wallMs);
      theirsTmpfs.push((await runCurlTar(timing, memDir)).wallMs);
    }
    rmSync(dirname(memDir), { recursive: true, force: true });
  }
  await timing.sandbox.close();

  const tiny = await exportOf(TINY);
  generated.push(TINY);
  const oursTiny = [];
  const theirsTiny = [];
  for (let i = 0; i < TINY_RUNS; i++) {
    oursTiny.push((await runMintAdmin(tiny, dir)).wallMs);
    theirsTiny.push((await runCurlTar(tiny, dir)).wallMs);
  }
  await tiny.sandbox.close();

  // 2. Peak RSS for a small and a large archive.
  const rss = [];
  for (const spec of [RSS_SMALL, RSS_LARGE]) {
    const exp = await exportOf(spec);
    generated.push(spec);
    const mine = await runMintAdmin(exp, dir);
    const base = await runCurlTar(exp, dir);
    rss.push({ sizeBytes: exp.sizeBytes, mine: mine.peakKb, base: base.peakKb });
    await exp.sandbox.close();
  }

  const timeRatio = median(ours) / median(theirs);
  const [small, large] = rss;
  const rssGrowthMb = (large.mine - small.mine) / 1024;
  const label = 'mint-admin export download';
  console.log(`Download benchmark: ${label}; baseline \`curl -s URL | tar -xzf - -C dir\`; peak RSS from ${rssSource}.`);
  console.log(describeEnv(['XDG_CONFIG_HOME', 'MINTLIFY_API_URL', 'MINTLIFY_ADMIN_API_KEY', 'MINTLIFY_PROJECT_ID']));
  console.log(`Timing bundle: ${TIMING.files} files x ${TIMING.bytesPerFile} B = ${(TIMING.files * TIMING.bytesPerFile) / MB} MB of files, archive ${(timing.sizeBytes / MB).toFixed(1)} MB; median of ${RUNS}.`);
  console.log('');
  console.log('| figure | mint-admin | baseline | ratio |');
  console.log('|---|---|---|---|');
  const spreadS = (xs) => `${seconds(median(xs))} (${(min(xs) / 1000).toFixed(2)}-${seconds(max(xs))})`;
  console.log(`| download + extract, ${TIMING.files} files to disk (median of ${RUNS}) | ${spreadS(ours)} | ${spreadS(theirs)} | ${timeRatio.toFixed(2)}x |`);
  if (TMPFS) console.log(`| the same to tmpfs, no disk: CPU and syscalls only (median of ${oursTmpfs.length}) | ${spreadS(oursTmpfs)} | ${spreadS(theirsTmpfs)} | ${(median(oursTmpfs) / median(theirsTmpfs)).toFixed(2)}x |`);
  const tinyRatio = median(oursTiny) / median(theirsTiny);
  console.log(`| download + extract, ${TINY.files} files of ${TINY.bytesPerFile} B to disk (archive ${(tiny.sizeBytes / MB).toFixed(1)} MB, median of ${TINY_RUNS}) | ${spreadS(oursTiny)} | ${spreadS(theirsTiny)} | ${tinyRatio.toFixed(2)}x |`);
  for (const r of rss) console.log(`| peak RSS, ${(r.sizeBytes / MB).toFixed(0)} MB archive | ${mbOf(r.mine)} | ${mbOf(r.base)} | ${(r.mine / r.base).toFixed(2)}x |`);
  console.log(`| peak RSS growth, ${(small.sizeBytes / MB).toFixed(0)} -> ${(large.sizeBytes / MB).toFixed(0)} MB archive | ${rssGrowthMb.toFixed(1)} MB | ${((large.base - small.base) / 1024).toFixed(1)} MB | - |`);
  console.log('');
  console.log(`raw: download + extract to disk (ms): mint-admin ${ours.map((x) => x.toFixed(0)).join(' ')}; curl | tar ${theirs.map((x) => x.toFixed(0)).join(' ')}`);
  if (TMPFS) console.log(`raw: download + extract to tmpfs (ms): mint-admin ${oursTmpfs.map((x) => x.toFixed(0)).join(' ')}; curl | tar ${theirsTmpfs.map((x) => x.toFixed(0)).join(' ')}`);
  console.log(`raw: download + extract of ${TINY.files} tiny files to disk (ms): mint-admin ${oursTiny.map((x) => x.toFixed(0)).join(' ')}; curl | tar ${theirsTiny.map((x) => x.toFixed(0)).join(' ')}`);
  const tmpfsRatio = TMPFS ? median(oursTmpfs) / median(theirsTmpfs) : undefined;
  const checks = [
    [`download + extract to disk ${timeRatio.toFixed(2)}x <= 1.15x curl | tar`, timeRatio <= 1.15],
    ...(TMPFS ? [[`download + extract to tmpfs ${tmpfsRatio.toFixed(2)}x <= 1.3x curl | tar`, tmpfsRatio <= 1.3]] : []),
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
      for (const name of names.filter((n) => n.endsWith(`-seed11-${spec.files}x${spec.bytesPerFile}.tar.gz`))) rmSync(join(cache, name), { force: true });
    }
  }
}
