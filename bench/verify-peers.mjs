// `export verify` against the tools a docs team would run instead on a static site: html-proofer
// (Debian's ruby-html-proofer) and linkinator (npm, on Node 24). Run bench/verify-peers-setup.sh
// first (`npm run bench` does); a peer that is not installed is skipped with a note.
//
// The same generated sites (bench/site-generator.mjs: planted broken links, missing images, stylesheets
// and scripts, bad #fragments of the page and of other pages, sitemap entries of missing pages) of
// 1,000, 10,000 and 100,000 pages go through each tool. For each size:
//   - findings: each tool's, as (page, link) pairs, against the planted list; every disagreement is
//     grouped by what was planted, counted, shown with examples and explained (which tool is right).
//     A disagreement no explanation covers is a MISS;
//   - wall time (median of interleaved rounds) and peak RSS (the largest), side by side, as ratios of
//     mint-admin's figure to the peer's.
// Targets: verify finds exactly what was planted on every size; faster than both peers; its peak RSS
// grows by less than 40 MB from 1,000 to 100,000 pages.
// BENCH_QUICK=1: 300 and 1,000 pages, one round (checks the script; its figures are not measurements).
// BENCH_VERIFY_PAGES=1000,10000: the sizes; BENCH_VERIFY_PEERS_MAX: the largest size the peers run on,
// 10,000 unless given (BENCH_VERIFY_PEERS_MAX=100000 runs them on 100,000 pages too: html-proofer held
// 13.8 GB there and had not finished after 58 minutes, linkinator not after 19, so `npm run bench`
// leaves it out and runs verify alone there); BENCH_VERIFY_PEER_TIMEOUT=1800: seconds a peer may run before it is stopped (its time and
// memory are then reported as "stopped at", its findings not compared); BENCH_VERIFY_ROUNDS=3,1,1: rounds
// for each size (one number: every size). On a loaded machine the peers take long: linkinator ran
// 15 minutes on 10,000 pages at a load average of 8-9 on 2 cores. Each size's figures go to stderr as
// soon as they are known.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { measure, median, rssSource, settleDisk } from './measure.mjs';
import { generateSite, SITE_HOST } from './site-generator.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(repo, 'dist/cli/main.cjs');
const cache = join(repo, 'bench/.cache');
const quick = process.env.BENCH_QUICK === '1';
const sizes = (process.env.BENCH_VERIFY_PAGES ?? (quick ? '300,1000' : '1000,10000,100000')).split(',').map(Number);
const peersMax = Number(process.env.BENCH_VERIFY_PEERS_MAX ?? 10_000);
const peerTimeout = process.env.BENCH_VERIFY_PEER_TIMEOUT ? Number(process.env.BENCH_VERIFY_PEER_TIMEOUT) : undefined;
const roundsFor = (/** @type {number} */ pages) => {
  const given = process.env.BENCH_VERIFY_ROUNDS?.split(',').map(Number);
  if (given) return given[sizes.indexOf(pages)] ?? given.at(-1) ?? 1;
  return quick || pages >= 100_000 ? 1 : 3;
};
const work = mkdtempSync(join(tmpdir(), 'mint-admin-bench-peers-'));
const { verifySite } = /** @type {typeof import('../src/site/verify.js')} */ (
  await import(pathToFileURL(join(repo, 'dist/site/verify.js')).href)
);
/** @import { Planted } from './site-generator.mjs' */
/** @import { Measured } from './measure.mjs' */
/**
 * @typedef {object} Tool
 * @property {string} name
 * @property {string} label
 * @property {(dir: string, out: string) => [string, string[]]} command the program and its arguments
 * @property {Record<string, string>} [env]
 * @property {(stderr: string) => boolean} [crashed]
 * @property {(dir: string, out: string, stderr: string) => Set<string> | Promise<Set<string>>} findings
 */

const which = (/** @type {string} */ name) =>
  (process.env.PATH ?? '')
    .split(':')
    .map((dir) => join(dir, name))
    .find((path) => existsSync(path) && statSync(path).isFile());

/**
 * A command with stdout to a file: /usr/bin/time measures the shell's exec'd process, the tool itself.
 * A peer under BENCH_VERIFY_PEER_TIMEOUT runs under coreutils' timeout (exit 124 when it stopped the
 * peer); its peak RSS is still the peer's, since a process's figures include the children it waited for.
 * @param {string} out
 * @param {string} cmd
 * @param {string[]} args
 * @param {number} [limit] seconds
 * @returns {[string, string[]]}
 */
