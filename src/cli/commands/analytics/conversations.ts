// `analytics conversations`: assistant turns, cursor pages while `hasMore`, up to 1000 a request.
// `sources` (the pages an answer cited) is an array in JSON and ndjson and one cell in CSV, one
// "title <url>" a line, so a spreadsheet shows them in one cell and a row stays a row.
import type { Command } from 'commander';
import { action, examples } from '../../command.js';
import type { Deps } from '../../context.js';
import type { Conversation, ConversationsPage } from '../../../api/types.js';
import type { Columns } from '../../../output/writer.js';
import { CONVERSATIONS } from '../../../paging/endpoints.js';
import { type ListCommandSpec, runList } from '../list-run.js';
import { addListOptions, listShape, parseAnalyticsListFlags, type AnalyticsListFlags } from '../list-options.js';

const SHAPE = listShape(CONVERSATIONS);

const sourcesCell = (c: Conversation) => c.sources.map((s) => `${s.title} <${s.url}>`).join('\n');

export const CONVERSATION_COLUMNS: Columns<Conversation> = {
  csvHeader: [
    'id',
    'timestamp',
    'resolutionStatus',
    'queryCategory',
    'pageUrl',
    'query',
    'response',
    'responseType',
    'sources',
  ],
  csvRecord: (c) => [
    c.id,
    c.timestamp,
    c.resolutionStatus,
    c.queryCategory,
    c.pageUrl,
    c.query,
    c.response,
    c.responseType ?? 'answer',
    sourcesCell(c),
  ],
  tableHeader: ['time', 'status', 'category', 'page', 'question'],
  tableCells: (c) => [c.timestamp, c.resolutionStatus, c.queryCategory ?? '-', c.pageUrl ?? '-', c.query],
  align: ['left', 'left', 'left', 'left', 'left'],
  flexible: [3, 4],
  // On a narrow terminal the question and whether it was answered matter most.
  dates: [0],
  dropOrder: [0, 2, 3],
};

const SPEC: ListCommandSpec<ConversationsPage, Conversation> = {
  command: ['analytics', 'conversations'],
  noun: SHAPE.noun,
  style: CONVERSATIONS.style,
  itemsKey: CONVERSATIONS.itemsKey,
  columns: CONVERSATION_COLUMNS,
  fetch: (api, projectId, { offset: _none, ...query }) => CONVERSATIONS.fetch(api, projectId, query),
  summary: (last, next) => ({ nextCursor: next?.cursor ?? null, hasMore: next !== null && (last?.hasMore ?? false) }),
};

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('conversations')
    .description('assistant conversations: each question, whether it was answered, its category and page');
  addListOptions(command, SHAPE).addHelpText(
    'after',
    `
CSV columns: id, timestamp, resolutionStatus, queryCategory, pageUrl, query, response,
responseType, sources (sources: one "title <url>" a line inside the cell). Read one whole thread with
\`mint-admin analytics thread <threadId>\`.`,
  );
  command.action(
    action<AnalyticsListFlags>(deps, async (_args, flags, ctx) => {
      await runList(SPEC, parseAnalyticsListFlags(flags, ctx.mode.json, ctx.clock.now(), SHAPE), ctx);
    }),
  );
  examples(command, [
    'mint-admin analytics conversations --from 2026-11-01 --all --format csv -o conversations.csv',
    'mint-admin analytics conversations --all --format ndjson | jq -r \'select(.resolutionStatus == "unanswered") | .query\'',
  ]);
}
