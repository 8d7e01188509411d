// Help for every command, as a person's terminal of 80 or 120 columns prints it: no line wider than
// the terminal (examples, which must paste whole, and a single word longer than the line aside), and
// text wrapped once: no line broken before a word that would have fitted on it (help text that came
// pre-broken and was wrapped again leaves "...Monday to Sunday" / "of the week before").
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { systemClock } from '../src/clock.js';
import { buildProgram } from '../src/cli/program.js';
import { runCli } from '../src/cli/run.js';
import { captureIO } from './helpers/io.js';

const deps = () => ({
  io: captureIO().io,
  env: {},
  clock: systemClock,
  signal: new AbortController().signal,
  random: Math.random,
});
const paths = (command: Command, path: string[] = []): string[][] => [
  path,
  ...command.commands.flatMap((sub) => paths(sub, [...path, sub.name()])),
];
const COMMANDS = paths(buildProgram(deps()));

async function helpAt(path: string[], columns: number): Promise<string> {
  const captured = captureIO({ tty: true });
  captured.io.columns = columns;
  const code = await runCli([...path, '--help'], { ...deps(), io: captured.io });
  await new Promise((resolve) => setImmediate(resolve));
  expect(code).toBe(0);
  return captured.stdout();
}

const indentOf = (line: string) => /^ */.exec(line)![0].length;
const isExample = (line: string) => /^\s*\$ /.test(line);

/** Lines broken before a word that would have fitted: `line` is followed by a continuation of it. */
function earlyBreaks(lines: string[], width: number): string[] {
  const found: string[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const [line, next] = [lines[i]!, lines[i + 1]!];
    if (line.trim() === '' || next.trim() === '' || isExample(line) || isExample(next) || line.trimEnd().endsWith(':'))
      continue;
    // A continuation: the same paragraph at the left margin, or a hanging indent under an item's text.
    const continues = indentOf(next) === 0 ? indentOf(line) === 0 : indentOf(next) > indentOf(line);
    if (!continues) continue;
    const firstWord = next.trim().split(/\s+/)[0]!;
    if ([...`${line} ${firstWord}`].length <= width) found.push(`${line}⏎${next}`);
  }
  return found;
}

describe.each([80, 120])('help at %i columns', (width) => {
  it('covers every command', () => {
    expect(COMMANDS.length).toBeGreaterThan(40);
  });

  it.each(COMMANDS.map((path) => [path.join(' ') || '(root)', path] as const))(
    '%s: fits, wrapped once',
    async (_name, path) => {
      const lines = (await helpAt(path, width)).split('\n');
      const tooWide = lines.filter((line) => !isExample(line) && /\S\s+\S/.test(line) && [...line].length > width);
      expect(tooWide).toEqual([]);
      expect(earlyBreaks(lines, width)).toEqual([]);
    },
  );
});
