// `export verify`: checks an extracted site offline. One walk lists the files; then every page is
// streamed through the HTML parser, a few at a time, and each internal reference is resolved under the
// rules the hosts apply (resolve.ts). A link's #fragment must name an anchor of the page it leads to:
// a page's own `#x` links are checked when its parse ends, links into other pages once every page's
// anchors are known (anchors.ts keeps them as hashes). Only the file list (file-index.ts: packed, by
// number), the anchors and the first problems are kept in memory: the rest are counted (problem-list.ts).
import { opendir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { AnchorIndex, isTopOfPage, PageAnchors, PendingFragments } from './anchors.js';
import { OverlongMarkupError } from './bounded-parser.js';
import { FileIndex } from './file-index.js';
import { DEFAULT_LIST_LIMIT, ProblemList, type Problem, type ProblemKind } from './problem-list.js';
import {
  htmlReferences,
  sitemapLocations,
  stylesheetReferences,
  URL_LIMIT,
  type Reference,
  type ReferenceRole,
} from './references.js';
import { parseUrlPath } from './resolve.js';

export type { Problem, ProblemKind } from './problem-list.js';

export interface VerifyOptions {
  /** the site's root directory */
  directory: string;
  /** normalized (resolve.ts normalizeBasePath): '' or '/docs' */
  basePath: string;
  /** pages parsed at once: enough to overlap reads with parsing */
  concurrency?: number;
  /** problems listed in the report (default 1,000); all of them are counted */
  listLimit?: number;
  /** called as each page or stylesheet is checked (`checked` of `total`), for a caller showing progress */
  onProgress?: (checked: number, total: number) => void;
}

export interface VerifyReport {
  directory: string;
  basePath: string;
  pages: number;
  files: number;
  /** internal references resolved (after removing duplicates within a page) */
  references: number;
  /** links to other sites: counted, never fetched */
  externalLinks: number;
  /** entries of sitemap.xml (and the sitemaps it lists); null when there is no sitemap.xml */
  sitemapEntries: number | null;
  /**
   * the first `listLimit` problems: sitemap ones first, then each file's in file order (each in document
   * order, then the page's links to its own missing #fragments), then links to missing #fragments of other
   * pages, in file and document order
   */
  problems: Problem[];
  /** every problem found, listed or not */
  problemCount: number;
  /** true when problemCount is more than the problems listed */
  truncated: boolean;
  /** what an offline export does not have, whatever this check finds */
  notes: string[];
}

/** Mintlify documents that a static export is a plain set of files: its server-side features stay behind. */
export const OFFLINE_NOTE =
  "an offline export has no search and no AI assistant (they need Mintlify's hosted service); its pages and assets are all there is";

export { SiteProblemsError } from '../errors.js';

/** The host name a link must carry to count as internal even when written as an absolute URL. */
const PLACEHOLDER_HOST = 'site.invalid';

export async function verifySite(opts: VerifyOptions): Promise<VerifyReport> {
  const root = await checkSiteDirectory(opts.directory);
  const files = await listFiles(root);
  const limit = opts.listLimit ?? DEFAULT_LIST_LIMIT;
  const problems = new ProblemList(limit);
  const report: Omit<VerifyReport, 'problems' | 'problemCount' | 'truncated'> = {
    directory: root,
    basePath: opts.basePath,
    pages: 0,
    files: files.count,
    references: 0,
    externalLinks: 0,
    sitemapEntries: null,
    notes: [OFFLINE_NOTE],
  };
  // The sitemap first: its absolute URLs name the site's own host(s), so links written that way count as internal.
  const siteHosts = new Set<string>([PLACEHOLDER_HOST]);
  if (files.has('sitemap.xml')) await checkSitemaps(root, files, opts.basePath, siteHosts, report, problems);

  // Files by number, in path order; a file's place among them is its page number (pages and stylesheets alike).
  const checkable = checkableFiles(files);
  const pageOf = new Int32Array(files.count).fill(-1);
  checkable.forEach((file, index) => {
    pageOf[file] = index;
    if (!files.endsWith(file, '.css')) report.pages++;
  });
  // Files finish out of order; their problems join the list in file order, each file's as soon as those before it are in.
  const perFile = new Map<number, ProblemList>();
  let joined = 0;
  // Pages link to the same few hundred paths over and over: resolve each root-relative one once.
  const cache = new Map<string, Outcome>();
  const fragments: Fragments = {
    checkable,
    pageOf,
    anchors: new AnchorIndex(checkable.length),
    pending: new PendingFragments(),
  };
  let next = 0;
  let checked = 0;
  const worker = async () => {
    while (next < checkable.length) {
      const index = next++;
      const file = files.pathAt(checkable[index]!);
      // Only what is not yet listed can come from this file: once the list is full, files keep counts alone.
      const check = referenceChecker(
        file,
        index,
        files,
        opts.basePath,
        siteHosts,
        report,
        cache,
        fragments,
        new ProblemList(limit - problems.listed.length),
      );
      if (/\.css$/i.test(file)) {
        await stylesheetReferences(join(root, file), check.reference).catch(overlongMarkup(file, check.problems));
      } else {
        const anchors = new PageAnchors();
        await htmlReferences(join(root, file), check.reference, (name) => anchors.add(name)).catch(
          overlongMarkup(file, check.problems),
        );
        for (const link of check.ownFragments) {
          if (!anchors.has(fragmentOf(link))) check.problems.add({ page: file, target: link, kind: 'broken-fragment' });
        }
        fragments.anchors.add(index, anchors);
      }
      perFile.set(index, check.problems);
      opts.onProgress?.(++checked, checkable.length);
      for (let done = perFile.get(joined); done !== undefined; done = perFile.get(joined)) {
        problems.addAll(done);
        perFile.delete(joined++);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 8 }, worker));
  for (const [fromPage, ordinals] of fragments.pending.missing(fragments.anchors)) {
    const page = files.pathAt(checkable[fromPage]!);
    if (problems.listed.length >= limit) {
      problems.count += ordinals.length; // counted; the text of a link not listed is not needed
      continue;
    }
    for (const target of await referencesAt(join(root, page), ordinals))
      problems.add({ page, target, kind: 'broken-fragment' });
  }
  return {
    ...report,
    problems: problems.listed,
    problemCount: problems.count,
    truncated: problems.count > problems.listed.length,
  };
}

/** The directory, resolved; a UsageError when it is missing or not a directory. */
export async function checkSiteDirectory(directory: string): Promise<string> {
  const info = await stat(directory).catch(() => undefined);
  if (!info) throw new UsageError(`${directory} does not exist; give the directory an export was extracted into`);
  if (!info.isDirectory())
    throw new UsageError(`${directory} is not a directory; give the directory an export was extracted into`);
  return realpath(directory);
}

/** The pages and stylesheets (the files whose references are checked), by number, in path order. */
function checkableFiles(files: FileIndex): Int32Array {
  const found = new Int32Array(files.count);
  let count = 0;
  for (let file = 0; file < files.count; file++) {
    if (files.endsWith(file, '.html') || files.endsWith(file, '.htm') || files.endsWith(file, '.css'))
      found[count++] = file;
  }
  return found.slice(0, count).sort((a, b) => files.compare(a, b));
}

/**
 * Every regular file under root, relative with `/` separators. A symbolic link counts only when it
 * leads to a file inside the root: a host may follow it, but nothing outside the site is part of it.
 */
async function listFiles(root: string): Promise<FileIndex> {
  const files = new FileIndex();
  // One directory at a time: a recursive readdir hands back every entry of the site at once (100,000
  // Dirents and their parent paths, ~10 MB), which became the run's peak.
  const directories = [''];
  for (let dir = directories.pop(); dir !== undefined; dir = directories.pop()) {
    for await (const entry of await opendir(join(root, dir))) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) directories.push(path);
      else if (entry.isFile() || (entry.isSymbolicLink() && (await isFileInside(join(root, path), root))))
        files.add(path);
    }
  }
  files.trim();
  return files;
}

