// What a page or stylesheet points at: every href, src, srcset, poster, data and CSS url() / @import,
// read by a real HTML parser (htmlparser2: small, fast, streaming, maintained) fed chunk by chunk, so
// a large page is never held whole and memory stays flat however large the site. Stylesheets go through
// a scanner of their own (css-urls.ts); values without end are bounded (bounded-parser.ts).
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { ATTRIBUTE_LIMIT, BoundedParser } from './bounded-parser.js';
import { CssUrlScanner, cssUrls, URL_LIMIT } from './css-urls.js';

export { cssUrls, URL_LIMIT } from './css-urls.js';

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

/**
 * Streams one HTML file through the parser and hands each reference it holds to `found`, in document
 * order, and each anchor a `#fragment` can lead to (id= on any element, name= on an <a>) to `anchor`:
 * nothing of the page is collected, so a page of any size (or one attribute of hundreds of megabytes) stays small.
 */
export async function htmlReferences(
  file: string,
  found: (reference: Reference) => void,
  anchor: (name: string) => void = () => {},
): Promise<void> {
  const add = (url: string | undefined, role: ReferenceRole) => {
    const trimmed = url?.trim();
    if (trimmed) found({ url: trimmed, role });
  };
  const addCss = (url: string) => add(url, 'asset');
  let style: CssUrlScanner | undefined;
  const parser = new BoundedParser(
    {
      onopentag(name, attribs) {
        if (attribs.id) anchor(attribs.id);
        if (name === 'a' && attribs.name) anchor(attribs.name);
        const single = URL_ATTRIBUTES[name];
        if (single) for (const [attribute, role] of Object.entries(single)) add(attribs[attribute], role);
        if (name === 'link') linkReference(attribs, add);
        if (SRCSET_ELEMENTS.has(name) && attribs.srcset)
          for (const url of srcsetUrls(attribs.srcset)) add(url, 'asset');
        // A style attribute cut at ATTRIBUTE_LIMIT is scanned as far as it was kept.
        if (attribs.style) for (const url of cssUrls(attribs.style)) add(url, 'asset');
        if (name === 'style') style = new CssUrlScanner(addCss);
      },
      ontext(text) {
        style?.write(text);
      },
      onclosetag(name) {
        if (name === 'style') {
          style?.end();
          style = undefined;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  await feed(file, (chunk) => parser.write(chunk));
  parser.end();
  style?.end();
  // The parser drops a tag the file ends inside; a value that long is a finding, not nothing.
  const unclosed = parser.unclosedValueOver(URL_LIMIT);
  if (unclosed !== undefined) found({ url: unclosed || 'an attribute value', role: 'asset' });
}

/** Each reference of a stylesheet, streamed: a stylesheet can be as large as a page. */
export async function stylesheetReferences(file: string, found: (reference: Reference) => void): Promise<void> {
  const scanner = new CssUrlScanner((url) => found({ url, role: 'asset' }));
  await feed(file, (chunk) => scanner.write(chunk));
  scanner.end();
}

/** Files up to this size are read in one call (a stream per small file costs more than the parsing). */
const READ_WHOLE_BELOW = 1024 * 1024;

/** Hands a file to `write`: whole when small, in 64 KiB chunks when not, so memory stays bounded. */
async function feed(file: string, write: (chunk: string) => void): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size < READ_WHOLE_BELOW) {
      write(await handle.readFile('utf8'));
      return;
    }
  } finally {
    await handle.close();
  }
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024 }))
    write(chunk as string);
}

function linkReference(
  attribs: Record<string, string>,
  add: (url: string | undefined, role: ReferenceRole) => void,
): void {
  const rels = (attribs.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (rels.some((rel) => LINK_RELS_TO_SKIP.has(rel))) return;
  add(attribs.href, rels.some((rel) => LINK_RELS_TO_PAGES.has(rel)) ? 'link' : 'asset');
  if (attribs.imagesrcset) for (const url of srcsetUrls(attribs.imagesrcset)) add(url, 'asset');
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
}

/**
 * The URLs of a srcset: comma-separated candidates, each a URL and optional descriptors (HTML spec).
 * One pass, no regex: each character is looked at once. A srcset cut at ATTRIBUTE_LIMIT comes back
 * whole, as one URL too long to check, rather than as a list whose last candidate is cut.
 */
export function srcsetUrls(srcset: string): string[] {
  if (srcset.length > ATTRIBUTE_LIMIT) return [srcset];
  const urls: string[] = [];
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && (isSpace(srcset[i]!) || srcset[i] === ',')) i++;
    const start = i;
    while (i < srcset.length && !isSpace(srcset[i]!)) i++;
    // A URL followed directly by a comma has no descriptors: the comma ends the candidate.
    let end = i;
    while (end > start && srcset[end - 1] === ',') end--;
    const endsCandidate = end < i;
    if (end > start) urls.push(srcset.slice(start, end));
    if (!endsCandidate) {
      while (i < srcset.length && srcset[i] !== ',') i++; // the descriptors: 2x, 640w
    }
  }
  return urls;
}

/**
 * Hands each `<loc>` text of a sitemap (or sitemap index) to `found`, with whether the document is an
 * index (known from its root element, before any `<loc>`). A `<loc>` is kept to URL_LIMIT + 1 characters.
 */
export async function sitemapLocations(file: string, found: (location: string, index: boolean) => void): Promise<void> {
  let index = false;
  let loc: string | undefined;
  const parser = new BoundedParser(
    {
      onopentag(name) {
        if (name === 'sitemapindex') index = true;
        if (name === 'loc') loc = '';
      },
      ontext(text) {
        if (loc !== undefined && loc.length <= URL_LIMIT) loc += text.slice(0, URL_LIMIT + 1 - loc.length);
      },
      onclosetag(name) {
        if (name === 'loc' && loc !== undefined) {
          if (loc.trim() !== '') found(loc.trim(), index);
          loc = undefined;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  await feed(file, (chunk) => parser.write(chunk));
  parser.end();
}
