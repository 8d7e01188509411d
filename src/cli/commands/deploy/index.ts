import type { Command } from 'commander';
import { examples } from '../../command.js';
import type { Deps } from '../../context.js';
import { register as registerStart } from './start.js';
import { register as registerStatus } from './status.js';

/** `leaves` false registers the group alone (program.ts: a run of another group needs only its name). */
export function registerDeploy(program: Command, deps: Deps, leaves = true): void {
  const group = program
    .command('deploy')
    .description('deploy your docs from CI: queue a deployment, follow its build log, fail the pipeline when it fails');
  examples(group, ['mint-admin deploy start --wait', 'mint-admin deploy status 6650d2f1c3a4b5e6f7a8b9c0']);
  if (!leaves) return;
  for (const register of [registerStart, registerStatus]) register(group, deps);
}
