// What a page or stylesheet points at: every href, src, srcset, poster, data and CSS url() / @import,
// read by a real HTML parser (htmlparser2: small, fast, streaming, maintained) fed chunk by chunk, so
// a large page is never held whole and memory stays flat however large the site.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Parser } from 'htmlparser2';

/** `link`: a page someone navigates to (a broken one is a broken link); `asset`: loaded by the page. */
export type ReferenceRole = 'link' | 'asset';

export interface Reference {
  url: string;
  role: ReferenceRole;
}

/** Attributes holding one URL, per element; `*` for any element. */
const URL_ATTRIBUTES: Record<string, Record<string, ReferenceRole>> = {
  a: { href: 'link' },
  area: { href: 'link' },
  iframe: { src: 'link' },
  img: { src: 'asset' },
  script: { src: 'asset' },
  source: { src: 'asset' },
  video: { src: 'asset', poster: 'asset' },
  audio: { src: 'asset' },
  track: { src: 'asset' },
  embed: { src: 'asset' },
  object: { data: 'asset' },
  input: { src: 'asset' },
};
const SRCSET_ELEMENTS = new Set(['img', 'source']);
/** <link rel=...> values that name an origin or metadata rather than a file this site must hold. */
const LINK_RELS_TO_SKIP = new Set(['preconnect', 'dns-prefetch']);
const LINK_RELS_TO_PAGES = new Set(['canonical', 'alternate', 'next', 'prev']);

/** Streams one HTML file through the parser and returns the references it holds, in document order. */
export async function htmlReferences(file: string): Promise<Reference[]> {
  const found: Reference[] = [];
  const add = (url: string | undefined, role: ReferenceRole) => {
    if (url !== undefined && url.trim() !== '') found.push({ url: url.trim(), role });
  };
  let styleText: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const single = URL_ATTRIBUTES[name];
        if (single) for (const [attribute, role] of Object.entries(single)) add(attribs[attribute], role);
        if (name === 'link') linkReference(attribs, add);
        if (SRCSET_ELEMENTS.has(name) && attribs.srcset) for (const url of srcsetUrls(attribs.srcset)) add(url, 'asset');
        if (attribs.style) for (const url of cssUrls(attribs.style)) add(url, 'asset');
        if (name === 'style') styleText = '';
      },
      ontext(text) {
        if (styleText !== undefined) styleText += text;
      },
      onclosetag(name) {
        if (name === 'style' && styleText !== undefined) {
          for (const url of cssUrls(styleText)) add(url, 'asset');
          styleText = undefined;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  await feed(parser, file);
  return found;
}

/** Pages up to this size are read in one call (a stream per small file costs more than the parsing). */
const READ_WHOLE_BELOW = 1024 * 1024;

/** Feeds a file to the parser: read whole when small, streamed in 64 KiB chunks when not, so memory stays bounded. */
async function feed(parser: Parser, file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size < READ_WHOLE_BELOW) {
      parser.end(await handle.readFile('utf8'));
      return;
    }
  } finally {
    await handle.close();
  }
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024 })) parser.write(chunk as string);
  parser.end();
}

function linkReference(attribs: Record<string, string>, add: (url: string | undefined, role: ReferenceRole) => void): void {
  const rels = (attribs.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (rels.some((rel) => LINK_RELS_TO_SKIP.has(rel))) return;
  add(attribs.href, rels.some((rel) => LINK_RELS_TO_PAGES.has(rel)) ? 'link' : 'asset');
  if (attribs.imagesrcset) for (const url of srcsetUrls(attribs.imagesrcset)) add(url, 'asset');
}

/** The URLs of a srcset: comma-separated candidates, each a URL and optional descriptors (HTML spec). */
export function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && /[\s,]/.test(srcset[i]!)) i++;
    const start = i;
    while (i < srcset.length && !/\s/.test(srcset[i]!)) i++;
    let url = srcset.slice(start, i);
    // A URL followed directly by a comma has no descriptors: the comma ends the candidate.
    const endsCandidate = url.endsWith(',');
    url = url.replace(/,+$/, '');
    if (url !== '') urls.push(url);
    if (!endsCandidate) {
      while (i < srcset.length && srcset[i] !== ',') i++; // the descriptors: 2x, 640w
    }
  }
  return urls;
}

const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')/gi;

/** The URLs of CSS `url()` and `@import "..."`. CSS is not HTML: a tokenising regex is the right tool. */
export function cssUrls(css: string): string[] {
  const urls: string[] = [];
  for (const match of css.matchAll(CSS_URL)) {
    const url = match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5];
    if (url !== undefined && url.trim() !== '') urls.push(url.trim());
  }
  return urls;
}

/** `<loc>` texts of a sitemap (or sitemap index), and which kind of document it is. */
export async function sitemapLocations(file: string): Promise<{ index: boolean; locations: string[] }> {
  const locations: string[] = [];
  let index = false;
  let loc: string | undefined;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'sitemapindex') index = true;
        if (name === 'loc') loc = '';
      },
      ontext(text) {
        if (loc !== undefined) loc += text;
      },
      onclosetag(name) {
        if (name === 'loc' && loc !== undefined) {
          if (loc.trim() !== '') locations.push(loc.trim());
          loc = undefined;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  await feed(parser, file);
  return { index, locations };
}
