// `analytics views`: content view events per page, human and AI (offset pages, 250 a request).
import type { Command } from 'commander';
import type { Deps } from '../../context.js';
import { VIEWS } from '../../../paging/endpoints.js';
import { registerTraffic } from './traffic.js';

export function register(group: Command, deps: Deps): void {
  registerTraffic(group, deps, {
    name: 'views',
    description: 'page views per page, from people and from AI agents, most viewed first',
    counted: 'views',
    route: VIEWS,
  });
}