const toFile = (out, cmd, args, limit) => [
  '/bin/sh',
  [
    '-c',
    'out="$1"; shift; exec "$@" > "$out"',
    'sh',
    out,
    ...(limit ? ['timeout', '--kill-after=10', String(limit)] : []),
    cmd,
    ...args,
  ],
];
const STOPPED = 124;

/** @type {Tool[]} */
const tools = [
  {
    name: 'mint-admin',
    label: '`mint-admin export verify DIR --json`',
    command: (dir, out) => toFile(out, process.execPath, [CLI, 'export', 'verify', dir, '--json']),
    findings: (dir, out) => verifyFindings(dir, out),
  },
];
/** @type {string[]} */
const skipped = [];
const htmlproofer = which('htmlproofer');
if (htmlproofer) {
  tools.push({
    name: 'html-proofer',
    label: `html-proofer ${versionOf(htmlproofer)} (\`--disable-external --assume-extension\`)`,
    command: (dir, out) => toFile(out, htmlproofer, [dir, '--disable-external', '--assume-extension'], peerTimeout),
    // Without a UTF-8 locale (the bench's clean environment has none) Ruby reads pages as US-ASCII and
    // html-proofer stops at the first non-ASCII byte ("\xC3" on US-ASCII); a user's shell has one.
    env: { LANG: 'C.UTF-8' },
    crashed: (stderr) => /htmlproofer [\d.]+ \| Error:/.test(stderr),
    // It prints its findings on stderr.
    findings: (dir, _out, stderr) => htmlProoferFindings(dir, stderr),
  });
} else
  skipped.push(
    'html-proofer is not installed (bench/verify-peers-setup.sh: apt-get install ruby-html-proofer): skipped',
  );
const linkinatorCli = join(cache, 'linkinator/node_modules/linkinator/build/src/cli.js');
const node24 = join(cache, 'node-24/bin/node');
if (existsSync(linkinatorCli)) {
  const node = existsSync(node24) ? node24 : process.execPath;
  tools.push({
    name: 'linkinator',
    label: `linkinator ${JSON.parse(readFileSync(join(cache, 'linkinator/node_modules/linkinator/package.json'), 'utf8')).version} on Node ${versionOf(node)} (\`--recurse --clean-urls --check-fragments --check-css --skip ^https://\`)`,
    command: (dir, out) =>
      toFile(
        out,
        node,
        [
          linkinatorCli,
          dir,
          '--recurse',
          '--clean-urls',
          '--check-fragments',
          '--check-css',
          '--skip',
          '^https://',
          '--format',
          'json',
        ],
        peerTimeout,
      ),
    findings: (dir, out) => linkinatorFindings(dir, readFileSync(out, 'utf8')),
  });
} else
  skipped.push('linkinator is not installed (bench/verify-peers-setup.sh: npm install into bench/.cache): skipped');

/** @param {string} program */
function versionOf(program) {
  const r = spawnVersion(program);
  return (/\d+\.\d+\.\d+/.exec(r) ?? ['?'])[0];
}
/** @param {string} program */
function spawnVersion(program) {
  try {
    return execFileSync(program, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
}
// Findings, all as `page file -> absolute link path#fragment` (the link resolved against the page's
// URL), so that a link written relative and the same one written absolute compare equal.

/**
 * The URL a page is served at: clean, as the generator links it.
 * @param {string} file
 */
function pageUrl(file) {
  if (file === 'index.html') return '/';
  return '/' + file.replace(/\/index\.html$/, '').replace(/\.html$/, '');
}
/**
 * @param {string} file
 * @param {string} link
 */
function key(file, link) {
  const url = new URL(link, `http://${SITE_HOST}${pageUrl(file)}`);
  // /s-3 and /s-3/ are one page (s-3/index.html): tools write whichever they followed.
  return `${file} -> ${url.pathname.replace(/(.)\/$/, '$1')}${url.hash}`;
}

/**
 * The CLI's run is timed; its list stops at 1,000 problems, so the full list comes from the same engine, untimed.
 * @param {string} dir
 * @param {string} out
 */
async function verifyFindings(dir, out) {
  const cli = JSON.parse(readFileSync(out, 'utf8'));
  const report = await verifySite({ directory: dir, basePath: '', listLimit: Number.MAX_SAFE_INTEGER });
  if (report.problemCount !== cli.problemCount)
    throw new Error(`the CLI counted ${cli.problemCount} problems, the engine ${report.problemCount}`);
  return new Set(
    report.problems.map((p) =>
      p.page === 'sitemap.xml' ? `sitemap.xml -> ${new URL(p.target).pathname}` : key(p.page, p.target),
    ),
  );
}

/**
 * html-proofer 3 prints `- ./dir/page.html` and, under it, `  *  <message> (line N)`, with the element
 * on the next line for links (`<a href="...">`); images and scripts name their target in the message.
 * @param {string} dir
 * @param {string} text
 */
function htmlProoferFindings(dir, text) {
  /** @type {Set<string>} */
  const found = new Set();
  /** @type {string | undefined} */
  let page;
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    const file = /^- (.*)$/.exec(line)?.[1];
    if (file !== undefined) {
      page = file.startsWith(dir) ? file.slice(dir.length + 1) : file;
      continue;
    }
    if (!line.startsWith('  *  ') || page === undefined) continue;
    const element = /(?:href|src)="([^"]*)"/.exec(lines[i + 1] ?? '')?.[1];
    const named = /(?:internally linking to|internal image|internal script) (\S+?),? (?:which )?does not exist/.exec(
      line,
    )?.[1];
    const link = element ?? named;
    found.add(link === undefined ? `${page} -> ? ${line.trim()}` : key(page, link));
  }
  return found;
}

