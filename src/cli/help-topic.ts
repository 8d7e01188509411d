// `mint-admin help <words...>`: the help of the command those words name, or one of the topics below
// that are no command (`help exit-codes`). A topic that names neither is a usage error naming it; printing the root help with exit 0 would tell a script that
// asked about a command that does not exist that all is well.
import type { Command } from 'commander';
import { UsageError } from '../errors.js';

/** Help topics that are not commands: their text, made when asked for. */
const TOPICS: Record<string, () => Promise<string>> = {
  'exit-codes': async () => (await import('./exit-codes-help.js')).exitCodesHelp(),
};

/** The text of a topic that is no command (`help exit-codes`), or undefined. */
export async function topicText(words: readonly string[]): Promise<string | undefined> {
  const topic = words.length === 1 ? TOPICS[words[0] as string] : undefined;
  return topic?.();
}

/** Throws a UsageError unless every word (up to the first option) names a subcommand of the one before. */
export function checkHelpTopic(program: Command, words: readonly string[]): void {
  let command = program;
  const path: string[] = [];
  for (const word of words) {
    if (word.startsWith('-')) return; // an option: commander answers it as it would after --help
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) {
      const lister = ['mint-admin', ...path, '--help'].join(' ');
      const topics =
        path.length === 0
          ? ` (and ${Object.keys(TOPICS)
              .map((t) => `\`mint-admin help ${t}\``)
              .join(', ')})`
          : '';
      throw new UsageError(
        `unknown help topic "${[...path, word].join(' ')}"; \`${lister}\` lists the commands${topics}`,
      );
    }
    path.push(word);
    command = sub;
  }
}
