// Views and visitors have one shape: per-page human, AI and total counts, offset pages of up to 250,
// and site-wide totals on every page. Declared once; views.ts and visitors.ts name their endpoint.
import type { Command } from 'commander';
import { action, examples } from '../../command.js';
import type { Deps } from '../../context.js';
import type { PageTraffic, TrafficQuery, ViewsPage, VisitorsPage } from '../../../api/types.js';
import type { PagedRoute } from '../../../paging/endpoints.js';
import type { Columns } from '../../../output/writer.js';
import { type ListCommandSpec, runList } from '../list-run.js';
import { addListOptions, listShape, parseAnalyticsListFlags, type AnalyticsListFlags } from '../list-options.js';

export const TRAFFIC_COLUMNS: Columns<PageTraffic> = {
  csvHeader: ['path', 'human', 'ai', 'total'],
  csvRecord: (p) => [p.path, p.human, p.ai, p.total],
  tableHeader: ['page', 'human', 'AI', 'total'],
  tableCells: (p) => [p.path, String(p.human), String(p.ai), String(p.total)],
  align: ['left', 'right', 'right', 'right'],
  flexible: [0],
};

type TrafficPage = { totals: ViewsPage['totals']; hasMore: boolean; views: PageTraffic[]; visitors: PageTraffic[] };

export interface TrafficEndpoint {
  name: 'views' | 'visitors';
  description: string;
  /** What the counts are, in the totals line: "view events", "unique visitors". */
  counted: string;
  /** VIEWS or VISITORS (src/paging/endpoints.ts): how it pages and its page sizes. */
  route: PagedRoute<ViewsPage, PageTraffic, TrafficQuery> | PagedRoute<VisitorsPage, PageTraffic, TrafficQuery>;
}

function spec(endpoint: TrafficEndpoint): ListCommandSpec<TrafficPage, PageTraffic> {
  return {
    command: ['analytics', endpoint.name],
    noun: endpoint.route.noun,
    style: endpoint.route.style,
    itemsKey: endpoint.route.itemsKey,
    itemsAtMost: endpoint.route.itemsAtMost,
    columns: TRAFFIC_COLUMNS,
    fetch: (api, projectId, { cursor: _none, ...query }) =>
      endpoint.route.fetch(api, projectId, query) as Promise<TrafficPage>,
    summary: (last, next) => ({
      totals: last?.totals ?? null,
      hasMore: next !== null,
      nextOffset: next?.offset ?? null,
    }),
    totals: (last) =>
      `Site-wide ${endpoint.counted}: ${last.totals.total} (human ${last.totals.human}, AI ${last.totals.ai})`,
  };
}

export function registerTraffic(group: Command, deps: Deps, endpoint: TrafficEndpoint): void {
  const shape = listShape(endpoint.route);
  const command = group.command(endpoint.name).description(endpoint.description);
  addListOptions(command, shape).addHelpText(
    'after',
    `
CSV columns: path,human,ai,total. The site-wide totals follow a table on stderr and are the
"totals" field of the JSON document.`,
  );
  command.action(
    action<AnalyticsListFlags>(deps, async (_args, flags, ctx) => {
      await runList(spec(endpoint), parseAnalyticsListFlags(flags, ctx.mode.json, ctx.clock.now(), shape), ctx);
    }),
  );
  examples(command, [
    `mint-admin analytics ${endpoint.name} --from 2026-11-01 --to 2026-12-01`,
    `mint-admin analytics ${endpoint.name} --all --format csv -o ${endpoint.name}.csv`,
  ]);
}
