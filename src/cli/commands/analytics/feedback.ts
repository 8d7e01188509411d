// `analytics feedback`: reader feedback, cursor pages while `hasMore`. The three item shapes (page
// feedback with `helpful`/`contact`, code-snippet feedback with `code`/`filename`/`lang`, and the
// base one for agent and thumbs-only votes) flatten to one set of CSV columns, empty where an item's
// shape has no such field. `--by-page` is the per-page thumbs up/down and code-report counts, which
// the API serves as one page only (no cursor, no offset): it asks for the largest page and says so
// when the API holds more than that.
import { Option, type Command } from 'commander';
import { action, examples } from '../../command.js';
import type { Deps } from '../../context.js';
import { FEEDBACK_SOURCES, FEEDBACK_STATUSES } from '../../../api/enums.js';
import type {
  FeedbackByPagePage,
  FeedbackItem,
  FeedbackPage,
  FeedbackSource,
  PageFeedback,
} from '../../../api/types.js';
import type { Columns } from '../../../output/writer.js';
import { UsageError } from '../../../errors.js';
import { FEEDBACK } from '../../../paging/endpoints.js';
import { type ListCommandSpec, runList } from '../list-run.js';
import {
  addListOptions,
  listShape,
  parseAnalyticsListFlags,
  type AnalyticsListFlags,
  type ListShape,
} from '../list-options.js';

const SHAPE = listShape(FEEDBACK);
const BY_PAGE_SHAPE: ListShape = { style: 'cursor+hasMore', default: 100, max: 100, noun: 'pages' };

/** A field of one variant only, or null (an empty cell) on the others. */
const field = (item: FeedbackItem, name: string): string | null => {
  const value = (item as Record<string, unknown>)[name];
  if (value === undefined || value === null) return null;
  return typeof value === 'boolean' ? String(value) : String(value);
};

export const FEEDBACK_COLUMNS: Columns<FeedbackItem> = {
  csvHeader: [
    'id',
    'createdAt',
    'source',
    'status',
    'path',
    'comment',
    'helpful',
    'contact',
    'code',
    'filename',
    'lang',
  ],
  csvRecord: (f) => [
    f.id,
    f.createdAt,
    f.source,
    f.status,
    f.path,
    f.comment,
    field(f, 'helpful'),
    field(f, 'contact'),
    field(f, 'code'),
    field(f, 'filename'),
    field(f, 'lang'),
  ],
  tableHeader: ['created', 'source', 'status', 'page', 'helpful', 'comment'],
  tableCells: (f) => [f.createdAt ?? '-', f.source, f.status, f.path, field(f, 'helpful') ?? '-', f.comment ?? '-'],
  align: ['left', 'left', 'left', 'left', 'left', 'left'],
  flexible: [3, 5],
  // On a narrow terminal the page and the comment matter most: the date shortens, then helpful,
  // status and the date go.
  dates: [0],
  dropOrder: [4, 2, 0],
};

export const PAGE_FEEDBACK_COLUMNS: Columns<PageFeedback> = {
  csvHeader: ['path', 'thumbsUp', 'thumbsDown', 'code', 'total'],
  csvRecord: (p) => [p.path, p.thumbsUp, p.thumbsDown, p.code, p.total],
  tableHeader: ['page', 'thumbs up', 'thumbs down', 'code reports', 'total'],
  tableCells: (p) => [p.path, String(p.thumbsUp), String(p.thumbsDown), String(p.code), String(p.total)],
  align: ['left', 'right', 'right', 'right', 'right'],
  flexible: [0],
};

interface FeedbackFilters {
  source: FeedbackSource | undefined;
  status: string | undefined;
}

function feedbackSpec(filters: FeedbackFilters): ListCommandSpec<FeedbackPage, FeedbackItem> {
  return {
    command: ['analytics', 'feedback'],
    noun: SHAPE.noun,
    style: FEEDBACK.style,
    itemsKey: FEEDBACK.itemsKey,
    columns: FEEDBACK_COLUMNS,
    fetch: (api, projectId, { offset: _none, ...query }) => FEEDBACK.fetch(api, projectId, { ...query, ...filters }),
    summary: (last, next) => ({ nextCursor: next?.cursor ?? null, hasMore: next !== null && (last?.hasMore ?? false) }),
  };
}

