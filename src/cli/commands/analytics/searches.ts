// `analytics searches`: the same command as `searches list` (which stays), so every analytics
// endpoint is under one group.
import type { Command } from 'commander';
import type { Deps } from '../../context.js';
import { register as registerSearchesList } from '../searches-list.js';

export function register(group: Command, deps: Deps): void {
  registerSearchesList(group, deps, 'searches');
}
