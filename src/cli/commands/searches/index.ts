import type { Command } from 'commander';
import type { Deps } from '../../context.js';
import { examples } from '../../command.js';
import { register as registerList } from '../searches-list.js';

/** `leaves` false registers the group alone (program.ts: a run of another group needs only its name). */
export function registerSearches(program: Command, deps: Deps, leaves = true): void {
  const group = program.command('searches').description('search analytics: what readers search for in your docs');
  examples(group, ['mint-admin searches list --from 2026-11-16 --to 2026-11-23 --all --format csv -o searches.csv']);
  if (leaves) registerList(group, deps);
}
