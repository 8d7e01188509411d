// Picks the shell's renderer for the model read off the command tree. The renderers depend on the
// model and nothing depends on them but this file, so the model never imports a renderer back.
import type { Command } from 'commander';
import { completionModel } from './model.js';

/** The completions for `shell`, generated from the tree; only the chosen shell's renderer loads. */
export async function completionScript(shell: 'bash' | 'zsh' | 'fish', program: Command): Promise<string> {
  const specs = completionModel(program);
  const render =
    shell === 'bash'
      ? (await import('./bash.js')).bashScript
      : shell === 'zsh'
        ? (await import('./zsh.js')).zshScript
        : (await import('./fish.js')).fishScript;
  return render(specs);
}

export const COMPLETION_FILES = { bash: 'mint-admin.bash', zsh: '_mint-admin', fish: 'mint-admin.fish' } as const;
