// Assistant conversations over the window: background questions, mostly answered, and the planted
// unanswered ones; ids are ULIDs, deterministic from the seed.
import { PLANTED_QUESTION_CATEGORY, PLANTED_QUESTION_PAGE, PLANTED_QUESTIONS } from './analytics-planted.js';
import { SITE_ORIGIN, TOPICS, titleOf } from './analytics-pages.js';
import { createRandom, pick } from './prng.js';

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

const QUESTION_TEXTS = [
  'How do I rotate an API key without downtime?',
  'Can one admin key be limited to a single project?',
  'Why does my key return 401 right after I created it?',
  'Is there an OAuth flow for the admin API?',
  'How long is an admin API key valid?',
];
const CATEGORIES = ['getting-started', 'api', 'deploy', 'components', 'billing', 'customization', null] as const;
const ASKS = [
  'How do I configure',
  'Where can I find',
  'Does Mintlify support',
  'Why is there an error with',
  'Can I customize',
];

export function backgroundConversations(
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

export function plantedQuestions(random: () => number, at: () => number): ConversationData[] {
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

/** A ULID (26 Crockford base32 characters: 10 of time, 16 deterministic ones). */
export function ulid(time: number, seed: number, index: number): string {
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
