// The content-gap score: pure functions, no I/O, so the ranking can be tested and explained.
//
// Three signals that readers wanted something the docs do not give them:
//   search      a term searched many times whose results nobody clicked (ctr 0 or no top page);
//   question    assistant questions marked `unanswered`, grouped by category and the page asked on;
//   page        a page's thumbs-down votes and code-snippet reports.
// Each row's score is   events x signal weight x traffic weight:
//   events          searches without a click; unanswered questions; thumbs down + code reports;
//   signal weight   how much one event says (a reader who typed a whole question the assistant
//                   could not answer says more than one who searched and left): SIGNAL_WEIGHT below;
//   traffic weight  1 + log10(1 + views / 100) of the page concerned, where the page and its views
//                   are known (1 otherwise): a gap on a page thousands read costs more readers, but
//                   logarithmically, so traffic ranks within a kind without drowning the signal.
import type { Conversation, PageFeedback, PageTraffic, SearchTerm } from '../api/types.js';

export type GapKind = 'search' | 'question' | 'page';

export interface Gap {
  kind: GapKind;
  /** The term, the question group ("category" on page), or the page path. */
  evidence: string;
  /** The page concerned, when known (question groups and pages). */
  page: string | null;
  /** The events counted (see the header). */
  count: number;
  /** Per kind: hits; unanswered and asked; thumbsDown, code and total. */
  counts: Record<string, number>;
  /** Page views of `page` in the range, when known. */
  views: number | null;
  score: number;
  /** One sentence: the numbers behind the score. */
  why: string;
  /** For questions: a few of the questions asked, as examples. */
  examples: string[];
}

export const SIGNAL_WEIGHT: Record<GapKind, number> = { search: 1, question: 5, page: 3 };
/** A code-snippet report names something concrete that is broken: it counts a little more. */
export const CODE_REPORT_WEIGHT = 4 / 3;
/** Fewer events than these are noise, not gaps: one search, one lost question, one vote. */
export const MIN_SEARCH_HITS = 5;
export const MIN_UNANSWERED = 2;
export const MIN_PAGE_REPORTS = 3;
const EXAMPLES = 3;

/**
 * A count as the score may use it. The API documents counts as plain numbers, so a negative, fractional
 * or huge one can arrive (and a cached or proxied answer may hold anything): it becomes a whole number
 * from 0 to 2^53 - 1, so every product below stays finite (never NaN or Infinity, which JSON prints
 * as null) and no sentence says "-3 searches".
 */
export function wholeCount(n: number): number {
  return Number.isFinite(n) && n > 0
    ? Math.min(Math.floor(n), Number.MAX_SAFE_INTEGER)
    : n === Infinity
      ? Number.MAX_SAFE_INTEGER
      : 0;
}

export function trafficWeight(views: number | null): number {
  return views === null ? 1 : 1 + Math.log10(1 + wholeCount(views) / 100);
}

