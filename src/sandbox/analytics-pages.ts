// The sandbox site's pages and their traffic: views and visitors over the window, and how a page's
// traffic moves within it (so one week differs from the week before).
import { pick } from './prng.js';
import { PLANTED_FEEDBACK_PAGE, PLANTED_QUESTION_PAGE } from './analytics-planted.js';
import { FIXED_DATA_END, WINDOW_DAYS } from './search-data.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const windowStart = (dataEnd: number) => dataEnd - WINDOW_DAYS * DAY_MS;

export const SITE_ORIGIN = 'https://docs.sandbox.example';

const FIXED_PAGES = [
  '/quickstart',
  PLANTED_QUESTION_PAGE,
  PLANTED_FEEDBACK_PAGE,
  '/guides/custom-domain',
  '/api-reference/introduction',
  '/settings/navigation',
  '/components/tabs',
  '/integrations/analytics',
  '/guides/static-export',
  '/api-reference/agent/create-agent-job',
  '/changelog',
];
const SECTIONS = ['guides', 'api-reference', 'components', 'settings', 'integrations', 'concepts'];
export const TOPICS = [
  'webhooks',
  'sso',
  'themes',
  'redirects',
  'versioning',
  'snippets',
  'search',
  'analytics',
  'mcp',
  'openapi',
  'localization',
  'billing',
];

export interface PageData {
  path: string;
  /** View events over the whole window; a date range gets its share, pro rata. */
  human: number;
  ai: number;
  /** Unique visitors over the whole window. */
  visitorsHuman: number;
  visitorsAi: number;
}

/** The site's paths, the fixed ones first. */
export function sitePaths(count: number, random: () => number): string[] {
  const paths = new Set(FIXED_PAGES.slice(0, count));
  for (let i = 0; paths.size < count; i++) paths.add(`/${pick(random, SECTIONS)}/${pick(random, TOPICS)}-${i}`);
  return [...paths];
}

/** Each page's traffic over the whole window, most read first. */
export function pageTraffic(paths: string[], random: () => number): PageData[] {
  const pages = paths.map((path, rank) => {
    // Zipf-like traffic, with the two planted pages among the most read.
    const base =
      path === PLANTED_QUESTION_PAGE
        ? 30000
        : path === PLANTED_FEEDBACK_PAGE
          ? 25000
          : Math.round((60000 / Math.pow(rank + 1, 0.8)) * (0.7 + 0.3 * random()));
    const aiShare = 0.1 + 0.3 * random();
    const human = Math.round(base * (1 - aiShare));
    const ai = base - human;
    return { path, human, ai, visitorsHuman: Math.round(human * 0.35), visitorsAi: Math.round(ai * 0.1) };
  });
  pages.sort((a, b) => b.human + b.ai - (a.human + a.ai) || (a.path < b.path ? -1 : 1));
  return pages;
}

export const titleOf = (path: string) =>
  path
    .split('/')
    .pop()!
    .replace(/-/g, ' ')
    .replace(/^\w/, (c) => c.toUpperCase());

/**
 * The share of a page's events that fall in [from, to). Traffic is not flat: each page's rate moves
 * linearly over the window by `growth` (0.5: the last day has 1.5 times the first day's rate), so a
 * week differs from the week before (the week-over-week report has rising and falling pages). The
 * whole window's share is 1 whatever the growth.
 */
export function windowShare(
  from: number | null,
  to: number | null,
  dataEnd: number = FIXED_DATA_END,
  growth = 0,
): number {
  const start = windowStart(dataEnd);
  const lo = Math.max(start, from ?? -Infinity);
  const hi = Math.min(dataEnd, to ?? Infinity);
  if (hi <= lo) return 0;
  const span = dataEnd - start;
  // The integral of (1 + growth * x) over x in [a, b], over its integral on [0, 1].
  const integral = (x: number) => x + (growth * x * x) / 2;
  return (integral((hi - start) / span) - integral((lo - start) / span)) / integral(1);
}

/**
 * How a page's traffic moves over the window, from -0.6 (falling) to +0.9 (rising): worked out from
 * its path alone (FNV-1a), so adding it drew nothing from the generator and left every other
 * generated value as it was.
 */
export function growthOf(path: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return -0.6 + 1.5 * (hash / 0xffffffff);
}
