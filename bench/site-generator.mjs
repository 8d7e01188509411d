// Generates a static site shaped like a Mintlify export, with problems planted in it, for the verify
// bench (bench/verify-peers.mjs) and its test (test/site/verify-planted.test.ts). Deterministic: the
// same seed and page count give the same bytes and the same list of what was planted.
//
// The site: a home page (index.html), sections served at clean URLs (/s-3 is s-3/index.html) holding
// pages (/s-3/p-305 is s-3/p-305.html). Every page loads a shared stylesheet, script and image, links
// to the home page, its section, the next page (so a crawler from the home page reaches every page) and
// a few others (leaf pages partly by relative links), and has headings with id= and an <a name=>
// anchor that its own table of contents and other pages link to by #fragment. sitemap.xml lists every
// page by absolute URL.
//
// Planted, each on pages picked by the seed, ceil(pages / 50) of each kind: a link to a page that does
// not exist, a missing image, stylesheet and script, a #fragment of the page itself and one of another
// page that no element carries; and ceil(pages / 200) sitemap entries for pages that do not exist.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const SITE_HOST = 'docs.example.com';

/**
 * mulberry32: a small, fast PRNG whose sequence is fixed by its seed.
 * @param {number} seed
 */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** @typedef {{ file: string; url: string; section: number }} PagePlace */
/** @typedef {{ page: string; target: string; kind: string; plantedAs: string }} Planted */

/**
 * Page i's file and the clean URL it is served at.
 * @param {number} i
 * @returns {(PagePlace & { leaf: false }) | (PagePlace & { leaf: true; name: string })}
 */
export function pageAt(i) {
  if (i === 0) return { file: 'index.html', url: '/', section: -1, leaf: false };
  const section = Math.floor((i - 1) / 100);
  if ((i - 1) % 100 === 0) return { file: `s-${section}/index.html`, url: `/s-${section}`, section, leaf: false };
  return { file: `s-${section}/p-${i}.html`, url: `/s-${section}/p-${i}`, section, leaf: true, name: `p-${i}` };
}

/** The anchors every page carries: id= on headings, name= on an <a>. */
const HEADING_IDS = ['overview', 'install', 'configure', 'deploy'];
const NAMED_ANCHOR = 'legacy-setup';

export const PLANTED_KINDS = [
  'broken-link',
  'missing-image',
  'missing-stylesheet',
  'missing-script',
  'bad-own-fragment',
  'bad-other-fragment',
];

/**
 * Writes a site of `pages` pages into `root`; returns what was planted as the problems `export verify`
 * reports ({ page, target, kind }, target as written) and, for the peers, how each one is meant
 * (`plantedAs`: the kind of defect, which a peer may word differently).
 * @param {string} root
 * @param {{ pages: number; seed?: number }} options
 */
