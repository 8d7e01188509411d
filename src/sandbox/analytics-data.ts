// Generated analytics beyond searches: a site's pages with their views and visitors, reader
// feedback, and assistant conversations, all deterministic from the seed (prng.ts) and spread over
// the same WINDOW_DAYS before the data's end as the search terms.
//
// The planted gaps `analytics gaps` must find are in analytics-planted.ts.
import { type ConversationData, backgroundConversations, plantedQuestions, ulid } from './analytics-conversations.js';
import { type FeedbackData, backgroundFeedback, plantedFeedback } from './analytics-feedback.js';
import { type PageData, pageTraffic, sitePaths, windowStart } from './analytics-pages.js';
import { PLANTED_FEEDBACK_PAGE, PLANTED_QUESTION_PAGE } from './analytics-planted.js';
import { createRandom } from './prng.js';
import { FIXED_DATA_END } from './search-data.js';

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
  const pages = pageTraffic(paths, random);
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
