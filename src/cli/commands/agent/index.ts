import type { Command } from 'commander';
import { examples } from '../../command.js';
import type { Deps } from '../../context.js';
import { register as registerRun } from './run.js';
import { register as registerGet } from './get.js';
import { register as registerMessage } from './message.js';

/** `leaves` false registers the group alone (program.ts: a run of another group needs only its name). */
export function registerAgent(program: Command, deps: Deps, leaves = true): void {
  const group = program
    .command('agent')
    .description('run the Mintlify agent on your docs: start a job, follow it to its pull request, send follow-ups');
  examples(group, [
    'mint-admin agent run "Document the new /v2/users endpoint" --wait',
    'mint-admin agent message <jobId> "Also add a curl example" --wait',
  ]);
  if (!leaves) return;
  for (const register of [registerRun, registerGet, registerMessage]) register(group, deps);
}
