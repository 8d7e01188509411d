import type { Command } from 'commander';
import { examples } from '../../command.js';
import type { Deps } from '../../context.js';
import { register as registerRun } from './run.js';

export function registerAutomation(program: Command, deps: Deps): void {
  const group = program
    .command('automation')
    .description('run Mintlify automations from CI (runs cannot be followed through the API: see the Automations page)');
  examples(group, ['mint-admin automation run wf_3kq9x2', 'mint-admin automation run wf_7hd2m1 --webhook']);
  registerRun(group, deps);
}
