// `analytics visitors`: unique visitors per page, human and AI (offset pages, 250 a request).
import type { Command } from 'commander';
import type { Deps } from '../../context.js';
import { VISITORS } from '../../../paging/endpoints.js';
import { registerTraffic } from './traffic.js';

export function register(group: Command, deps: Deps): void {
  registerTraffic(group, deps, {
    name: 'visitors',
    description: 'unique visitors per page, people and AI agents, most visited first',
    counted: 'unique visitors',
    route: VISITORS,
  });
}