async function isFileInside(path: string, root: string): Promise<boolean> {
  const real = await realpath(path).catch(() => undefined);
  if (!real || !real.startsWith(root + sep)) return false;
  return (await stat(real)).isFile();
}

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

/** What the #fragment check of a run shares: the pages in order, each file's page number, their anchors, the links waiting for them. */
interface Fragments {
  checkable: Int32Array;
  /** by file number: its page number, or -1 for a file whose references are not checked */
  pageOf: Int32Array;
  anchors: AnchorIndex;
  pending: PendingFragments;
}

/** The references of a page at these places (ordinals, ascending), as written: read again for the few that failed. */
async function referencesAt(file: string, ordinals: number[]): Promise<string[]> {
  const wanted = new Set(ordinals);
  const found: string[] = [];
  let ordinal = 0;
  await htmlReferences(file, ({ url }) => {
    if (wanted.has(ordinal++)) found.push(url);
  }).catch(() => {}); // a page given up part way was reported the first time
  return found;
}

function isPage(files: FileIndex, file: number): boolean {
  return files.endsWith(file, '.html') || files.endsWith(file, '.htm');
}

function withoutFragment(ref: string): string {
  const at = ref.indexOf('#');
  return at === -1 ? ref : ref.slice(0, at);
}

/** The part after the first `#` (a query cannot hold one). */
function fragmentOf(link: string): string {
  return link.slice(link.indexOf('#') + 1);
}

