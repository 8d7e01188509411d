import type { Command } from 'commander';
import type { Deps } from '../../context.js';
import { examples } from '../../command.js';
import { register as registerStart } from './start.js';
import { register as registerStatus } from './status.js';
import { register as registerBundle } from './bundle.js';
import { register as registerDownload } from './download.js';
import { register as registerRun } from './run.js';
import { register as registerVerify } from './verify.js';
import { register as registerServe } from './serve.js';
import { register as registerHostConfig } from './host-config.js';

/** `leaves` false registers the group alone (program.ts: a run of another group needs only its name). */
export function registerExport(program: Command, deps: Deps, leaves = true): void {
  const group = program
    .command('export')
    .description('static export (Enterprise plan): pre-render a deployment to static files and download them');
  examples(group, [
    'mint-admin export run -o ./site                # project-scoped flow (needs the project id)',
    'mint-admin export run docs.example.com -o ./site',
    'mint-admin export start docs.example.com --wait',
    'mint-admin export download se_3f9a2c1b8e7d4a06 -o ./site --wait',
    'mint-admin export verify ./site && mint-admin export serve ./site',
  ]);
  if (!leaves) return;
  for (const register of [
    registerStart,
    registerStatus,
    registerBundle,
    registerDownload,
    registerRun,
    registerVerify,
    registerServe,
    registerHostConfig,
  ])
    register(group, deps);
}
