// The content gaps: what readers looked for and did not find, ranked, from four analytics sources
// within a request budget (src/gaps/). The report is cut to the top `limit` gaps; what was left out
// is counted. Evidence and example questions are reader text: quoted and cut.
import { DEFAULT_GAPS_REQUESTS, MIN_GAPS_REQUESTS, collectGaps, type GapSource } from '../../gaps/collect.js';
import { checkAnalyticsQuery } from '../../queries/analytics-query.js';
import { z } from '../sdk.js';
import { DATE_CHARS } from './limits.js';
import { defineTool, READ_ONLY } from '../tool.js';
import { readerText, readerTextNote } from '../untrusted.js';

const MAX_GAPS = 50;
const SOURCES: GapSource[] = ['feedbackByPage', 'views', 'conversations', 'searches'];

export const analyticsGaps = defineTool({
  name: 'analytics_gaps',
  title: 'Content gaps',
  description:
    "The docs' content gaps, most important first: searches that found nothing readers clicked, questions the assistant could not answer, pages readers rated poorly, each weighted by traffic, with the numbers behind its score. Reads four analytics sources within maxRequests of the organization's 100 requests an hour. A good start for agent_run: fix the top gaps.",
  input: {
    dateFrom: z.string().max(DATE_CHARS).optional().describe('start of the range: YYYY-MM-DD or ISO 8601'),
    dateTo: z.string().max(DATE_CHARS).optional().describe('end of the range, exclusive'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_GAPS)
      .default(10)
      .describe(`gaps to return, most important first (1-${MAX_GAPS}, default 10)`),
    maxRequests: z
      .number()
      .int()
      .min(MIN_GAPS_REQUESTS)
      .max(100)
      .default(DEFAULT_GAPS_REQUESTS)
      .describe(`analytics requests to spend at most (${MIN_GAPS_REQUESTS}-100, default ${DEFAULT_GAPS_REQUESTS})`),
  },
  annotations: READ_ONLY,
  async run(args, env) {
    const range = checkAnalyticsQuery(
      { maxLimit: 1, noun: 'content gaps' },
      { dateFrom: args.dateFrom, dateTo: args.dateTo },
      env.clock.now(),
    );
    const projectId = await env.projectId();
    const api = await env.api();
    let step = 0;
    const { report, rateLimit } = await collectGaps(
      api,
      projectId,
      { dateFrom: range.dateFrom, dateTo: range.dateTo, maxRequests: args.maxRequests, signal: env.signal },
      (source, rows) => env.progress(++step, undefined, `${source}: ${rows} rows read`),
    );
    const shown = report.gaps.slice(0, args.limit);
    return {
      readerText: readerTextNote(['evidence', 'page', 'examples']),
      from: report.from,
      to: report.to,
      count: shown.length,
      more: report.gaps.length - shown.length,
      gaps: shown.map((g) => ({
        kind: g.kind,
        evidence: readerText(g.evidence, 200),
        // A page comes from what the public controls (a conversation's pageUrl, a feedback path).
        page: readerText(g.page),
        count: g.count,
        views: g.views,
        score: Math.round(g.score * 100) / 100,
        why: g.why,
        examples: g.examples.slice(0, 3).map((e) => readerText(e, 200)),
      })),
      requests: report.requests,
      partial: report.partial,
      incomplete: Object.fromEntries(
        SOURCES.filter((s) => report.sources[s].incomplete !== null).map((s) => [s, report.sources[s].incomplete]),
      ),
      ...(rateLimit
        ? { rateLimited: 'the analytics rate limit (429) cut this report short; try again later for a complete one' }
        : {}),
    };
  },
});
