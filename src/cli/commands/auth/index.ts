import type { Command } from 'commander';
import type { Deps } from '../../context.js';
import { examples } from '../../command.js';
import { register as registerLogin } from './login.js';
import { register as registerStatus } from './status.js';

/** `leaves` false registers the group alone (program.ts: a run of another group needs only its name). */
export function registerAuth(program: Command, deps: Deps, leaves = true): void {
  const group = program
    .command('auth')
    .description(
      'save an admin key the API accepts; check which key, project and base URL are in effect, and whether the API accepts the key',
    );
  examples(group, ['mint-admin auth login', 'mint-admin auth status']);
  if (!leaves) return;
  registerLogin(group, deps);
  registerStatus(group, deps);
}
