// The problems of a check: the first few listed, all of them counted. A site with 130,000 broken links
// is reported as the first thousand and a count, in memory that does not grow with the site.
import type { Problem } from './verify.js';

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
