// `export verify`: checks an extracted site offline. One walk lists the files; then every page is
// streamed through the HTML parser, a few at a time, and each internal reference is resolved under the
// rules the hosts apply (resolve.ts). A link's #fragment must name an anchor of the page it leads to:
// a page's own `#x` links are checked when its parse ends, links into other pages once every page's
// anchors are known (anchors.ts keeps them as hashes). Only the file list (file-index.ts: packed, by
// number), the anchors and the first problems are kept in memory: the rest are counted (problem-list.ts).
import { join } from 'node:path';
import { AnchorIndex, PageAnchors, PendingFragments } from './anchors.js';
import { PLACEHOLDER_HOST, type Outcome } from './classify.js';
import { fragmentOf, overlongMarkup, referenceChecker, referencesAt, type Fragments } from './page-references.js';
import { DEFAULT_LIST_LIMIT, ProblemList, type Problem } from './problem-list.js';
import { htmlReferences, stylesheetReferences } from './references.js';
import { checkableFiles, checkSiteDirectory, listFiles } from './site-files.js';
import { checkSitemaps } from './sitemaps.js';

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
