import type { Command } from 'commander';
import type { Deps } from '../../context.js';
import { registerStatus } from '../build-status.js';

export function register(group: Command, deps: Deps): void {
  registerStatus(group, deps, 'deploy');
}
