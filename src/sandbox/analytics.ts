// The analytics endpoints beyond searches, served from analytics-data.ts with the API's three
// paging styles: feedback and conversations by cursor while `hasMore`, views and visitors by offset,
// feedback by page as one page only (`hasMore` says when there was more). Limits and validation
// follow analytics.openapi.json: a bad date, limit or cursor is a 400 with details.
import { HttpError, type Reply } from './http-util.js';
import { parseDate } from './searches.js';
import { generateAnalyticsData, type AnalyticsData, type AnalyticsSize } from './analytics-data.js';
import { growthOf, windowShare } from './analytics-pages.js';
import type { ConversationData } from './analytics-conversations.js';
import type { FeedbackData } from './analytics-feedback.js';

interface Range {
  from: number | null;
  to: number | null;
}

export class AnalyticsService {
  readonly data: AnalyticsData;

  constructor(
    size: AnalyticsSize,
    seed: number,
    private readonly dataEnd?: number,
  ) {
    this.data = generateAnalyticsData(size, seed, dataEnd);
  }

  feedback(query: URLSearchParams): Reply {
    const problems: string[] = [];
    const range = this.range(query, problems);
    const limit = parseLimit(query.get('limit'), 50, 100, problems);
    const filter = feedbackFilter(query, problems);
    if (problems.length > 0) throw invalid(problems);
    const items = this.data.feedback.filter((f) => inRange(f.createdAt, range) && filter(f));
    const offset = decodeCursor(
      query.get('cursor'),
      `${range.from}|${range.to}|${query.get('source')}|${query.get('status')}`,
    );
    const end = offset + limit;
    const more = end < items.length;
    return {
      status: 200,
      body: {
        feedback: items.slice(offset, end).map(feedbackItem),
        nextCursor: more
          ? encodeCursor(end, `${range.from}|${range.to}|${query.get('source')}|${query.get('status')}`)
          : null,
        hasMore: more,
      },
    };
  }

  feedbackByPage(query: URLSearchParams): Reply {
    const problems: string[] = [];
    const range = this.range(query, problems);
    const limit = parseLimit(query.get('limit'), 10, 100, problems);
    const filter = feedbackFilter(query, problems);
    if (problems.length > 0) throw invalid(problems);
    const pages = new Map<
      string,
      { path: string; thumbsUp: number; thumbsDown: number; code: number; total: number }
    >();
    for (const f of this.data.feedback) {
      if (!inRange(f.createdAt, range) || !filter(f)) continue;
      let page = pages.get(f.path);
      if (!page) pages.set(f.path, (page = { path: f.path, thumbsUp: 0, thumbsDown: 0, code: 0, total: 0 }));
      page.total++;
      if (f.source === 'contextual') page[f.helpful ? 'thumbsUp' : 'thumbsDown']++;
      if (f.source === 'code_snippet') page.code++;
    }
    const sorted = [...pages.values()].sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : 1));
    return { status: 200, body: { feedback: sorted.slice(0, limit), hasMore: sorted.length > limit } };
  }

  conversations(query: URLSearchParams): Reply {
    const problems: string[] = [];
    const range = this.range(query, problems);
    const limit = parseLimit(query.get('limit'), 100, 1000, problems);
    if (problems.length > 0) throw invalid(problems);
    const items = this.data.conversations.filter((c) => inRange(c.timestamp, range));
    const cursor = query.get('cursor');
    // The cursor is the id (a ULID) of the next page's first conversation.
    const offset = cursor === null ? 0 : items.findIndex((c) => c.id === cursor);
    if (offset < 0) throw invalid(['cursor is not a conversation id of this date range']);
    const end = offset + limit;
    const more = end < items.length;
    return {
      status: 200,
      body: {
        conversations: items.slice(offset, end).map(conversationItem),
        nextCursor: more ? items[end]!.id : null,
        hasMore: more,
      },
    };
  }

  thread(threadId: string): Reply {
    const c = this.data.conversations.find((x) => x.id === threadId);
    if (!c) throw new HttpError(404, `Thread ${threadId} not found`);
    const iso = (t: number) => new Date(t).toISOString();
    return {
      status: 200,
      body: {
        threadId: c.id,
        createdAt: iso(c.timestamp),
        messages: [
          { id: `${c.id}-1`, role: 'user', content: c.query, createdAt: iso(c.timestamp) },
          { id: `${c.id}-2`, role: 'assistant', content: c.response, createdAt: iso(c.timestamp + 4000) },
        ],
      },
    };
  }

  callerStats(query: URLSearchParams): Reply {
    const problems: string[] = [];
    const range = this.range(query, problems);
    if (problems.length > 0) throw invalid(problems);
    const stats = { web: 0, api: 0, other: 0, total: 0 };
    for (const c of this.data.conversations) {
      if (!inRange(c.timestamp, range)) continue;
      stats[c.caller]++;
      stats.total++;
    }
    return { status: 200, body: stats };
  }

  traffic(query: URLSearchParams, kind: 'views' | 'visitors'): Reply {
    const problems: string[] = [];
    const range = this.range(query, problems);
    const limit = parseLimit(query.get('limit'), 50, 250, problems);
    const offsetText = query.get('offset') ?? '0';
    if (!/^\d+$/.test(offsetText)) problems.push(`offset must be an integer >= 0, got "${offsetText}"`);
    if (problems.length > 0) throw invalid(problems);
    const rows = this.data.pages
      .map((p) => {
        const share = windowShare(range.from, range.to, this.dataEnd, growthOf(p.path));
        const [h, a] = kind === 'views' ? [p.human, p.ai] : [p.visitorsHuman, p.visitorsAi];
        const human = Math.round(h * share);
        const ai = Math.round(a * share);
        return { path: p.path, human, ai, total: human + ai };
      })
      .filter((r) => r.total > 0);
    const totals = rows.reduce((t, r) => ({ human: t.human + r.human, ai: t.ai + r.ai, total: t.total + r.total }), {
      human: 0,
      ai: 0,
      total: 0,
    });
    const offset = Number(offsetText);
    return {
      status: 200,
      body: { totals, [kind]: rows.slice(offset, offset + limit), hasMore: offset + limit < rows.length },
    };
  }

  private range(query: URLSearchParams, problems: string[]): Range {
    const range = {
      from: parseDate(query.get('dateFrom'), 'dateFrom', problems),
      to: parseDate(query.get('dateTo'), 'dateTo', problems),
    };
    if (range.from !== null && range.to !== null && range.from >= range.to)
      problems.push('dateFrom must be before dateTo (dateTo is exclusive)');
    return range;
  }
}

