// Every workflow in docs/ci.md is meant to be copied and run: each YAML block parses, each use of the
// mint-admin action passes only inputs action.yml declares (the key from a secret), and its `command`
// parses into a real mint-admin command with flags that command has, through the program's own parser.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../action/src/command-line.js';
import { buildProgram } from '../../src/cli/program.js';
import { systemClock } from '../../src/clock.js';
import { runInProcess } from '../helpers/in-process.js';
import { captureIO } from '../helpers/io.js';
import { parseYaml } from '../helpers/yaml.js';

const root = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/ci.md', root), 'utf8');
const readme = readFileSync(new URL('README.md', root), 'utf8');
const actionInputs = Object.keys(
  (parseYaml(readFileSync(new URL('action.yml', root), 'utf8')) as { inputs: Record<string, unknown> }).inputs,
);

type Step = Record<string, any>;

/** Every ```yaml block, parsed: a workflow, or a lone list of steps. */
function yamlBlocks(markdown: string): Array<{ line: number; value: any }> {
  const blocks: Array<{ line: number; value: any }> = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```ya?ml\s*$/.test(lines[i]!)) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    blocks.push({ line: i + 1, value: parseYaml(lines.slice(i + 1, end).join('\n')) });
    i = end;
  }
  return blocks;
}

function stepsOf(value: any): Step[] {
  if (Array.isArray(value)) return value as Step[];
  return Object.values<{ steps?: Step[] }>(value.jobs ?? {}).flatMap((job) => job.steps ?? []);
}

const isThisAction = (step: Step) =>
  typeof step.uses === 'string' && (step.uses === './' || /^[\w.-]+\/mint-admin@/.test(step.uses));

/** `${{ expr }}` becomes a word a runner could put there (a branch name, a domain, a number). */
const sample = (command: string) => command.replace(/\$\{\{[^}]*\}\}/g, 'sample-7');

/** The leaf command argv names, and the flags it and its ancestors accept; throws on anything else. */
function resolveCommand(argv: string[]): string {
  const program = buildProgram(
    { io: captureIO().io, env: {}, clock: systemClock, signal: new AbortController().signal, random: Math.random },
    argv,
  );
  let command: Command = program;
  const path: string[] = [];
  const flagOf = (token: string) => {
    for (let c: Command | null = command; c; c = c.parent) {
      const option = c.options.find((o) => o.long === token || o.short === token);
      if (option) return option;
    }
    throw new Error(`${path.join(' ') || 'mint-admin'} has no option ${token}`);
  };
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token.startsWith('-')) {
      const [name, inline] = token.split('=', 2);
      const option = flagOf(name!);
      if ((option.required || option.optional) && inline === undefined) i++;
      continue;
    }
    const sub = command.commands.find((c) => c.name() === token || c.aliases().includes(token));
    if (sub) {
      command = sub;
      path.push(token);
    } else if (command.commands.length > 0) {
      throw new Error(`${path.join(' ') || 'mint-admin'} has no command ${token}`);
    }
  }
  if (command.commands.length > 0 || path.length === 0) throw new Error(`\`${argv.join(' ')}\` names no leaf command`);
  return path.join(' ');
}

const uses = [
  ...yamlBlocks(doc).flatMap(({ line, value }) =>
    stepsOf(value)
      .filter(isThisAction)
      .map((step) => ({ line: `docs/ci.md:${line}`, step })),
  ),
  ...yamlBlocks(readme).flatMap(({ line, value }) =>
    stepsOf(value)
      .filter(isThisAction)
      .map((step) => ({ line: `README.md:${line}`, step })),
  ),
];

describe('docs/ci.md and README.md', () => {
  it('has the recipes: previews, the /preview comment, the agent, a deploy, a nightly export with verify', () => {
    const commands = uses.map(({ step }) => String(step.with?.command));
    expect(uses.length).toBeGreaterThanOrEqual(7);
    for (const leaf of [/^preview start /, /^agent run /, /^deploy start /, /^export run .*--verify/])
      expect(commands.some((c) => leaf.test(c))).toBe(true);
    expect(yamlBlocks(doc).some(({ value }) => value?.on?.issue_comment)).toBe(true);
  });

  it.each(uses.map(({ line, step }) => [`${line}: ${step.with?.command}`, step] as const))(
    '%s: only declared inputs, the key from a secret, a real command',
    async (_name, step) => {
      const given = Object.keys(step.with ?? {});
      expect(given.filter((name) => !actionInputs.includes(name))).toEqual([]);
      expect(step.with['api-key']).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
      const argv = parseCommandLine(sample(step.with.command));
      const leaf = resolveCommand(argv);
      const help = await runInProcess([...argv, '--help'], { env: {} });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: mint-admin ${leaf}`);
    },
  );

  it('the checker refuses a command or flag the program lacks', () => {
    expect(() => resolveCommand(['preview', 'begin', 'x'])).toThrow(/preview has no command begin/);
    expect(() => resolveCommand(['deploy', 'start', '--wiat'])).toThrow(/deploy start has no option --wiat/);
    expect(() => resolveCommand(['preview'])).toThrow(/names no leaf/);
  });

  it('no workflow triggered by pull_request_target or issue_comment checks out the pull request', () => {
    for (const { line, value } of yamlBlocks(doc)) {
      if (!value?.on?.pull_request_target && !value?.on?.issue_comment) continue;
      for (const step of stepsOf(value)) {
        const ref = String(step.with?.ref ?? '') + String(step.with?.repository ?? '');
        expect(ref, `docs/ci.md:${line}`).not.toMatch(/pull_request\.head|refs\/pull|head_ref|head\.sha/);
      }
    }
  });
});