/** @type {Map<string, string>} */
const details = new Map();

/**
 * linkinator 8's JSON output, as far as the bench reads it.
 * @typedef {{ url: string; parent: string; state: string; status: number; failureDetails?: unknown[] }} LinkinatorLink
 */

/**
 * linkinator 8 checks a directory without a server: each link's url and parent are paths on disk.
 * @param {string} dir
 * @param {string} text
 */
function linkinatorFindings(dir, text) {
  /** @type {Set<string>} */
  const found = new Set();
  for (const link of /** @type {{ links: LinkinatorLink[] }} */ (JSON.parse(text)).links) {
    if (link.state !== 'BROKEN') continue;
    const parent = (link.parent.startsWith(dir) ? link.parent.slice(dir.length) : link.parent).replace(
      /^\/+|\/+$/g,
      '',
    );
    const file = (parent === '' ? ['index.html'] : [parent, `${parent}.html`, `${parent}/index.html`]).find(
      (f) => existsSync(join(dir, f)) && statSync(join(dir, f)).isFile(),
    );
    const target = link.url.startsWith(dir) ? link.url.slice(dir.length) : link.url;
    const k = key(file ?? parent, target);
    found.add(k);
    // What linkinator said, shown with the examples of a disagreement.
    details.set(
      k,
      `status ${link.status}${link.failureDetails?.length ? ` ${JSON.stringify(link.failureDetails[0]).slice(0, 160)}` : ''}`,
    );
  }
  return found;
}

/**
 * Why a tool and the planted list disagree, by what was planted: each known case, with which side is
 * right. Anything else is unexplained (a MISS).
 */
/** @type {Record<string, string>} */
const EXPLAINED = {
  'html-proofer missed missing-sitemap-entry':
    'html-proofer does not read sitemap.xml; verify is right (a sitemap entry of a missing page is a 404 a search engine is sent to)',
  'html-proofer missed bad-fragment-div-name':
    'html-proofer 3 takes name= on any element as an anchor (url_validator.rb: //*[@name=...]); the HTML spec finds a fragment by id=, or by name= on an <a> only, as linkinator does; verify is right',
  'html-proofer missed missing-srcset-image':
    'html-proofer 3 checks an <img> src, and its srcset only when there is no src (element.rb: @src || @srcset); verify is right',
  'html-proofer missed missing-font-in-css':
    'html-proofer reads only *.html files, never a stylesheet (linkinator does with --check-css); verify is right',
  'linkinator missed missing-sitemap-entry':
    'linkinator reads sitemap.xml only with --sitemap, which it refuses on a directory ("\'sitemap\' can only be used with HTTP paths"); verify is right',
};

/**
 * Whether a finding's link leads to a file of the site (host rules, fragment aside).
 * @param {string} dir
 * @param {string} finding `page -> link`
 */
function linkedFileExists(dir, finding) {
  const link = finding.split(' -> ')[1] ?? '';
  const path = decodeURIComponent(link.split('#')[0] ?? '').replace(/^\/+/, '');
  const candidates = path === '' ? ['index.html'] : [path, `${path}.html`, `${path}/index.html`];
  return candidates.some((c) => existsSync(join(dir, c)) && statSync(join(dir, c)).isFile());
}

