import type { Command } from 'commander';
import type { Deps } from '../../context.js';
import { registerStatus } from '../build-status.js';

// A preview build is followed with the same status call as a deployment.
export function register(group: Command, deps: Deps): void {
  registerStatus(group, deps, 'preview');
}
