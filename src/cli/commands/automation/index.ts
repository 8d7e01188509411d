import type { Command } from 'commander';
import { examples } from '../../command.js';
import type { Deps } from '../../context.js';
import { register as registerRun } from './run.js';

/** `leaves` false registers the group alone (program.ts: a run of another group needs only its name). */
export function registerAutomation(program: Command, deps: Deps, leaves = true): void {
  const group = program
    .command('automation')
    .description(
      'run Mintlify automations from CI (runs cannot be followed through the API: see the Automations page)',
    );
  examples(group, ['mint-admin automation run wf_3kq9x2', 'mint-admin automation run wf_7hd2m1 --webhook']);
  if (leaves) registerRun(group, deps);
}
