// The gap score as pure functions: each signal, the traffic weight, grouping, thresholds, ranking.
import { describe, expect, it } from 'vitest';
import type { Conversation, PageFeedback, SearchTerm } from '../../src/api/types.js';
import {
  addConversations,
  pageGaps,
  pagePath,
  questionGaps,
  rankGaps,
  searchGaps,
  trafficWeight,
  viewsByPath,
} from '../../src/gaps/score.js';

const term = (
  searchQuery: string,
  hits: number,
  ctr: number,
  topClickedPage: string | null = ctr === 0 ? null : '/x',
): SearchTerm => ({ searchQuery, hits, ctr, topClickedPage, lastSearchedAt: '2026-11-01T00:00:00Z' });
const turn = (
  query: string,
  status: 'answered' | 'unanswered',
  queryCategory: string | null,
  pageUrl: string | null,
): Conversation => ({
  id: query,
  timestamp: '2026-11-01T00:00:00Z',
  query,
  response: '',
  sources: [],
  resolutionStatus: status,
  queryCategory,
  pageUrl,
});
const pageRow = (path: string, thumbsDown: number, code: number, thumbsUp = 0): PageFeedback => ({
  path,
  thumbsUp,
  thumbsDown,
  code,
  total: thumbsUp + thumbsDown + code,
});

describe('traffic weight and page paths', () => {
  it.each([
    [null, 1],
    [0, 1],
    [900, 2],
    [9900, 3],
  ])('%s views weigh %s', (views, weight) => expect(trafficWeight(views)).toBeCloseTo(weight, 10));

  it.each([
    ['https://docs.example.com/guides/deploy?tab=1#step', '/guides/deploy'],
    ['/guides/deploy/', '/guides/deploy'],
    ['guides/deploy', '/guides/deploy'],
    ['https://docs.example.com/', '/'],
  ])('%s is the page %s', (input, path) => expect(pagePath(input)).toBe(path));

  it('maps views by normalised path', () => {
    expect(
      viewsByPath([
        { path: '/a/', human: 1, ai: 1, total: 2 },
        { path: '/b', human: 3, ai: 0, total: 3 },
      ]),
    ).toEqual(
      new Map([
        ['/a', 2],
        ['/b', 3],
      ]),
    );
  });
});

describe('search gaps', () => {
  it('keeps frequent terms with no click (ctr 0 or no top page) and scores them by hits', () => {
    const gaps = searchGaps([
      term('never clicked', 40, 0),
      term('clicked', 90, 0.3),
      term('no top page', 12, 0.1, null),
      term('rare', 4, 0),
    ]);
    expect(gaps.map((g) => [g.evidence, g.count, g.score, g.why])).toEqual([
      ['never clicked', 40, 40, '40 searches, no result clicked (click-through 0%)'],
      ['no top page', 12, 12, '12 searches, no result clicked'],
    ]);
  });
});

describe('question gaps', () => {
  it('groups unanswered questions by category and page, weighted by the page views, with examples', () => {
    const groups = new Map();
    addConversations(groups, [
      turn('q1', 'unanswered', 'auth', 'https://d.example/auth#keys'),
      turn('q2', 'unanswered', 'auth', 'https://d.example/auth'),
      turn('q1', 'unanswered', 'auth', 'https://d.example/auth'),
      turn('ok', 'answered', 'auth', 'https://d.example/auth'),
      turn('lone', 'unanswered', 'billing', null),
    ]);
    const gaps = questionGaps(groups.values(), new Map([['/auth', 900]]));
    expect(gaps).toEqual([
      {
        kind: 'question',
        evidence: 'auth on /auth',
        page: '/auth',
        count: 3,
        counts: { unanswered: 3, asked: 4 },
        views: 900,
        score: 30,
        why: '3 assistant questions of 4 left unanswered, x2.0 for 900 views',
        examples: ['q1', 'q2'],
      },
    ]);
  });
});

describe('page gaps', () => {
  it('scores thumbs down and code reports (4/3 each), weighted by views, and drops pages with fewer than 3', () => {
    const gaps = pageGaps([pageRow('/deploy', 6, 3, 2), pageRow('/fine', 1, 1, 30)], new Map([['/deploy', 9900]]));
    expect(gaps.map((g) => [g.evidence, g.count, g.score, g.why])).toEqual([
      ['/deploy', 9, 90, '6 thumbs-down votes (2 up) and 3 code-snippet reports, x3.0 for 9900 views'],
    ]);
  });
});

describe('ranking', () => {
  it('orders by score, then count, kind and evidence, whatever the input order', () => {
    const gaps = [...searchGaps([term('b', 30, 0), term('a', 30, 0)]), ...pageGaps([pageRow('/p', 20, 0)], new Map())];
    const ranked = rankGaps(gaps).map((g) => g.evidence);
    expect(ranked).toEqual(['/p', 'a', 'b']);
    expect(rankGaps([...gaps].reverse()).map((g) => g.evidence)).toEqual(ranked);
  });
});

describe('counts the API should not send', () => {
  // The API documents these as plain numbers: negative, fractional and huge ones arrive, and no
  // score may become NaN or Infinity (JSON would print null, the report NaN).
  const finite = (gaps: Array<{ score: number; count: number; why: string }>) =>
    gaps.every(
      (g) => Number.isFinite(g.score) && g.score >= 0 && Number.isFinite(g.count) && !/NaN|Infinity|-\d/.test(g.why),
    );

  it('search hits that are negative, fractional or huge: whole, non-negative, finite', () => {
    const gaps = searchGaps([term('huge', 1e308, 0), term('negative', -50, 0), term('fraction', 7.9, 0)]);
    expect(finite(gaps)).toBe(true);
    expect(gaps.map((g) => [g.evidence, g.count])).toEqual([
      ['huge', Number.MAX_SAFE_INTEGER],
      ['fraction', 7],
    ]);
  });

  it('page votes and views that are negative or huge: finite scores', () => {
    const views = viewsByPath([
      { path: '/neg', human: 0, ai: 0, total: -500 },
      { path: '/huge', human: 0, ai: 0, total: 1e308 },
    ]);
    expect([...views.values()].every((n) => Number.isFinite(trafficWeight(n)))).toBe(true);
    const gaps = pageGaps([pageRow('/neg', 10, -20), pageRow('/huge', 1e308, 1e308), pageRow('/fine', -4, 9)], views);
    expect(finite(gaps)).toBe(true);
    expect(gaps.map((g) => [g.evidence, g.count])).toEqual([
      ['/neg', 10],
      ['/huge', 2 * Number.MAX_SAFE_INTEGER],
      ['/fine', 9],
    ]);
    expect(JSON.parse(JSON.stringify(gaps)).every((g: { score: unknown }) => typeof g.score === 'number')).toBe(true);
  });

  it('question groups on a page with negative views weigh 1, not NaN', () => {
    const groups = new Map();
    addConversations(groups, [turn('q1', 'unanswered', 'auth', '/a'), turn('q2', 'unanswered', 'auth', '/a')]);
    const gaps = questionGaps(groups.values(), viewsByPath([{ path: '/a', human: 0, ai: 0, total: -1000 }]));
    expect(gaps.map((g) => [g.score, g.why])).toEqual([
      [10, '2 assistant questions of 2 left unanswered, x1.0 for 0 views'],
    ]);
  });
});
