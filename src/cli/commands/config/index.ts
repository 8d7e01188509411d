import type { Command } from 'commander';
import type { Deps } from '../../context.js';
import { examples } from '../../command.js';
import { register as registerSet } from './set.js';
import { register as registerGet } from './get.js';
import { register as registerUnset } from './unset.js';
import { register as registerList } from './list.js';
import { register as registerPath } from './path.js';

/** `leaves` false registers the group alone (program.ts: a run of another group needs only its name). */
export function registerConfig(program: Command, deps: Deps, leaves = true): void {
  const group = program.command('config').description('manage the admin key, project id and base URL, per profile');
  examples(group, ['mint-admin config set api-key', 'mint-admin config list']);
  if (!leaves) return;
  for (const register of [registerSet, registerGet, registerUnset, registerList, registerPath]) register(group, deps);
}