const inRange = (t: number, r: Range) => (r.from === null || t >= r.from) && (r.to === null || t < r.to);

function feedbackFilter(query: URLSearchParams, problems: string[]): (f: FeedbackData) => boolean {
  const source = query.get('source');
  if (source !== null && !['code_snippet', 'contextual', 'agent', 'thumbs_only'].includes(source))
    problems.push(`source must be one of code_snippet, contextual, agent, thumbs_only, got "${source}"`);
  const statuses = query.get('status')?.split(',');
  return (f) => (source === null || f.source === source) && (statuses === undefined || statuses.includes(f.status));
}

function feedbackItem(f: FeedbackData): Record<string, unknown> {
  const base = {
    id: f.id,
    path: f.path,
    comment: f.comment,
    createdAt: new Date(f.createdAt).toISOString(),
    source: f.source,
    status: f.status,
  };
  if (f.source === 'contextual') return { ...base, helpful: f.helpful, contact: f.contact ?? null };
  if (f.source === 'code_snippet') return { ...base, code: f.code, filename: f.filename ?? null, lang: f.lang ?? null };
  return base;
}

function conversationItem(c: ConversationData): Record<string, unknown> {
  // In the documented field order, as the API sends it.
  const { id, timestamp, query, response, responseType, sources, resolutionStatus, queryCategory, pageUrl } = c;
  return {
    id,
    timestamp: new Date(timestamp).toISOString(),
    query,
    response,
    responseType,
    sources,
    resolutionStatus,
    queryCategory,
    pageUrl,
  };
}

function parseLimit(text: string | null, fallback: number, max: number, problems: string[]): number {
  if (text === null) return fallback;
  const limit = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(limit >= 1 && limit <= max)) {
    problems.push(`limit must be an integer from 1 to ${max}, got "${text}"`);
    return fallback;
  }
  return limit;
}

function encodeCursor(offset: number, filter: string): string {
  return Buffer.from(JSON.stringify({ o: offset, f: filter })).toString('base64url');
}

function decodeCursor(cursor: string | null, filter: string): number {
  if (cursor === null) return 0;
  try {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown; f?: unknown };
    if (typeof decoded.o === 'number' && decoded.f === filter) return decoded.o;
  } catch {
    // falls through to the 400
  }
  throw invalid(['cursor is not one this service returned for these filters']);
}

function invalid(messages: string[]): HttpError {
  return new HttpError(400, 'Invalid query parameters', { details: messages.map((message) => ({ message })) });
}