/** `https://docs.example.com/guides/deploy?x#y` and `/guides/deploy/` both -> `/guides/deploy`. */
export function pagePath(urlOrPath: string): string {
  let path = urlOrPath;
  try {
    path = new URL(urlOrPath).pathname;
  } catch {
    path = urlOrPath.split(/[?#]/)[0] ?? urlOrPath;
  }
  path = path.replace(/\/+$/, '');
  return path === '' ? '/' : path.startsWith('/') ? path : `/${path}`;
}

/** Views per page path, for weighting; the first row of a path wins (the API sends each once). */
export function viewsByPath(rows: readonly PageTraffic[]): Map<string, number> {
  const views = new Map<string, number>();
  for (const row of rows) if (!views.has(pagePath(row.path))) views.set(pagePath(row.path), wholeCount(row.total));
  return views;
}

const round = (n: number) => Math.round(n * 10) / 10;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const weightNote = (views: number | null) =>
  views === null ? '' : `, x${trafficWeight(views).toFixed(1)} for ${plural(views, 'view')}`;

export function searchGaps(terms: readonly SearchTerm[]): Gap[] {
  return terms
    .map((t) => ({ ...t, hits: wholeCount(t.hits) }))
    .filter((t) => t.hits >= MIN_SEARCH_HITS && (t.ctr === 0 || t.topClickedPage === null))
    .map((t) => ({
      kind: 'search' as const,
      evidence: t.searchQuery,
      page: null,
      count: t.hits,
      counts: { hits: t.hits },
      views: null,
      score: round(t.hits * SIGNAL_WEIGHT.search),
      why: `${plural(t.hits, 'search', 'searches')}, no result clicked${t.ctr === 0 ? ' (click-through 0%)' : ''}`,
      examples: [],
    }));
}

/** A mutable accumulator for one question group. */
export interface QuestionGroup {
  category: string | null;
  page: string | null;
  unanswered: number;
  asked: number;
  examples: string[];
}

/**
 * Folds one page of conversations into the groups (so a caller holds groups, not every turn: memory
 * stays flat however many conversations a month has).
 */
export function addConversations(groups: Map<string, QuestionGroup>, conversations: readonly Conversation[]): void {
  for (const c of conversations) {
    const page = c.pageUrl === null ? null : pagePath(c.pageUrl);
    const key = JSON.stringify([c.queryCategory, page]);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { category: c.queryCategory, page, unanswered: 0, asked: 0, examples: [] }));
    group.asked++;
    if (c.resolutionStatus === 'unanswered') {
      group.unanswered++;
      if (group.examples.length < EXAMPLES && !group.examples.includes(c.query)) group.examples.push(c.query);
    }
  }
}

export function questionGaps(groups: Iterable<QuestionGroup>, views: ReadonlyMap<string, number>): Gap[] {
  const gaps: Gap[] = [];
  for (const g of groups) {
    if (g.unanswered < MIN_UNANSWERED) continue;
    const pageViews = g.page === null ? null : (views.get(g.page) ?? null);
    const topic = g.category ?? 'uncategorised';
    gaps.push({
      kind: 'question',
      evidence: g.page === null ? topic : `${topic} on ${g.page}`,
      page: g.page,
      count: g.unanswered,
      counts: { unanswered: g.unanswered, asked: g.asked },
      views: pageViews,
      score: round(g.unanswered * SIGNAL_WEIGHT.question * trafficWeight(pageViews)),
      why: `${plural(g.unanswered, 'assistant question')} of ${g.asked} left unanswered${weightNote(pageViews)}`,
      examples: [...g.examples],
    });
  }
  return gaps;
}

export function pageGaps(rows: readonly PageFeedback[], views: ReadonlyMap<string, number>): Gap[] {
  return rows
    .map((r) => ({
      path: r.path,
      thumbsUp: wholeCount(r.thumbsUp),
      thumbsDown: wholeCount(r.thumbsDown),
      code: wholeCount(r.code),
      total: wholeCount(r.total),
    }))
    .filter((r) => r.thumbsDown + r.code >= MIN_PAGE_REPORTS)
    .map((r) => {
      const page = pagePath(r.path);
      const pageViews = views.get(page) ?? null;
      const events = r.thumbsDown + r.code * CODE_REPORT_WEIGHT;
      const reports = r.code > 0 ? ` and ${plural(r.code, 'code-snippet report')}` : '';
      return {
        kind: 'page' as const,
        evidence: page,
        page,
        count: r.thumbsDown + r.code,
        counts: { thumbsDown: r.thumbsDown, thumbsUp: r.thumbsUp, code: r.code, total: r.total },
        views: pageViews,
        score: round(events * SIGNAL_WEIGHT.page * trafficWeight(pageViews)),
        why: `${plural(r.thumbsDown, 'thumbs-down vote')} (${r.thumbsUp} up)${reports}${weightNote(pageViews)}`,
        examples: [],
      };
    });
}

/** Highest score first; ties by count, then kind and evidence, so the order never depends on input order. */
export function rankGaps(gaps: readonly Gap[]): Gap[] {
  return [...gaps].sort(
    (a, b) =>
      b.score - a.score ||
      b.count - a.count ||
      a.kind.localeCompare(b.kind) ||
      (a.evidence < b.evidence ? -1 : a.evidence > b.evidence ? 1 : 0),
  );
}
