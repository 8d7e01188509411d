// Generated analytics beyond searches: a site's pages with their views and visitors, reader
// feedback, and assistant conversations, all deterministic from the seed (prng.ts) and spread over
// the same WINDOW_DAYS before the data's end as the search terms.
//
// PLANTED GAPS. Background data is noise: feedback mostly positive, ~8% of questions unanswered and
// scattered over many (category, page) groups, so no background group or page stands out. On top of
// it, `analytics gaps` over the whole window must find, in this order:
//   1. search    "rotate api key without downtime": the 2nd most searched term, never clicked
//                (planted in search-data.ts, PLANTED_SEARCH_GAPS);
//   2. question  category "authentication" on /api-reference/authentication: PLANTED_QUESTIONS
//                unanswered questions on one of the most viewed pages;
//   3. search    "webhook signature verification": the 5th most searched term, never clicked;
//   4. page      /guides/deploy: PLANTED_THUMBS_DOWN thumbs-down votes and PLANTED_CODE_REPORTS
//                code-snippet reports, on a page with high traffic.
// Smaller sites (fewer pages than the planted ones need) get no planted page or question gaps.
import { createRandom, pick } from './prng.js';
import { FIXED_DATA_END, WINDOW_DAYS } from './search-data.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const windowStart = (dataEnd: number) => dataEnd - WINDOW_DAYS * DAY_MS;

export const PLANTED_QUESTION_PAGE = '/api-reference/authentication';
export const PLANTED_QUESTION_CATEGORY = 'authentication';
export const PLANTED_QUESTIONS = 60;
export const PLANTED_FEEDBACK_PAGE = '/guides/deploy';
export const PLANTED_THUMBS_DOWN = 45;
export const PLANTED_CODE_REPORTS = 12;
export const SITE_ORIGIN = 'https://docs.sandbox.example';

