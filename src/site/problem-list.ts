// The problems of a check, and their list: the first few listed, all of them counted. A site with
// 130,000 broken links is reported as the first thousand and a count, in memory that does not grow
// with the site. The types live here, not in verify.ts, so that neither file imports the other.
export type ProblemKind =
  /** a link to a page that is not there */
  | 'broken-link'
  /** a link to a #fragment that no id= (or <a name=>) of its page carries */
  | 'broken-fragment'
  /** an image, script, stylesheet, font... that is not there */
  | 'missing-asset'
  /** a sitemap.xml entry with no page */
  | 'missing-sitemap-entry'
  /** an internal absolute link that does not start with the base path (it would leave the site) */
  | 'outside-base-path'
  /** a path no host will serve: an encoded slash, a NUL, bad percent-encoding */
  | 'unsafe-path'
  /** a reference longer than 64 KiB (or an attribute value the file ends inside): not checked */
  | 'overlong-reference'
  /** a comment, tag or attribute name longer than 16 MiB: the rest of the file is not checked */
  | 'overlong-markup';

export interface Problem {
  /** the page (or stylesheet, or sitemap) holding the reference, relative to the site root */
  page: string;
  /** the reference as written */
  target: string;
  kind: ProblemKind;
}

/** Problems listed in a report unless the caller asks for another number. */
export const DEFAULT_LIST_LIMIT = 1000;

export class ProblemList {
  readonly listed: Problem[] = [];
  /** every problem added, listed or not */
  count = 0;

  constructor(private readonly limit: number) {}

  add(problem: Problem): void {
    this.count++;
    if (this.listed.length < this.limit) this.listed.push(problem);
  }

  /** Another list's problems after these (its listed ones, then its count of the rest). */
  addAll(other: ProblemList): void {
    // One at a time: push(...list) passes every element as an argument and overflows the stack past ~100,000.
    for (const problem of other.listed) this.add(problem);
    this.count += other.count - other.listed.length;
  }
}
