// What the shell completions know, read off the commander tree so they cannot disagree with it.
import type { Command, Option } from 'commander';

export interface OptionSpec {
  flags: string[];
  takesValue: boolean;
  choices: string[];
  /** Complete a path here: a directory for --out, any file for the rest. */
  path: 'file' | 'directory' | undefined;
  description: string;
}

export interface CommandSpec {
  /** "mint-admin", "mint-admin/export", "mint-admin/export/download". */
  path: string;
  description: string;
  subcommands: Array<{ name: string; description: string }>;
  /** The command's own options plus the global ones (commander accepts those after a subcommand too). */
  options: OptionSpec[];
  /** Values the first positional argument may take (config keys, shell names). */
  argChoices: string[];
  /** The first positional argument is a path: complete directories (`export verify <dir>`). */
  argPath: 'directory' | undefined;
}

/** Options whose value is a path (cli.md): files, except --out which names a directory. */
const PATH_OPTIONS: Record<string, 'file' | 'directory'> = {
  '--out': 'directory',
  '--output': 'file',
  '--file': 'file',
  '--archive': 'file',
};

/** Positional arguments, by name, whose value is a directory. */
const DIRECTORY_ARGUMENTS = new Set(['dir']);

const HELP: OptionSpec = {
  flags: ['-h', '--help'],
  takesValue: false,
  choices: [],
  path: undefined,
  description: 'show help',
};

export function completionModel(program: Command): CommandSpec[] {
  // --version belongs to the root; the other root options are global and work after any subcommand.
  const globals = program.options.filter((o) => !o.hidden && o.long !== '--version').map(optionSpec);
  const specs: CommandSpec[] = [];
  const visit = (command: Command, path: string, isRoot: boolean) => {
    const own = command.options.filter((o) => !o.hidden && (isRoot ? o.long === '--version' : true)).map(optionSpec);
    const [first, ...rest] = command.registeredArguments;
    if (rest.some((a) => a.argChoices)) {
      throw new Error(`${path}: completions support choices on the first argument only`);
    }
    specs.push({
      path,
      description: command.description(),
      subcommands: command.commands.map((c) => ({ name: c.name(), description: c.description() })),
      options: [...own, ...globals, HELP],
      argChoices: first?.argChoices ?? [],
      argPath: first && DIRECTORY_ARGUMENTS.has(first.name()) ? 'directory' : undefined,
    });
    for (const sub of command.commands) visit(sub, `${path}/${sub.name()}`, false);
  };
  visit(program, program.name(), true);
  return specs;
}

function optionSpec(option: Option): OptionSpec {
  const flags = [option.short, option.long].filter((f): f is string => Boolean(f));
  return {
    flags,
    takesValue: option.required || option.optional,
    choices: option.argChoices ?? [],
    path: option.long ? PATH_OPTIONS[option.long] : undefined,
    description: option.description,
  };
}

/** Every flag that consumes the next word, across the whole tree: the scanners skip those words. */
export function valueFlags(specs: CommandSpec[]): string[] {
  return [...new Set(specs.flatMap((s) => s.options.filter((o) => o.takesValue).flatMap((o) => o.flags)))].sort();
}
