import type { Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Deps } from '../../context.js';
import { configFilePath } from '../../../config/store.js';

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('path')
    .description("print the config file's path")
    .action(
      action(deps, async (_args, _opts, ctx) => {
        const path = configFilePath(ctx.env);
        if (ctx.mode.json) return printJson(ctx, { path });
        ctx.io.stdout.write(`${path}\n`);
      }),
    );
  examples(command, ['mint-admin config path']);
}
