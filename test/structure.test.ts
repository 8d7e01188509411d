// The layout as a rule (../shared/design/architecture.md): one engine, thin faces. The engine and the
// other faces (the library, later the MCP server and the action) never reach into the CLI's commands,
// and no command group reaches into another's files: what two groups share lives beside the groups
// (src/commands/*.ts) or in the engine. The commander tree (src/program.ts) is the one file outside
// src/commands/ that registers them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');
const REGISTERS_THE_COMMANDS = new Set(['program.ts']);

/** Every module a file names: static imports and re-exports, and dynamic import() of a literal. */
function importsOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'([^']+)'/gm)) found.push(match[1]!);
  return found;
}

/** Where a relative import lands, as a path under src/ ('commands/agent/run.js'); undefined for a package. */
function target(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return relative(SRC, resolve(dirname(join(SRC, fromFile)), specifier));
}

/** The command group a path under src/ belongs to ('agent' for commands/agent/run.ts); undefined otherwise. */
function groupOf(path: string): string | undefined {
  const parts = path.split('/');
  return parts[0] === 'commands' && parts.length > 2 ? parts[1] : undefined;
}

/** Each import that breaks the layout, as `file -> target: why`. */
function layoutViolations(files: Array<{ path: string; text: string }>): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    for (const specifier of importsOf(text)) {
      const to = target(path, specifier);
      if (to === undefined || !to.startsWith('commands/')) continue;
      if (!path.startsWith('commands/')) {
        if (!REGISTERS_THE_COMMANDS.has(path))
          found.push(`${path} -> ${to}: only the commander tree imports the commands`);
        continue;
      }
      const [from, into] = [groupOf(path), groupOf(to)];
      if (into !== undefined && from !== into) found.push(`${path} -> ${to}: a command imports no other group's files`);
    }
  }
  return found;
}

function sourceFiles(dir = SRC): Array<{ path: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [{ path: relative(SRC, full), text: readFileSync(full, 'utf8') }] : [];
  });
}

describe('the layout', () => {
  it('nothing outside src/commands/ but the commander tree imports from it, and no command group imports another', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(layoutViolations(files)).toEqual([]);
  });

  it.each([
    [
      'the library importing a command',
      { path: 'library/query.ts', text: "import { x } from '../commands/searches/dates.js';" },
      'library/query.ts -> commands/searches/dates.js: only the commander tree imports the commands',
    ],
    [
      'an engine module importing one lazily',
      { path: 'waits/build.ts', text: "const m = await import('../commands/deploy/status.js');" },
      'waits/build.ts -> commands/deploy/status.js: only the commander tree imports the commands',
    ],
    [
      'one group importing another',
      { path: 'commands/preview/status.ts', text: "import { registerStatus } from '../deploy/status.js';" },
      "commands/preview/status.ts -> commands/deploy/status.js: a command imports no other group's files",
    ],
    [
      'a shared file re-exporting a group',
      { path: 'commands/list-options.ts', text: "export { x } from './searches/flags.js';" },
      "commands/list-options.ts -> commands/searches/flags.js: a command imports no other group's files",
    ],
  ])('finds %s', (_name, file, violation) => {
    expect(layoutViolations([file])).toEqual([violation]);
  });

  it.each([
    ['a group importing its own files', { path: 'commands/deploy/start.ts', text: "import { x } from './status.js';" }],
    [
      'a group importing what groups share',
      { path: 'commands/preview/start.ts', text: "import { x } from '../github-output.js';" },
    ],
    [
      'a group importing the engine',
      { path: 'commands/agent/run.ts', text: "import { x } from '../../waits/agent-job.js';" },
    ],
    [
      'the commander tree registering a group',
      { path: 'program.ts', text: "import { registerAgent } from './commands/agent/index.js';" },
    ],
  ])('allows %s', (_name, file) => {
    expect(layoutViolations([file])).toEqual([]);
  });
});
