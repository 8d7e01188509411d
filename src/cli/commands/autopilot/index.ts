import type { Command } from 'commander';
import { examples } from '../../command.js';
import type { Deps } from '../../context.js';
import { register as registerRun } from './run.js';

/** `leaves` false registers the group alone (program.ts: a run of another group needs only its name). */
export function registerAutopilot(program: Command, deps: Deps, leaves = true): void {
  const group = program
    .command('autopilot')
    .description('start Mintlify Autopilot runs from CI with a prompt (runs cannot be followed through the API)');
  examples(group, [
    'mint-admin autopilot run "Update the changelog for v2.4"',
    'mint-admin autopilot run -f prompt.md --json',
  ]);
  if (leaves) registerRun(group, deps);
}
