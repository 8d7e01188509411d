// A build's log arrives whole on every poll (`logs`, an array that grows between polls). What a CI log
// should get is each line once, in order. The server is not trusted to only ever append: a log may come
// back shorter (a truncated or lagging read), as a sliding window (old lines dropped at the front), or
// rewritten. Whatever it does, no line already shown is shown again, and nothing here can throw.

export class LogStream {
  /** The log as last understood: every line already shown, in order. */
  private shown: string[] = [];

  /** The lines of `logs` not shown yet, in order; remembers them as shown. */
  next(logs: readonly string[] | undefined): string[] {
    const current = (logs ?? []).filter((line): line is string => typeof line === 'string');
    const shown = this.shown;
    // The usual case: the same log with lines added at the end.
    if (startsWith(current, shown)) return this.take(current, current.slice(shown.length));
    // Shorter than before but the same so far (a lagging read): nothing new; keep what was shown, so
    // the lines it lost are not shown again when they come back.
    if (startsWith(shown, current)) return [];
    // A sliding window: the end of what was shown is the start of this log.
    const overlap = longestOverlap(shown, current);
    if (overlap > 0) {
      const fresh = current.slice(overlap);
      this.shown = shown.concat(fresh);
      return fresh;
    }
    // Rewritten: no way to tell old lines from new ones. Only lines past the count already shown are
    // new by position; from here on this log is the one followed.
    return this.take(current, current.slice(shown.length));
  }

  /** The last `n` lines of the log as followed, for a failure message. */
  tail(n: number): string[] {
    return this.shown.slice(-n);
  }

  private take(current: string[], fresh: string[]): string[] {
    this.shown = current;
    return fresh;
  }
}

function startsWith(list: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > list.length) return false;
  for (let i = 0; i < prefix.length; i++) if (list[i] !== prefix[i]) return false;
  return true;
}

/** The largest k such that the last k lines of `before` are the first k lines of `after`. */
function longestOverlap(before: readonly string[], after: readonly string[]): number {
  for (let k = Math.min(before.length, after.length); k > 0; k--) {
    let same = true;
    for (let i = 0; i < k && same; i++) same = before[before.length - k + i] === after[i];
    if (same) return k;
  }
  return 0;
}