/**
 * Remembering is bounded: a page's duplicates are skipped, and root-relative answers kept, only for
 * references of up to this many characters...
 */
const REMEMBERED_LENGTH = 2048;
/** ...and up to this many of them: past it, a reference is checked again rather than remembered. */
const REMEMBERED_COUNT = 100_000;
/**
 * The answers kept for root-relative references, at most. The links every page shares (home,
 * sections, assets) come first and stay; a link to one page among 100,000 is rarely asked twice, and
 * keeping those answers was the largest thing that grew with the site (~15 MB of keys and outcomes at
 * 100,000 pages, and V8 leaves twice what is alive as room for garbage).
 */
const LINK_CACHE_COUNT = 4096;

/** Checks the references of one page as the parser finds them; its problems go to `problems`. */
function referenceChecker(
  page: string,
  pageIndex: number,
  files: FileIndex,
  basePath: string,
  siteHosts: Set<string>,
  report: Pick<VerifyReport, 'references' | 'externalLinks'>,
  cache: Map<string, Outcome>,
  fragments: Fragments,
  problems: ProblemList,
): { reference: (reference: Reference) => void; problems: ProblemList; ownFragments: string[] } {
  const seen = new Set<string>();
  // The page's links to its own anchors: checked when its parse ends, against the anchors it then holds.
  const ownFragments: string[] = [];
  // Each reference's place in the page, the same when the page is read again (referencesAt).
  let ordinal = -1;
  const fragmentLink = (url: string, target: number) => {
    const fragment = fragmentOf(url);
    if (isTopOfPage(fragment)) return;
    // A stylesheet has page number too, but no anchors: a link into one is not a page's fragment.
    if (target < 0 || !isPage(files, fragments.checkable[target]!)) return;
    if (target === pageIndex) ownFragments.push(url);
    else fragments.pending.add(pageIndex, ordinal, target, fragment, fragments.anchors);
  };
  const reference = ({ url, role }: Reference) => {
    ordinal++;
    if (url.length > URL_LIMIT) {
      if (!isIgnoredScheme(url)) problems.add({ page, target: shortened(url), kind: 'overlong-reference' });
      return;
    }
    if (url.length <= REMEMBERED_LENGTH) {
      const key = `${role} ${url}`;
      if (seen.has(key)) return;
      if (seen.size < REMEMBERED_COUNT) seen.add(key);
    }
    if (url.startsWith('#')) return fragmentLink(url, pageIndex);
    const where = classifyCached(url, page, basePath, siteHosts, files, cache);
    if (where.kind === 'external') report.externalLinks++;
    if (where.kind !== 'internal') return;
    report.references++;
    const outcome = where.outcome;
    if (typeof outcome === 'object') {
      if (url.includes('#')) fragmentLink(url, fragments.pageOf[outcome.file]!);
      return;
    }
    problems.add({ page, target: url, kind: outcome === 'missing' ? missingKind(role) : outcome });
  };
  return { reference, problems, ownFragments };
}