function byPageSpec(filters: FeedbackFilters): ListCommandSpec<FeedbackByPagePage, PageFeedback> {
  return {
    command: ['analytics', 'feedback', '--by-page'],
    noun: BY_PAGE_SHAPE.noun,
    // Paged by nothing: one request, whose `hasMore` the command reports rather than follows.
    style: 'cursor+hasMore',
    itemsKey: 'feedback',
    columns: PAGE_FEEDBACK_COLUMNS,
    singlePage: true,
    fetch: async (api, projectId, { cursor: _none, offset: _neither, ...query }) => {
      const page = await api.feedbackByPage(projectId, { ...query, ...filters });
      // The engine sees a last page; `hasMore` itself is kept for the JSON document and the warning.
      return Object.assign(Object.create(null) as object, page, {
        hasMore: false,
        apiHasMore: page.hasMore,
      }) as FeedbackByPagePage;
    },
    summary: (last) => ({ hasMore: Boolean((last as { apiHasMore?: boolean } | undefined)?.apiHasMore) }),
  };
}

type FeedbackFlags = AnalyticsListFlags & { source?: FeedbackSource; status?: string; byPage?: boolean };

function filtersOf(flags: FeedbackFlags): { filters: FeedbackFilters; args: string[] } {
  if (
    flags.status !== undefined &&
    !flags.status.split(',').every((s) => (FEEDBACK_STATUSES as readonly string[]).includes(s))
  ) {
    throw new UsageError(
      `--status: "${flags.status}" is not a comma-separated list of pending, in_progress, resolved, dismissed`,
    );
  }
  const args = [
    ...(flags.source ? ['--source', flags.source] : []),
    ...(flags.status ? ['--status', flags.status] : []),
  ];
  return { filters: { source: flags.source, status: flags.status }, args };
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('feedback')
    .description(
      'reader feedback: comments, code-snippet reports and thumbs up/down, newest first; --by-page for counts per page',
    )
    .addOption(new Option('--source <source>', 'only this kind of feedback').choices(FEEDBACK_SOURCES))
    .option('--status <list>', 'only these review states, comma-separated: pending,in_progress,resolved,dismissed')
    .option(
      '--by-page',
      'thumbs up, thumbs down and code reports counted per page (one page of up to 100 rows: the API cannot page further)',
    );
  addListOptions(command, SHAPE).addHelpText(
    'after',
    `
CSV columns: id, createdAt, source, status, path, comment, helpful, contact, code, filename, lang
(helpful and contact only on contextual feedback, code/filename/lang only on code_snippet
feedback; empty cells elsewhere). --by-page: path,thumbsUp,thumbsDown,code,total.`,
  );
  command.action(
    action<FeedbackFlags>(deps, async (_args, flags, ctx) => {
      const { filters, args } = filtersOf(flags);
      if (flags.byPage) {
        if (flags.cursor !== undefined) throw new UsageError('--by-page has no pages to continue: leave out --cursor');
        const opts = parseAnalyticsListFlags(
          { ...flags, all: false },
          ctx.mode.json,
          ctx.clock.now(),
          BY_PAGE_SHAPE,
          args,
        );
        const result = await runList(byPageSpec(filters), opts, ctx);
        if ((result.last as { apiHasMore?: boolean } | undefined)?.apiHasMore) {
          ctx.reporter.warn(
            `the API holds feedback for more pages than the ${result.items} shown, but --by-page has no cursor or offset: the API cannot page further. ` +
              'Narrow --from/--to or filter with --source/--status, or export every entry with `mint-admin analytics feedback --all`.',
          );
        }
        return;
      }
      await runList(
        feedbackSpec(filters),
        parseAnalyticsListFlags(flags, ctx.mode.json, ctx.clock.now(), SHAPE, args),
        ctx,
      );
    }),
  );
  examples(command, [
    'mint-admin analytics feedback --from 2026-11-16 --to 2026-11-23',
    'mint-admin analytics feedback --source code_snippet --status pending --all --format csv -o snippets.csv',
    'mint-admin analytics feedback --by-page --format csv',
  ]);
}
