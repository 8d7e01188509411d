import type { Command } from 'commander';
import { examples } from '../../command.js';
import type { Deps } from '../../context.js';
import { register as registerStart } from './start.js';
import { register as registerStatus } from './status.js';

/** `leaves` false registers the group alone (program.ts: a run of another group needs only its name). */
export function registerPreview(program: Command, deps: Deps, leaves = true): void {
  const group = program
    .command('preview')
    .description('preview deployments of a branch: build one, wait until it is live, get its link');
  examples(group, [
    'mint-admin preview start feat/new-guide --wait',
    'mint-admin preview status 6650d2f1c3a4b5e6f7a8b9c0 --wait',
  ]);
  if (!leaves) return;
  for (const register of [registerStart, registerStatus]) register(group, deps);
}
