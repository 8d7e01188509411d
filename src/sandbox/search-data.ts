import type { SearchTerm } from '../api/types.js';
import { createRandom, pick } from './prng.js';

/** Events fall in the WINDOW_DAYS days before the data's end (by default the start of the sandbox's today). */
export const WINDOW_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Where the data ended before it followed the clock: tests that assert exact dates pin it here. */
export const FIXED_DATA_END = Date.UTC(2026, 10, 1);

/**
 * The start of the UTC day of `now`: data that ends there has every past day filled, and stays the
 * same all day, so a range like "the last seven days" has data whenever the sandbox is started.
 */
export function startOfUtcDay(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS;
}

export interface TermData {
  query: string;
  /** Timestamps (ms, whole seconds) of each search, ascending. */
  events: Float64Array;
  ctr: number;
  topClickedPage: string | null;
}

/** Terms that break naive CSV, spreadsheet and terminal output; always part of the data set. */
export const TRICKY_TERMS = [
  'comma, separated',
  'say "hello"',
  '"quoted, with comma"',
  'multi\nline',
  'windows\r\nline',
  'café au lait',
  '日本語 検索',
  'deploy 🚀',
  '=SUM(1,2)',
  '+cmd',
  '-1+2',
  '@import',
  '\tleading tab',
  '\rleading cr',
  'semi;colon',
  'back\\slash',
  '<script>alert(1)</script>',
  ' leading space',
  'trailing space ',
];

const WORDS = [
  'api',
  'key',
  'rotate',
  'webhook',
  'retries',
  'deploy',
  'preview',
  'custom',
  'domain',
  'sso',
  'saml',
  'analytics',
  'search',
  'export',
  'static',
  'bundle',
  'agent',
  'pull',
  'request',
  'navigation',
  'sidebar',
  'theme',
  'dark',
  'mode',
  'logo',
  'favicon',
  'openapi',
  'playground',
  'auth',
  'oauth',
  'token',
  'rate',
  'limit',
  'pagination',
  'cursor',
  'error',
  'codes',
  'versioning',
  'changelog',
  'redirects',
  'seo',
  'sitemap',
  'llms',
  'mcp',
  'server',
  'components',
  'tabs',
  'accordion',
  'cards',
  'snippets',
  'variables',
  'localization',
  'i18n',
  'github',
  'gitlab',
  'ci',
  'monorepo',
  'install',
  'quickstart',
  'migration',
  'pricing',
  'billing',
  'users',
  'roles',
  'permissions',
];
const PAGES = [
  '/quickstart',
  '/guides/deploy',
  '/guides/custom-domain',
  '/api-reference/introduction',
  '/api-reference/authentication',
  '/settings/navigation',
  '/components/tabs',
  '/integrations/analytics',
  '/guides/static-export',
  '/api-reference/agent/create-agent-job',
  '/changelog',
];

/**
 * Search terms that readers search for often and never click a result of: planted content gaps
 * (see analytics-planted.ts) at fixed popularity ranks (0 is the most searched), in data sets of at
 * least PLANTED_MIN_TERMS terms.
 */
export const PLANTED_SEARCH_GAPS = [
  { query: 'rotate api key without downtime', rank: 1 },
  { query: 'webhook signature verification', rank: 4 },
] as const;
const PLANTED_MIN_TERMS = 50;

export function generateSearchData(count: number, seed: number, dataEnd: number = FIXED_DATA_END): TermData[] {
  const random = createRandom(seed, 'searches');
  const queries = new Set(TRICKY_TERMS.slice(0, count));
  for (let attempt = 0; queries.size < count; attempt++) {
    const words = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, WORDS)).join(' ');
    // Once the word combinations run thin (huge data sets), numbered variants keep terms unique.
    queries.add(queries.has(words) && attempt % 20 === 19 ? `${words} ${queries.size}` : words);
  }
  // Popularity is a shuffled Zipf-like curve: a few hot terms, a long tail with many equal counts.
  const ranks = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ranks[i], ranks[j]] = [ranks[j]!, ranks[i]!];
  }
  // The tricky terms go near the top, so the first page of any export already exercises escaping.
  for (let i = 0; i < Math.min(TRICKY_TERMS.length, count); i++) {
    const wanted = Math.min(count - 1, 2 + 3 * i);
    const holder = ranks.indexOf(wanted);
    [ranks[i], ranks[holder]] = [wanted, ranks[i]!];
  }
  const terms = [...queries].map((query, i) => {
    const total = Math.max(1, Math.round((4000 / Math.pow((ranks[i] ?? 0) + 1, 0.9)) * (0.8 + 0.4 * random())));
    // Some terms only start being searched part-way through the window, so ranges reorder them.
    const startDay = random() < 0.3 ? Math.floor(random() * WINDOW_DAYS) : 0;
    const start = dataEnd - (WINDOW_DAYS - startDay) * DAY_MS;
    const events = new Float64Array(total);
    for (let e = 0; e < total; e++) {
      events[e] = start + Math.floor((random() * (dataEnd - start)) / 1000) * 1000;
    }
    events.sort();
    const ctr = random() < 0.1 ? 0 : Math.round(random() * 1000) / 1000;
    return { query, events, ctr, topClickedPage: ctr === 0 ? null : pick(random, PAGES) };
  });
  if (count >= PLANTED_MIN_TERMS) {
    for (const gap of PLANTED_SEARCH_GAPS) {
      const term = terms[ranks.indexOf(gap.rank)]!;
      Object.assign(term, { query: gap.query, ctr: 0, topClickedPage: null });
    }
  }
  return terms;
}

/** Terms with their hits in [from, to), zero-hit ones dropped, by hits desc then query (code units). */
export function aggregate(data: readonly TermData[], from: number, to: number): { terms: SearchTerm[]; total: number } {
  const terms: SearchTerm[] = [];
  let total = 0;
  for (const term of data) {
    const lo = lowerBound(term.events, from);
    const hi = lowerBound(term.events, to);
    const last = term.events[hi - 1];
    if (hi <= lo || last === undefined) continue;
    total += hi - lo;
    terms.push({
      searchQuery: term.query,
      hits: hi - lo,
      ctr: term.ctr,
      topClickedPage: term.topClickedPage,
      lastSearchedAt: new Date(last).toISOString(),
    });
  }
  terms.sort((a, b) => b.hits - a.hits || (a.searchQuery < b.searchQuery ? -1 : a.searchQuery > b.searchQuery ? 1 : 0));
  return { terms, total };
}

function lowerBound(values: Float64Array, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] ?? Infinity) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
