// The glue between commander and a leaf command's run(): build the Context from the parsed global
// flags, run, and always release the HTTP connections so the process can exit promptly.
import type { Command } from 'commander';
import { createContext, type Context, type Deps } from './context.js';
import type { GlobalOptions } from '../config/settings.js';
import { jsonText } from '../output/json-text.js';

/**
 * Wraps a leaf command's handler as a commander action. The handler gets the positional arguments,
 * the command's own options and the Context.
 */
export function action<O extends object = Record<string, unknown>>(
  deps: Deps,
  handler: (args: string[], opts: O, ctx: Context) => Promise<void>,
) {
  return async (...params: unknown[]): Promise<void> => {
    const command = params[params.length - 1] as Command;
    const ctx = createContext(deps, command.optsWithGlobals<GlobalOptions>());
    try {
      await handler(command.processedArgs as string[], command.opts() as O, ctx);
    } finally {
      await ctx.close();
    }
  };
}

/** Writes one JSON document to stdout: the contract for --json. */
export function printJson(ctx: Context, value: unknown): void {
  // jsonText escapes every control character (C1 too); only a key the server echoed needs masking.
  ctx.io.stdout.write(`${ctx.scrub(jsonText(value, 2))}\n`);
}

/** Appends an "Examples:" block to a command's help (cli.md: every command's help has one). */
export function examples(command: Command, lines: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}
