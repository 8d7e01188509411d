import type { Command } from 'commander';
import type { Deps } from '../../context.js';
import { examples } from '../../command.js';
import { register as registerSearches } from './searches.js';
import { register as registerFeedback } from './feedback.js';
import { register as registerConversations } from './conversations.js';
import { register as registerThread } from './thread.js';
import { register as registerCallers } from './callers.js';
import { register as registerViews } from './views.js';
import { register as registerVisitors } from './visitors.js';
import { register as registerGaps } from './gaps.js';
import { register as registerSync } from './sync.js';
import { register as registerQuery } from './query.js';
import { register as registerReport } from './report.js';
import { register as registerBudget } from './budget.js';

/** `leaves` false registers the group alone (program.ts: a run of another group needs only its name). */
export function registerAnalytics(program: Command, deps: Deps, leaves = true): void {
  const group = program
    .command('analytics')
    .description(
      'docs analytics: searches, feedback, assistant conversations, views, visitors, the content-gap report, and a local database of them all (100 requests per organization per hour)',
    );
  examples(group, [
    'mint-admin analytics gaps --from 2026-11-16 --to 2026-11-23',
    'mint-admin analytics feedback --all --format csv -o feedback.csv',
    'mint-admin analytics sync --max-requests 60',
  ]);
  if (!leaves) return;
  for (const register of [
    registerSearches,
    registerFeedback,
    registerConversations,
    registerThread,
    registerCallers,
    registerViews,
    registerVisitors,
    registerGaps,
    registerSync,
    registerQuery,
    registerReport,
    registerBudget,
  ]) {
    register(group, deps);
  }
}
