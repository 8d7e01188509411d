// Where a reference leads: inside the site (to which file, under the rules the hosts apply,
// resolve.ts), to another site, or nowhere to check; with the answers for root-relative references
// kept, since every page links to the same few.
import type { FileIndex } from './file-index.js';
import type { ProblemKind } from './problem-list.js';
import { parseUrlPath } from './resolve.js';

/** The host name a link must carry to count as internal even when written as an absolute URL. */
export const PLACEHOLDER_HOST = 'site.invalid';

/**
 * Remembering is bounded: a page's duplicates are skipped, and root-relative answers kept, only for
 * references of up to this many characters...
 */
export const REMEMBERED_LENGTH = 2048;
/**
 * The answers kept for root-relative references, at most. The links every page shares (home,
 * sections, assets) come first and stay; a link to one page among 100,000 is rarely asked twice, and
 * keeping those answers was the largest thing that grew with the site (and V8 leaves twice what is
 * alive as room for garbage).
 */
const LINK_CACHE_COUNT = 4096;

type Classified = { kind: 'internal'; path: string } | { kind: 'external' } | { kind: 'ignored' };

/**
 * Where a reference written in `page` points. Relative references resolve against the page's own
 * path under the base path, as a browser does for a page served from that path.
 */
export function classifyReference(ref: string, page: string, basePath: string, siteHosts: Set<string>): Classified {
  if (ref.startsWith('#')) return { kind: 'ignored' }; // the same page
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(ref)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return { kind: 'ignored' }; // mailto:, tel:, data:, javascript:
  let url: URL;
  try {
    url = new URL(ref, `http://${PLACEHOLDER_HOST}${basePath}/${page}`);
  } catch {
    return { kind: 'internal', path: ref }; // unparseable: resolution will refuse it
  }
  if (!siteHosts.has(url.host)) return { kind: 'external' };
  return { kind: 'internal', path: url.pathname };
}

/** Whether a candidate file exists, or why none can. */
export function resolveInSite(path: string, basePath: string, files: FileIndex): 'found' | ProblemKind | 'missing' {
  const found = findInSite(path, basePath, files);
  return typeof found === 'object' ? 'found' : found;
}

/** The first candidate file that exists (its number), or why none can. */
function findInSite(path: string, basePath: string, files: FileIndex): { file: number } | ProblemKind | 'missing' {
  const parsed = parseUrlPath(path, basePath);
  if (parsed.kind === 'outside-base') return 'outside-base-path';
  if (parsed.kind === 'refused') return 'unsafe-path';
  for (const candidate of parsed.candidates) {
    const file = files.find(candidate);
    if (file >= 0) return { file };
  }
  return 'missing';
}

export type Outcome =
  | { kind: 'internal'; outcome: ReturnType<typeof findInSite> }
  | { kind: 'external' }
  | { kind: 'ignored' };

/** classifyReference + resolveInSite; a root-relative reference means the same on every page, so its answer is kept. */
export function classifyCached(
  ref: string,
  page: string,
  basePath: string,
  siteHosts: Set<string>,
  files: FileIndex,
  cache: Map<string, Outcome>,
): Outcome {
  const pageIndependent = ref.startsWith('/') && !ref.startsWith('//') && ref.length <= REMEMBERED_LENGTH;
  // `/guide#install` and `/guide#deploy` lead to one file: one entry for both.
  const key = pageIndependent ? withoutFragment(ref) : '';
  const known = pageIndependent ? cache.get(key) : undefined;
  if (known) return known;
  const where = classifyReference(ref, page, basePath, siteHosts);
  const outcome: Outcome =
    where.kind === 'internal' ? { kind: 'internal', outcome: findInSite(where.path, basePath, files) } : where;
  // A copy as the key: the parser's string can be a slice that keeps its whole page alive, and the
  // cache outlives the page (on a large site of distinct links this held most of its page text).
  if (pageIndependent && cache.size < LINK_CACHE_COUNT) cache.set(Buffer.from(key, 'utf8').toString('utf8'), outcome);
  return outcome;
}

function withoutFragment(ref: string): string {
  const at = ref.indexOf('#');
  return at === -1 ? ref : ref.slice(0, at);
}
