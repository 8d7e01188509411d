// The item endpoints, read over one window of timestamps at a time: rows keyed by id, each dated by the
// UTC day of its own time. Page sizes are each endpoint's documented maximum.
import type { Conversation, FeedbackItem } from '../../api/types.js';
import { CONVERSATIONS, FEEDBACK } from '../../paging/endpoints.js';
import { guarded, type Row, type Stream } from './stream.js';
import { dayOf, inUtc } from './utc-times.js';

export const ITEM_STREAMS = {
  conversations: {
    table: 'conversations',
    key: ['id'],
    kind: 'items',
    pageSize: 1000,
    paging: guarded(CONVERSATIONS),
    columns: {
      id: 'VARCHAR',
      date: 'DATE',
      timestamp: 'TIMESTAMP',
      query: 'VARCHAR',
      response: 'VARCHAR',
      response_type: 'VARCHAR',
      sources: [{ title: 'VARCHAR', url: 'VARCHAR' }],
      resolution_status: 'VARCHAR',
      query_category: 'VARCHAR',
      page_url: 'VARCHAR',
    },
    async fetch(api, projectId, w, position, call) {
      const page = await api.listConversations(
        projectId,
        { dateFrom: w.from, dateTo: w.to, limit: 1000, ...(position ? { cursor: position } : {}) },
        call,
      );
      const row = (c: Conversation): Row => ({
        id: c.id,
        date: dayOf(c.timestamp),
        timestamp: inUtc(c.timestamp),
        query: c.query,
        response: c.response,
        response_type: c.responseType ?? null,
        sources: c.sources.map((s) => ({ title: s.title, url: s.url })),
        resolution_status: c.resolutionStatus,
        query_category: c.queryCategory,
        page_url: c.pageUrl,
      });
      return {
        rows: page.conversations.map(row),
        next: page.hasMore ? page.nextCursor : null,
        answer: { page, items: page.conversations },
      };
    },
  },
  feedback: {
    table: 'feedback',
    key: ['id'],
    kind: 'items',
    pageSize: 100,
    paging: guarded(FEEDBACK),
    columns: {
      id: 'VARCHAR',
      date: 'DATE',
      path: 'VARCHAR',
      comment: 'VARCHAR',
      created_at: 'TIMESTAMP',
      source: 'VARCHAR',
      status: 'VARCHAR',
      helpful: 'BOOLEAN',
      contact: 'VARCHAR',
      code: 'VARCHAR',
      filename: 'VARCHAR',
      lang: 'VARCHAR',
    },
    async fetch(api, projectId, w, position, call) {
      const page = await api.listFeedback(
        projectId,
        { dateFrom: w.from, dateTo: w.to, limit: 100, ...(position ? { cursor: position } : {}) },
        call,
      );
      const row = (f: FeedbackItem): Row => {
        const x = f as FeedbackItem & {
          helpful?: boolean;
          contact?: string | null;
          code?: string;
          filename?: string | null;
          lang?: string | null;
        };
        return {
          id: f.id,
          date: dayOf(f.createdAt),
          path: f.path,
          comment: f.comment,
          created_at: inUtc(f.createdAt),
          source: f.source,
          status: f.status,
          helpful: x.helpful ?? null,
          contact: x.contact ?? null,
          code: x.code ?? null,
          filename: x.filename ?? null,
          lang: x.lang ?? null,
        };
      };
      return {
        rows: page.feedback.map(row),
        next: page.hasMore ? page.nextCursor : null,
        answer: { page, items: page.feedback },
      };
    },
  },
} satisfies Record<string, Stream>;
