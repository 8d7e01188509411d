// A build's log arrives whole on every poll (`logs`, an array that grows between polls). What a CI log
// should get is each line once, in order. The server is not trusted to only ever append: a log may come
// back shorter (a truncated or lagging read), as a sliding window (old lines dropped at the front), or
// rewritten. Whatever it does, no line already shown is shown again, and nothing here can throw.
//
// Each poll is placed against the log followed so far (`followed`: every line of the server's log as
// understood, in order), in this order:
//   1. the poll lies inside the followed log (a lagging read, or an older window): nothing is new;
//   2. the followed log's last k lines are the poll's first k lines (k = the whole followed log when the
//      log only grew; the largest such k, at least 1, for a sliding window): the lines after them are new;
//   3. neither: the log rewrote itself, and there is no position to go by. Only lines past the count
//      already followed are candidates (a line edited in place is not a new line), and the poll becomes
//      the followed log.
// Then, in every case, one rule decides whether a candidate is printed: a text is never printed more
// times than it occurs in the followed log up to that line. While the log only grows or slides this
// rule never holds a line back (each line printed once, repeated identical lines included); it is what
// keeps a rewrite, or a log that flips to another and back, from printing an old line again. A rewrite
// may therefore swallow a line whose text was already shown: losing a line is the price of never
// repeating one.
//
// The work is linear in the poll plus the followed log (one Knuth-Morris-Pratt pass), so a log of
// hundreds of thousands of lines costs milliseconds a poll and cannot hold up the deadline or Ctrl-C.

export class LogStream {
  /** The log as last understood, in order. */
  private followed: string[] = [];
  /** How many times each text occurs in `followed`. */
  private inFollowed = new Map<string, number>();
  /** How many times each text has been printed. */
  private printed = new Map<string, number>();

  /** The lines of `logs` not shown yet, in order; remembers them as shown. */
  next(logs: readonly string[] | undefined): string[] {
    const current = (logs ?? []).filter((line): line is string => typeof line === 'string');
    const { inside, overlap } = placeAgainst(this.followed, current);
    if (inside) return [];
    let candidates: string[];
    if (overlap > 0 || this.followed.length === 0) {
      candidates = current.slice(overlap);
      for (const line of candidates) this.followed.push(line);
    } else {
      // Rewritten: this log is the one followed from here on, its lines up to the count followed
      // before taken as the old ones.
      const before = this.followed.length;
      this.followed = current;
      this.inFollowed = new Map();
      for (const line of current.slice(0, before)) bump(this.inFollowed, line);
      candidates = current.slice(before);
    }
    const fresh: string[] = [];
    for (const line of candidates) {
      const occurs = bump(this.inFollowed, line);
      if (occurs <= (this.printed.get(line) ?? 0)) continue;
      this.printed.set(line, occurs);
      fresh.push(line);
    }
    return fresh;
  }

  /** The last `n` lines of the log as followed, for a failure message. */
  tail(n: number): string[] {
    return this.followed.slice(-n);
  }
}

function bump(counts: Map<string, number>, line: string): number {
  const n = (counts.get(line) ?? 0) + 1;
  counts.set(line, n);
  return n;
}

/**
 * Where `after` stands against `before`, in one pass over both (Knuth-Morris-Pratt, `after` as the
 * pattern): `inside` when `after` occurs within `before` (the empty log always does), else `overlap`,
 * the largest k such that the last k lines of `before` are the first k lines of `after`.
 */
export function placeAgainst(
  before: readonly string[],
  after: readonly string[],
): { inside: boolean; overlap: number } {
  if (after.length === 0) return { inside: true, overlap: 0 };
  const border = prefixFunction(after);
  let matched = 0;
  for (const line of before) {
    while (matched > 0 && after[matched] !== line) matched = border[matched - 1]!;
    if (after[matched] === line) matched++;
    if (matched === after.length) return { inside: true, overlap: matched };
  }
  return { inside: false, overlap: matched };
}

/** border[i]: the length of the longest proper prefix of lines[0..i] that is also its suffix. */
function prefixFunction(lines: readonly string[]): Uint32Array {
  const border = new Uint32Array(lines.length);
  for (let i = 1, k = 0; i < lines.length; i++) {
    while (k > 0 && lines[i] !== lines[k]) k = border[k - 1]!;
    if (lines[i] === lines[k]) k++;
    border[i] = k;
  }
  return border;
}