/**
 * @param {string} tool
 * @param {Set<string>} found
 * @param {Planted[]} planted
 * @param {string} dir
 */
function compare(tool, found, planted, dir) {
  const plantedKeys = new Map(
    planted.map((p) => [
      p.page === 'sitemap.xml' ? `sitemap.xml -> ${new URL(p.target).pathname}` : key(p.page, p.target),
      p.plantedAs,
    ]),
  );
  /** @type {Map<string, string[]>} */
  const groups = new Map();
  const group = (/** @type {string} */ what, /** @type {string} */ item) => {
    const items = groups.get(what) ?? [];
    groups.set(what, items);
    items.push(item);
  };
  for (const [k, kind] of plantedKeys) if (!found.has(k)) group(`${tool} missed ${kind}`, k);
  for (const k of found) {
    if (plantedKeys.has(k)) continue;
    const shown = details.has(k) ? `${k} (${details.get(k)})` : k;
    if (!k.includes('#') && linkedFileExists(dir, k)) group(`${tool} reported a link to a file that is there`, shown);
    else group(`${tool} reported, not planted`, shown);
  }
  return [...groups].map(([what, items]) => ({
    what,
    items,
    why:
      EXPLAINED[what] ??
      (what.endsWith('a file that is there')
        ? `the linked file exists, as the host serves it: ${tool} is wrong`
        : undefined),
  }));
}

