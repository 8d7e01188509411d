// The layout as a rule (../shared/design/architecture.md): one engine, thin faces.
// - The engine is src/ but for the faces: the CLI (src/cli/), the library (src/library/ and its entry
//   src/index.ts), the MCP server (src/mcp/) and the GitHub Action (action/src/).
// - The engine imports no face, and no face imports another: each face writes its own sentences over
//   the engine. The one door between faces is the CLI's seam, runCli(argv, deps), which the action runs
//   (its `command` input is a mint-admin command line) with the CLI's exit-code words.
// - No command group reaches into another's files: what two groups share lives beside the groups
//   (src/cli/commands/*.ts) or in the engine, and the commander tree (src/cli/program.ts) is the one file
//   outside src/cli/commands/ that registers them.
// - Only the entries touch process-wide state (exit, exit code, signal listeners, the environment, the
//   working directory, the umask, the compile cache); everything else is handed what it needs.
// - No import circle, type-only imports included.
// - No file in src/ is over 300 lines but the schema catalogue.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

/** Every module a file names: static imports and re-exports, and dynamic import() of a literal. */
function importsOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'([^']+)'/gm)) found.push(match[1]!);
  return found;
}

/**
 * Where a relative import lands, as a path from the project root with .ts for .js
 * ('src/cli/commands/agent/run.ts'); undefined for a package.
 */
function target(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return relative(ROOT, resolve(dirname(join(ROOT, fromFile)), specifier)).replace(/\.js$/, '.ts');
}

type Zone = 'engine' | 'cli' | 'library' | 'mcp' | 'action' | 'outside';

/** Which face a file belongs to, or the engine. */
function zoneOf(path: string): Zone {
  if (path.startsWith('action/src/')) return 'action';
  if (!path.startsWith('src/')) return 'outside';
  if (path.startsWith('src/cli/')) return 'cli';
  if (path.startsWith('src/library/') || path === 'src/index.ts') return 'library';
  if (path.startsWith('src/mcp/')) return 'mcp';
  return 'engine';
}

/** The command group a path belongs to ('agent' for src/cli/commands/agent/run.ts); undefined otherwise. */
function groupOf(path: string): string | undefined {
  const parts = path.split('/');
  return path.startsWith(COMMANDS) && parts.length > 4 ? parts[3] : undefined;
}

const COMMANDS = 'src/cli/commands/';
const REGISTERS_THE_COMMANDS = new Set(['src/cli/program.ts']);
/**
 * The doors between faces (see the top of this file): the action runs the CLI through its seam, and the
 * CLI's `mcp` command starts the MCP server.
 */
const SEAMS: Array<{ from: string; to: Set<string> }> = [
  { from: 'action/src/', to: new Set(['src/cli/run.ts', 'src/cli/context.ts', 'src/cli/exit-codes-help.ts']) },
  { from: 'src/cli/commands/mcp/', to: new Set(['src/mcp/server.ts', 'src/mcp/groups.ts']) },
];
const throughSeam = (from: string, to: string) => SEAMS.some((seam) => from.startsWith(seam.from) && seam.to.has(to));

interface SourceFile {
  path: string;
  text: string;
}

/** Each import that breaks the layout, as `file -> target: why`. */
function layoutViolations(files: SourceFile[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const from = zoneOf(path);
    for (const specifier of importsOf(text)) {
      const to = target(path, specifier);
      if (to === undefined) continue;
      const into = zoneOf(to);
      if (from === 'engine' && into !== 'engine') found.push(`${path} -> ${to}: the engine imports no face`);
      else if (from !== 'engine' && into !== 'engine' && into !== from) {
        if (!throughSeam(path, to)) found.push(`${path} -> ${to}: a face imports no other face`);
      }
      if (!to.startsWith(COMMANDS) || from !== 'cli') continue;
      if (!path.startsWith(COMMANDS)) {
        if (!REGISTERS_THE_COMMANDS.has(path))
          found.push(`${path} -> ${to}: only the commander tree imports the commands`);
        continue;
      }
      const group = groupOf(to);
      if (group !== undefined && groupOf(path) !== group)
        found.push(`${path} -> ${to}: a command imports no other group's files`);
    }
  }
  return found;
}