export function generateSite(root, { pages, seed = 1 }) {
  if (!Number.isInteger(pages) || pages < 2) throw new Error('pages: an integer of at least 2');
  const rand = random(seed);
  const pick = (/** @type {number} */ n) => Math.floor(rand() * n);
  /** @type {Planted[]} */
  const planted = [];
  // Which pages carry which planted problem: chosen first, so the choice does not depend on page text.
  const perKind = Math.ceil(pages / 50);
  /** @type {Map<number, Set<string>>} */
  const plants = new Map();
  for (const kind of PLANTED_KINDS) {
    for (let k = 0; k < perKind; k++) {
      const i = 1 + pick(pages - 1);
      const kinds = plants.get(i) ?? new Set();
      plants.set(i, kinds.add(kind));
    }
  }
  const text =
    'Configure the project, deploy the docs with the static export, then check every link before it ships. '.repeat(12);
  for (let i = 0; i < pages; i++) {
    const p = pageAt(i);
    const links = ['/', i + 1 < pages ? pageAt(i + 1).url : '/s-0'];
    if (p.section >= 0) links.push(`/s-${p.section}`);
    for (let k = 0; k < 5; k++) {
      const other = pageAt(pick(pages));
      // A relative link only where a browser and a file-based checker agree on its base: between leaf pages of one section.
      links.push(p.leaf && other.leaf && other.section === p.section ? other.name : other.url);
    }
    const goodFragments = [];
    for (let k = 0; k < 2; k++) {
      const other = pageAt(pick(pages));
      goodFragments.push(`${other.url}#${k === 0 ? HEADING_IDS[pick(HEADING_IDS.length)] : NAMED_ANCHOR}`);
    }
    const head = ['<link rel="stylesheet" href="/assets/app.css">', '<script src="/assets/app.js" defer></script>'];
    /** @type {string[]} */
    const body = [];
    const plant = (
      /** @type {string} */ kind,
      /** @type {string} */ target,
      /** @type {string} */ html,
      where = body,
    ) => {
      planted.push({ page: p.file, target, kind: verifyKind(kind), plantedAs: kind });
      where.push(html);
    };
    for (const kind of plants.get(i) ?? []) {
      if (kind === 'broken-link')
        plant(kind, `/s-${p.section}/gone-${i}`, `<a href="/s-${p.section}/gone-${i}">gone</a>`);
      if (kind === 'missing-image')
        plant(kind, `/images/missing-${i}.png`, `<img src="/images/missing-${i}.png" alt="missing">`);
      if (kind === 'missing-stylesheet')
        plant(kind, `/assets/missing-${i}.css`, `<link rel="stylesheet" href="/assets/missing-${i}.css">`, head);
      if (kind === 'missing-script')
        plant(kind, `/assets/missing-${i}.js`, `<script src="/assets/missing-${i}.js"></script>`, head);
      if (kind === 'bad-own-fragment') plant(kind, `#nowhere-${i}`, `<a href="#nowhere-${i}">nowhere</a>`);
      if (kind === 'bad-other-fragment') {
        const target = `${pageAt(pick(pages)).url}#nowhere-${i}`;
        plant(kind, target, `<a href="${target}">elsewhere</a>`);
      }
    }
    if (i === 0)
      body.push(
        ...cornerCases((kind, target) =>
          planted.push({ page: p.file, target, kind: verifyKind(kind), plantedAs: kind }),
        ),
      );
    const toc = [...HEADING_IDS, NAMED_ANCHOR].map((id) => `<li><a href="#${id}">${id}</a></li>`).join('');
    const sections = HEADING_IDS.map((id) => `<h2 id="${id}">${id}</h2><p>${text}</p>`).join('\n');
    writePage(
      root,
      p.file,
      `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Page ${i}</title>${head.join('')}</head>\n` +
        `<body><nav><ul>${links.map((l, k) => `<li><a href="${l}">link ${k}</a></li>`).join('')}</ul><ul>${toc}</ul></nav>\n` +
        `<main><h1>Page ${i}</h1><img src="/images/logo.png" alt="logo"><a name="${NAMED_ANCHOR}"></a>\n${sections}\n` +
        `<p>${goodFragments.map((f) => `<a href="${f}">see also</a>`).join(' ')} <a href="https://github.com/mintlify">GitHub</a></p>\n${body.join('\n')}\n</main></body></html>\n`,
    );
  }
  writePage(
    root,
    'assets/app.css',
    'body { font-family: sans-serif; }\n@font-face { font-family: Inter; src: url(/fonts/missing-inter.woff2) format("woff2"); }\n',
  );
  planted.push({
    page: 'assets/app.css',
    target: '/fonts/missing-inter.woff2',
    kind: 'missing-asset',
    plantedAs: 'missing-font-in-css',
  });
  writePage(root, 'assets/app.js', '"use strict";\n');
  writePage(root, 'images/logo.png', 'png');
  const locs = [];
  for (let i = 0; i < pages; i++) locs.push(`https://${SITE_HOST}${pageAt(i).url}`);
  for (let k = 0; k < Math.ceil(pages / 200); k++) {
    const loc = `https://${SITE_HOST}/s-${k % Math.max(1, Math.ceil(pages / 100))}/retired-${k}`;
    locs.splice(1 + pick(locs.length - 1), 0, loc);
    planted.push({
      page: 'sitemap.xml',
      target: loc,
      kind: 'missing-sitemap-entry',
      plantedAs: 'missing-sitemap-entry',
    });
  }
  writePage(
    root,
    'sitemap.xml',
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<url><loc>${l}</loc></url>`).join('\n')}\n</urlset>\n`,
  );
  return planted;
}

/**
 * The home page's corner cases, where the HTML and URL specs decide and tools may not follow them: the
 * good ones must not be reported, the bad ones are planted (`plant(kind, target)`).
 * @param {(kind: string, target: string) => void} plant
 */
function cornerCases(plant) {
  const html = [
    // Good: "top" and the empty fragment need no anchor; a fragment is found percent-decoded too;
    // a query string and a trailing slash do not change the page.
    '<a href="#top">back to top</a> <a href="#caf%C3%A9">encoded</a> <h2 id="café">Café</h2>',
    '<a href="/s-0/p-2?tab=1#install">with a query</a> <a href="/s-0/">a section, with a slash</a>',
    // Bad: ids are case-sensitive, and name= makes an anchor only on <a>; a srcset candidate can be missing on its own.
    '<a href="#Overview">case differs</a> <div name="div-name"></div><a href="#div-name">a div name</a>',
    '<img src="/images/logo.png" srcset="/images/logo.png 1x, /images/missing-2x.png 2x" alt="logo">',
  ];
  plant('bad-fragment-case', '#Overview');
  plant('bad-fragment-div-name', '#div-name');
  plant('missing-srcset-image', '/images/missing-2x.png');
  return html;
}

/** @param {string} kind */
function verifyKind(kind) {
  if (kind === 'broken-link') return 'broken-link';
  if (kind.startsWith('missing-')) return 'missing-asset';
  if (kind.includes('fragment')) return 'broken-fragment';
  throw new Error(`no verify kind for ${kind}`);
}

/**
 * @param {string} root
 * @param {string} file
 * @param {string} content
 */
function writePage(root, file, content) {
  const path = join(root, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}