/** A file given up part way (bounded-parser.ts) is a problem of that file; any other failure stays one. */
function overlongMarkup(page: string, problems: ProblemList): (error: unknown) => void {
  return (error) => {
    if (!(error instanceof OverlongMarkupError)) throw error;
    problems.add({ page, target: `${error.message} (the rest of the file was not checked)`, kind: 'overlong-markup' });
  };
}

/** `data:`, `mailto:`...: never a file of the site, however long (an inline font or image can be megabytes). */
function isIgnoredScheme(url: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]{0,31}):/i.exec(url)?.[1]?.toLowerCase();
  return scheme !== undefined && scheme !== 'http' && scheme !== 'https';
}

/** A reference too long to print whole: its start, and why it stops there. */
function shortened(url: string): string {
  return `${url.slice(0, 100)}… (more than ${URL_LIMIT / 1024} KiB)`;
}

type Outcome =
  | { kind: 'internal'; outcome: ReturnType<typeof findInSite> }
  | { kind: 'external' }
  | { kind: 'ignored' };

/** classifyReference + resolveInSite; a root-relative reference means the same on every page, so its answer is kept. */
function classifyCached(
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
  // cache outlives the page (on 100,000 pages of distinct links this held ~250 MB of page text).
  if (pageIndependent && cache.size < LINK_CACHE_COUNT) cache.set(Buffer.from(key, 'utf8').toString('utf8'), outcome);
  return outcome;
}

function missingKind(role: ReferenceRole): ProblemKind {
  return role === 'link' ? 'broken-link' : 'missing-asset';
}

/** sitemap.xml's entries, and those of the sitemaps a sitemap index lists (local files only). */
async function checkSitemaps(
  root: string,
  files: FileIndex,
  basePath: string,
  siteHosts: Set<string>,
  report: Pick<VerifyReport, 'sitemapEntries'>,
  problems: ProblemList,
): Promise<void> {
  const queue = ['sitemap.xml'];
  const visited = new Set(queue);
  let entries = 0;
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const page = file;
    await sitemapLocations(join(root, page), (loc, index) => {
      if (!index) entries++;
      if (loc.length > URL_LIMIT) return problems.add({ page, target: shortened(loc), kind: 'overlong-reference' });
      const url = parseAbsoluteUrl(loc);
      if (!url) return problems.add({ page, target: loc, kind: 'missing-sitemap-entry' });
      // A sitemap's URLs are absolute (sitemaps.org): their host is the site's own.
      if (siteHosts.size < REMEMBERED_COUNT) siteHosts.add(url.host);
      const outcome = resolveInSite(url.pathname, basePath, files);
      if (index && outcome === 'found') {
        const nested = parseUrlPath(url.pathname, basePath);
        const local = nested.kind === 'site' ? nested.candidates.find((c) => files.has(c)) : undefined;
        if (local && !visited.has(local)) queue.push(local), visited.add(local);
      }
      if (outcome !== 'found')
        problems.add({ page, target: loc, kind: outcome === 'missing' ? 'missing-sitemap-entry' : outcome });
    }).catch(overlongMarkup(page, problems));
  }
  report.sitemapEntries = entries;
}

/** URL.parse arrived in Node 20.18 only as an experiment; this works on every supported version. */
function parseAbsoluteUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
