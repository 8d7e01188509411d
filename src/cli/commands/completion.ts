import { Argument, type Command } from 'commander';
import { action, examples } from '../command.js';
import type { Deps } from '../context.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

export function register(program: Command, deps: Deps): void {
  const command = program
    .command('completion')
    .description('print the shell completion script (the same text as completions/ in the package)')
    .addArgument(new Argument('<shell>', 'bash | zsh | fish').choices(SHELLS))
    .action(
      action(deps, async ([shell], _opts, ctx) => {
        // Generated from the live command tree, so it always matches this version of the CLI.
        const { completionScript } = await import('../completion/index.js');
        ctx.io.stdout.write(await completionScript(shell as (typeof SHELLS)[number], program));
      }),
    );
  examples(command, [
    'mint-admin completion bash > ~/.local/share/bash-completion/completions/mint-admin',
    'mint-admin completion zsh > "${fpath[1]}/_mint-admin"',
    'mint-admin completion fish > ~/.config/fish/completions/mint-admin.fish',
  ]);
}
