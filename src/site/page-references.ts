// Checking the references of one page as the parser finds them: each resolved once per page, its
// #fragment links held until the anchors they need are known, its problems listed in document order.
import type { AnchorIndex, PendingFragments } from './anchors.js';
import { isTopOfPage } from './anchors.js';
import { OverlongMarkupError } from './bounded-parser.js';
import { classifyCached, REMEMBERED_LENGTH, type Outcome } from './classify.js';
import type { FileIndex } from './file-index.js';
import type { ProblemKind, ProblemList } from './problem-list.js';
import { htmlReferences, URL_LIMIT, type Reference, type ReferenceRole } from './references.js';
import { isPage } from './site-files.js';

/** What the #fragment check of a run shares: the pages in order, each file's page number, their anchors, the links waiting for them. */
export interface Fragments {
  checkable: Int32Array;
  /** by file number: its page number, or -1 for a file whose references are not checked */
  pageOf: Int32Array;
  anchors: AnchorIndex;
  pending: PendingFragments;
}

/** The references of a page at these places (ordinals, ascending), as written: read again for the few that failed. */
export async function referencesAt(file: string, ordinals: number[]): Promise<string[]> {
  const wanted = new Set(ordinals);
  const found: string[] = [];
  let ordinal = 0;
  await htmlReferences(file, ({ url }) => {
    if (wanted.has(ordinal++)) found.push(url);
  }).catch(() => {}); // a page given up part way was reported the first time
  return found;
}

/** The part after the first `#` (a query cannot hold one). */
export function fragmentOf(link: string): string {
  return link.slice(link.indexOf('#') + 1);
}

/** ...and up to this many of them: past it, a reference is checked again rather than remembered. */
export const REMEMBERED_COUNT = 100_000;
/** Checks the references of one page as the parser finds them; its problems go to `problems`. */
export function referenceChecker(
  page: string,
  pageIndex: number,
  files: FileIndex,
  basePath: string,
  siteHosts: Set<string>,
  report: { references: number; externalLinks: number },
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
export function overlongMarkup(page: string, problems: ProblemList): (error: unknown) => void {
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
export function shortened(url: string): string {
  return `${url.slice(0, 100)}… (more than ${URL_LIMIT / 1024} KiB)`;
}

function missingKind(role: ReferenceRole): ProblemKind {
  return role === 'link' ? 'broken-link' : 'missing-asset';
}
