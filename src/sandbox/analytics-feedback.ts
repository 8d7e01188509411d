// Reader feedback over the window: background votes and comments, and the planted page's reports.
import { PLANTED_CODE_REPORTS, PLANTED_FEEDBACK_PAGE, PLANTED_THUMBS_DOWN } from './analytics-planted.js';
import { pick } from './prng.js';

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

const LANGS = ['bash', 'javascript', 'python', 'json', null] as const;
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

export function backgroundFeedback(
  count: number,
  paths: string[],
  random: () => number,
  at: () => number,
): FeedbackData[] {
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

export function plantedFeedback(random: () => number, at: () => number): FeedbackData[] {
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