const QUESTION_TEXTS = [
  'How do I rotate an API key without downtime?',
  'Can one admin key be limited to a single project?',
  'Why does my key return 401 right after I created it?',
  'Is there an OAuth flow for the admin API?',
  'How long is an admin API key valid?',
];

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
const TOPICS = [
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
const CATEGORIES = ['getting-started', 'api', 'deploy', 'components', 'billing', 'customization', null] as const;
const LANGS = ['bash', 'javascript', 'python', 'json', null] as const;

export interface PageData {
  path: string;
  /** View events over the whole window; a date range gets its share, pro rata. */
  human: number;
  ai: number;
  /** Unique visitors over the whole window. */
  visitorsHuman: number;
  visitorsAi: number;
}

export interface FeedbackData {
  id: string;
  path: string;
  createdAt: number;
  source: 'code_snippet' | 'contextual' | 'agent' | 'thumbs_only';
  status: 'pending' | 'in_progress' | 'resolved' | 'dismissed';
  comment: string | null;
  helpful?: boolean;
  contact?: string | null;
  code?: string;
  filename?: string | null;
  lang?: string | null;
}

export interface ConversationData {
  id: string;
  timestamp: number;
  query: string;
  response: string;
  responseType: 'answer' | 'clarifying_question';
  sources: Array<{ title: string; url: string }>;
  resolutionStatus: 'answered' | 'unanswered';
  queryCategory: string | null;
  pageUrl: string | null;
  caller: 'web' | 'api' | 'other';
}

export interface AnalyticsData {
  pages: PageData[];
  /** Newest first, as the API lists it. */
  feedback: FeedbackData[];
  /** Newest first. */
  conversations: ConversationData[];
}

export interface AnalyticsSize {
  pages: number;
  feedback: number;
  conversations: number;
}

export function generateAnalyticsData(
  size: AnalyticsSize,
  seed: number,
  dataEnd: number = FIXED_DATA_END,
): AnalyticsData {
  const random = createRandom(seed, 'analytics');
  const paths = sitePaths(size.pages, random);
  const planted = paths.includes(PLANTED_QUESTION_PAGE) && paths.includes(PLANTED_FEEDBACK_PAGE);
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
  const start = windowStart(dataEnd);
  const at = () => start + Math.floor((random() * (dataEnd - start)) / 1000) * 1000;
  const feedback = backgroundFeedback(size.feedback, paths, random, at);
  if (planted) feedback.push(...plantedFeedback(random, at));
  const conversations = backgroundConversations(size.conversations, paths, random, at);
  if (planted) conversations.push(...plantedQuestions(random, at));
  feedback.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
  feedback.forEach((f, i) => (f.id = `fb_${String(i + 1).padStart(6, '0')}`));
  conversations.sort((a, b) => b.timestamp - a.timestamp);
  conversations.forEach((c, i) => (c.id = ulid(c.timestamp, seed, i)));
  return { pages, feedback, conversations };
}

function sitePaths(count: number, random: () => number): string[] {
  const paths = new Set(FIXED_PAGES.slice(0, count));
  for (let i = 0; paths.size < count; i++) paths.add(`/${pick(random, SECTIONS)}/${pick(random, TOPICS)}-${i}`);
  return [...paths];
}

function backgroundFeedback(count: number, paths: string[], random: () => number, at: () => number): FeedbackData[] {
  const items: FeedbackData[] = [];
  for (let i = 0; i < count; i++) {
    const path = pick(random, paths);
    const roll = random();
    const base = {
      id: '',
      path,
      createdAt: at(),
      status: pick(random, ['pending', 'pending', 'resolved', 'dismissed', 'in_progress'] as const),
      comment: random() < 0.4 ? pick(random, COMMENTS) : null,
    };
    if (roll < 0.55)
      items.push({
        ...base,
        source: 'contextual',
        helpful: random() < 0.85,
        contact: random() < 0.2 ? `reader${i}@example.com` : null,
      });
    else if (roll < 0.62)
      items.push({
        ...base,
        source: 'code_snippet',
        code: pick(random, CODES),
        filename: random() < 0.5 ? 'example.sh' : null,
        lang: pick(random, LANGS),
      });
    else items.push({ ...base, source: random() < 0.7 ? 'thumbs_only' : 'agent' });
  }
  return items;
}

function plantedFeedback(random: () => number, at: () => number): FeedbackData[] {
  const items: FeedbackData[] = [];
  for (let i = 0; i < PLANTED_THUMBS_DOWN; i++) {
    items.push({
      id: '',
      path: PLANTED_FEEDBACK_PAGE,
      createdAt: at(),
      source: 'contextual',
      status: 'pending',
      comment: i % 3 === 0 ? 'The deploy steps skip the build command, so it fails' : null,
      helpful: false,
      contact: null,
    });
  }
  for (let i = 0; i < PLANTED_CODE_REPORTS; i++) {
    items.push({
      id: '',
      path: PLANTED_FEEDBACK_PAGE,
      createdAt: at(),
      source: 'code_snippet',
      status: 'pending',
      comment: '=this flag no longer exists',
      code: 'mint deploy --prod',
      filename: 'deploy.sh',
      lang: random() < 0.5 ? 'bash' : null,
    });
  }
  return items;
}

function backgroundConversations(
  count: number,
  paths: string[],
  random: () => number,
  at: () => number,
): ConversationData[] {
  const items: ConversationData[] = [];
  for (let i = 0; i < count; i++) {
    const unanswered = random() < 0.08;
    const page = random() < 0.9 ? pick(random, paths) : null;
    const cited = pick(random, paths);
    items.push({
      id: '',
      timestamp: at(),
      query: `${pick(random, ASKS)} ${pick(random, TOPICS)}?`,
      response: unanswered ? "I couldn't find that in the documentation." : 'Here is how: see the linked page.',
      responseType: random() < 0.05 ? 'clarifying_question' : 'answer',
      sources: unanswered
        ? []
        : [
            { title: titleOf(cited), url: `${SITE_ORIGIN}${cited}` },
            ...(random() < 0.3 ? [{ title: 'Quickstart, "step 1"', url: `${SITE_ORIGIN}/quickstart` }] : []),
          ],
      resolutionStatus: unanswered ? 'unanswered' : 'answered',
      queryCategory: pick(random, CATEGORIES),
      pageUrl: page === null ? null : `${SITE_ORIGIN}${page}`,
      caller: random() < 0.75 ? 'web' : random() < 0.8 ? 'api' : 'other',
    });
  }
  return items;
}

function plantedQuestions(random: () => number, at: () => number): ConversationData[] {
  return Array.from({ length: PLANTED_QUESTIONS }, (_, i) => ({
    id: '',
    timestamp: at(),
    query: QUESTION_TEXTS[i % QUESTION_TEXTS.length]!,
    response: "I couldn't find that in the documentation.",
    responseType: 'answer' as const,
    sources: [],
    resolutionStatus: 'unanswered' as const,
    queryCategory: PLANTED_QUESTION_CATEGORY,
    pageUrl: `${SITE_ORIGIN}${PLANTED_QUESTION_PAGE}${i % 4 === 0 ? '#keys' : ''}`,
    caller: random() < 0.9 ? ('web' as const) : ('api' as const),
  }));
}

const titleOf = (path: string) =>
  path
    .split('/')
    .pop()!
    .replace(/-/g, ' ')
    .replace(/^\w/, (c) => c.toUpperCase());
const ASKS = [
  'How do I configure',
  'Where can I find',
  'Does Mintlify support',
  'Why is there an error with',
  'Can I customize',
];
const COMMENTS = [
  'Great page, thanks',
  'Missing an example for Python',
  'This is out of date',
  'Helpful!',
  'The screenshot is wrong',
  '+1 more examples please',
];
const CODES = [
  'npm i -g mint',
  'mint dev',
  'curl -H "Authorization: Bearer $KEY" https://api.mintlify.com',
  '{\n  "name": "docs"\n}',
];

/** A ULID (26 Crockford base32 characters: 10 of time, 16 deterministic ones). */
function ulid(time: number, seed: number, index: number): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let t = time;
  let head = '';
  for (let i = 0; i < 10; i++) {
    head = alphabet[t % 32]! + head;
    t = Math.floor(t / 32);
  }
  const random = createRandom(seed, `ulid:${index}`);
  let tail = '';
  for (let i = 0; i < 16; i++) tail += alphabet[Math.floor(random() * 32)]!;
  return head + tail;
}

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