const fmtS = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(2)} s`;
const fmtMb = (/** @type {number} */ kb) => `${(kb / 1024).toFixed(0)} MB`;
const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (b > 0 ? (a / b).toFixed(2) : '-');
const n = (/** @type {number} */ x) => x.toLocaleString('en-US');

/** @type {string[]} */
const rows = [];
/** @type {string[]} */
const notes = [];
/** @type {string[]} */
const failures = [];
/** @type {string[]} */
const raw = [];
/** @type {Array<{ pages: number; kb: number }>} */
const verifyPeaks = [];
/** @type {Set<string>} */
const peersRan = new Set();
/** `tool pages` of the runs BENCH_VERIFY_PEER_TIMEOUT stopped */
/** @type {Set<string>} */
const stoppedRuns = new Set();
try {
  for (const pages of sizes) {
    const dir = join(work, `site-${pages}`);
    const planted = generateSite(dir, { pages, seed: 1 });
    settleDisk();
    const here = tools.filter((t) => t.name === 'mint-admin' || pages <= peersMax);
    /** @type {Map<string, Measured[]>} */
    const runs = new Map(here.map((t) => [t.name, []]));
    // The site was just written: its pages are in the page cache for every tool alike. Each tool's
    // findings come from its first run.
    /** @type {Map<string, Set<string>>} */
    const findings = new Map();
    for (let round = 0; round < roundsFor(pages); round++) {
      // Interleaved: each round runs every tool once, so a burst of load on the shared machine falls on all of them.
      for (const tool of round % 2 ? [...here].reverse() : here) {
        const out = join(work, `${tool.name}.out`);
        const [cmd, args] = tool.command(dir, out);
        const r = await measure(cmd, args, { XDG_CONFIG_HOME: join(work, 'xdg'), ...tool.env });
        const stopped =
          tool.name !== 'mint-admin' && peerTimeout !== undefined && (r.code === STOPPED || r.code === 137);
        if (!stopped && ((r.code !== 0 && r.code !== 1 && r.code !== 4) || tool.crashed?.(r.stderr)))
          throw new Error(`${tool.name} exited ${r.code}: ${r.stderr.slice(-2000)}`);
        if (stopped) stoppedRuns.add(`${tool.name} ${pages}`);
        else if (round === 0) findings.set(tool.name, await tool.findings(dir, out, r.stderr));
        runs.get(tool.name)?.push(r);
        raw.push(
          `raw: verify-peers ${n(pages)} pages, ${tool.name}: ${r.wallMs.toFixed(0)} ms, ${(r.peakKb / 1024).toFixed(1)} MB${stopped ? ` (stopped after ${peerTimeout} s)` : ''}`,
        );
      }
    }
    const runsOf = (/** @type {string} */ name) => runs.get(name) ?? [];
    const wall = (/** @type {string} */ name) => median(runsOf(name).map((r) => r.wallMs));
    const peak = (/** @type {string} */ name) => Math.max(...runsOf(name).map((r) => r.peakKb));
    verifyPeaks.push({ pages, kb: peak('mint-admin') });
    rows.push(
      `| verify, ${n(pages)} pages: wall time / peak RSS | ${fmtS(wall('mint-admin'))} / ${fmtMb(peak('mint-admin'))} | - | - |`,
    );
    for (const peer of here.filter((t) => t.name !== 'mint-admin')) {
      peersRan.add(peer.name);
      // A peer that was stopped ran at least this long and held at least this much.
      const atLeast = stoppedRuns.has(`${peer.name} ${pages}`) ? 'stopped at ' : '';
      rows.push(
        `| verify vs ${peer.name}, ${n(pages)} pages: wall time | ${fmtS(wall('mint-admin'))} | ${atLeast}${fmtS(wall(peer.name))} | ${atLeast ? '< ' : ''}${ratio(wall('mint-admin'), wall(peer.name))} |`,
      );
      rows.push(
        `| verify vs ${peer.name}, ${n(pages)} pages: peak RSS | ${fmtMb(peak('mint-admin'))} | ${atLeast}${fmtMb(peak(peer.name))} | ${atLeast ? '< ' : ''}${ratio(peak('mint-admin'), peak(peer.name))} |`,
      );
      if (wall('mint-admin') >= wall(peer.name))
        failures.push(`verify is not faster than ${peer.name} on ${n(pages)} pages`);
    }
    notes.push(`Findings on ${n(pages)} pages (${n(planted.length)} planted):`);
    for (const tool of here) {
      const found = findings.get(tool.name);
      if (!found) {
        notes.push(`- ${tool.name}: stopped after ${peerTimeout} s (BENCH_VERIFY_PEER_TIMEOUT): findings not compared`);
        continue;
      }
      const diffs = compare(tool.name, found, planted, dir);
      notes.push(
        `- ${tool.name}: ${n(found.size)} found; ${diffs.length === 0 ? 'exactly what was planted' : `${diffs.length} kind(s) of disagreement`}`,
      );
      for (const d of diffs) {
        notes.push(
          `  - ${d.what}: ${n(d.items.length)} (e.g. ${d.items.slice(0, 2).join('; ')}): ${d.why ?? 'UNEXPLAINED'}`,
        );
        if (!d.why) failures.push(`${d.what} on ${n(pages)} pages, unexplained`);
      }
    }
    for (const peer of tools.filter((t) => !here.includes(t)))
      notes.push(`- ${peer.name}: not run on ${n(pages)} pages (BENCH_VERIFY_PEERS_MAX=${peersMax})`);
    process.stderr.write(`${[...rows, ...notes, ...raw].join('\n')}\n`);
    rmSync(dir, { recursive: true, force: true });
  }
  const first = verifyPeaks[0];
  const last = verifyPeaks.at(-1);
  if (first && last && verifyPeaks.length > 1) {
    const growth = last.kb - first.kb;
    rows.push(
      `| verify peak RSS growth, ${n(first.pages)} -> ${n(last.pages)} pages (must be < 40 MB) | ${fmtMb(growth)} | - | - |`,
    );
    if (!quick && growth >= 40 * 1024) failures.push(`verify's peak RSS grew by ${fmtMb(growth)}`);
  }
  console.log(
    `\nexport verify vs its peers on generated sites (bench/site-generator.mjs: ~8 KB pages, clean URLs, planted problems of every kind). ` +
      `Tools: ${tools.map((t) => t.label).join('; ')}. Wall time: median of interleaved rounds (3; 1 at 100,000 pages); peak RSS from ${rssSource}. ` +
      `Ratio: mint-admin's figure over the peer's (below 1: mint-admin is faster or smaller).\n`,
  );
  console.log('| figure | mint-admin | peer | ratio |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(r);
  for (const s of skipped) console.log(`Note: ${s}`);
  for (const note of notes) console.log(note);
  for (const r of raw) console.log(r);
  const against =
    peersRan.size === 0
      ? 'no peer ran'
      : `against ${[...peersRan].join(' and ')}: every disagreement explained, faster than each`;
  console.log(
    failures.length === 0
      ? `PASS export verify vs peers: exactly what was planted; ${against}; memory flat`
      : `MISS export verify vs peers: ${failures.join('; ')}`,
  );
  if (failures.length > 0) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
