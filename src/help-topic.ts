// `mint-admin help <words...>`: the help of the command those words name. A topic that names no
// command is a usage error naming it; printing the root help with exit 0 would tell a script that
// asked about a command that does not exist that all is well.
import type { Command } from 'commander';
import { UsageError } from './errors.js';

/** Throws a UsageError unless every word (up to the first option) names a subcommand of the one before. */
export function checkHelpTopic(program: Command, words: readonly string[]): void {
  let command = program;
  const path: string[] = [];
  for (const word of words) {
    if (word.startsWith('-')) return; // an option: commander answers it as it would after --help
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) {
      const lister = ['mint-admin', ...path, '--help'].join(' ');
      throw new UsageError(`unknown help topic "${[...path, word].join(' ')}"; \`${lister}\` lists the commands`);
    }
    path.push(word);
    command = sub;
  }
}