const ENTRIES = new Set(['src/cli/main.ts', 'action/src/main.ts']);
const PROCESS_WIDE =
  /\bprocess\.(?:exit\s*\(|exitCode\b|abort\s*\(|on\s*\(|once\s*\(|addListener\s*\(|prependListener\s*\(|chdir\s*\(|umask\s*\(\s*[^)\s]|setUncaughtExceptionCaptureCallback|setSourceMapsEnabled|env(?:\.\w+|\[[^\]]+\])\s*=(?!=)|title\s*=(?!=))|\benableCompileCache\s*\(\s*\)|\bsetDefaultResultOrder\s*\(/;

/** Each file but the entries that touches process-wide state, as `file:line: the line`. */
function processWideViolations(files: SourceFile[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    if (ENTRIES.has(path)) continue;
    text.split('\n').forEach((line, index) => {
      const code = line.replace(/\/\/.*$/, '');
      if (PROCESS_WIDE.test(code)) found.push(`${path}:${index + 1}: ${line.trim()}`);
    });
  }
  return found;
}

/** The one file allowed past the size rule: the catalogue of the API's answer schemas. */
const SIZE_EXCEPTIONS = new Set(['src/api/schemas.ts']);
const MOST_LINES = 300;

function sourceFiles(dir: string): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [{ path: relative(ROOT, full), text: readFileSync(full, 'utf8') }] : [];
  });
}

const everyFile = () => [...sourceFiles(SRC), ...sourceFiles(join(ROOT, 'action/src'))];

/**
 * The first import circle found, as the files around it (`a.ts -> b.ts -> a.ts`), type-only imports
 * included: a circle makes two files one unit that neither can be read, tested or moved without.
 */
function firstCircle(files: SourceFile[]): string | undefined {
  const known = new Set(files.map((file) => file.path));
  const edges = new Map(
    files.map((file) => [
      file.path,
      importsOf(file.text)
        .map((specifier) => target(file.path, specifier))
        .filter((to): to is string => to !== undefined && known.has(to)),
    ]),
  );
  const done = new Set<string>();
  const visit = (path: string, trail: string[]): string | undefined => {
    const at = trail.indexOf(path);
    if (at >= 0) return [...trail.slice(at), path].join(' -> ');
    if (done.has(path)) return undefined;
    for (const next of edges.get(path) ?? []) {
      const circle = visit(next, [...trail, path]);
      if (circle) return circle;
    }
    done.add(path);
    return undefined;
  };
  for (const path of known) {
    const circle = visit(path, []);
    if (circle) return circle;
  }
  return undefined;
}

describe('the layout', () => {
  it('the engine imports no face, no face another, and no command group another', () => {
    const files = everyFile();
    expect(files.length).toBeGreaterThan(100);
    expect(layoutViolations(files)).toEqual([]);
  });

  it('no import circle, type-only imports included', () => {
    expect(firstCircle(everyFile())).toBeUndefined();
  });

  it('finds a type-only circle between two files', () => {
    const files = [
      { path: 'src/download/fetch.ts', text: "import { watchForStall } from './stall.js';" },
      { path: 'src/download/stall.ts', text: "import type { Download } from './fetch.js';" },
    ];
    expect(firstCircle(files)).toBe('src/download/fetch.ts -> src/download/stall.ts -> src/download/fetch.ts');
  });

  it('only the entries touch process-wide state', () => {
    expect(processWideViolations(everyFile())).toEqual([]);
  });

  it(`no file in src/ is over ${MOST_LINES} lines but the schema catalogue`, () => {
    const long = sourceFiles(SRC)
      .filter((file) => !SIZE_EXCEPTIONS.has(file.path))
      .filter((file) => file.text.split('\n').length - 1 > MOST_LINES)
      .map((file) => file.path)
      .sort();
    expect(long).toEqual([]);
  });

  it.each([
    [
      'the library importing a command',
      { path: 'src/library/query.ts', text: "import { x } from '../cli/commands/searches/dates.js';" },
      'src/library/query.ts -> src/cli/commands/searches/dates.ts: a face imports no other face',
    ],
    [
      'an engine module importing the CLI lazily',
      { path: 'src/waits/build.ts', text: "const m = await import('../cli/context.js');" },
      'src/waits/build.ts -> src/cli/context.ts: the engine imports no face',
    ],
    [
      'an engine module importing the library face',
      { path: 'src/download/index.ts', text: "import type { Options } from '../library/download.js';" },
      'src/download/index.ts -> src/library/download.ts: the engine imports no face',
    ],
    [
      'an MCP tool importing the library face',
      { path: 'src/mcp/tools/query.ts', text: "import { checkAnalyticsQuery } from '../../library/query.js';" },
      'src/mcp/tools/query.ts -> src/library/query.ts: a face imports no other face',
    ],
    [
      'the MCP server importing the CLI',
      { path: 'src/mcp/server.ts', text: "import type { Context } from '../cli/context.js';" },
      'src/mcp/server.ts -> src/cli/context.ts: a face imports no other face',
    ],
    [
      'the action importing a command',
      { path: 'action/src/main.ts', text: "import { x } from '../../src/cli/commands/export/download.js';" },
      'action/src/main.ts -> src/cli/commands/export/download.ts: a face imports no other face',
    ],
    [
      'a CLI module outside the commands importing one',
      { path: 'src/cli/io.ts', text: "import { x } from './commands/deploy/status.js';" },
      'src/cli/io.ts -> src/cli/commands/deploy/status.ts: only the commander tree imports the commands',
    ],
    [
      'one group importing another',
      { path: 'src/cli/commands/preview/status.ts', text: "import { registerStatus } from '../deploy/status.js';" },
      "src/cli/commands/preview/status.ts -> src/cli/commands/deploy/status.ts: a command imports no other group's files",
    ],
    [
      'a shared file re-exporting a group',
      { path: 'src/cli/commands/list-options.ts', text: "export { x } from './searches/flags.js';" },
      "src/cli/commands/list-options.ts -> src/cli/commands/searches/flags.ts: a command imports no other group's files",
    ],
  ])('finds %s', (_name, file, violation) => {
    expect(layoutViolations([file])).toEqual([violation]);
  });

  it.each([
    [
      'a group importing its own files',
      { path: 'src/cli/commands/deploy/start.ts', text: "import { x } from './status.js';" },
    ],
    [
      'a group importing what groups share',
      { path: 'src/cli/commands/preview/start.ts', text: "import { x } from '../github-output.js';" },
    ],
    [
      'a group importing the engine',
      { path: 'src/cli/commands/agent/run.ts', text: "import { x } from '../../../waits/agent-job.js';" },
    ],
    [
      'the commander tree registering a group',
      { path: 'src/cli/program.ts', text: "import { registerAgent } from './commands/agent/index.js';" },
    ],
    [
      'the mcp command starting the MCP server',
      { path: 'src/cli/commands/mcp/index.ts', text: "import { runMcpServer } from '../../../mcp/server.js';" },
    ],
    [
      'the action running the CLI through its seam',
      { path: 'action/src/main.ts', text: "import { runCli } from '../../src/cli/run.js';" },
    ],
    [
      'the library entry re-exporting the library',
      { path: 'src/index.ts', text: "export { x } from './library/client.js';" },
    ],
  ])('allows %s', (_name, file) => {
    expect(layoutViolations([file])).toEqual([]);
  });

  it.each([
    ['an exit', '    if (gone) process.exit(0);'],
    ['a signal listener', "  process.on('SIGINT', stop);"],
    ['an exit code', '  process.exitCode = 2;'],
    ['a write to the environment', "  process.env.NO_COLOR = '1';"],
    ['a umask', '  process.umask(0o077);'],
  ])('finds %s outside the entries', (_name, line) => {
    expect(processWideViolations([{ path: 'src/download/index.ts', text: `// x\n${line}\n` }])).toEqual([
      `src/download/index.ts:2: ${line.trim()}`,
    ]);
  });

  it.each([
    ['reading the environment', '  const home = process.env.HOME;'],
    ['comparing it', "  if (process.env.CI === 'true') return;"],
    ['reading the umask', '  const mask = process.umask();'],
    ['a comment about it', '  // main.ts calls process.exit(code)'],
  ])('allows %s', (_name, line) => {
    expect(processWideViolations([{ path: 'src/download/index.ts', text: line }])).toEqual([]);
  });
});
