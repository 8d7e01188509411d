// A value outside a choice (an argument's or an option's) gets the nearest allowed one suggested, as
// an unknown command or option does: one mechanism over the whole tree (choice-suggestion.ts).
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { systemClock } from '../src/clock.js';
import { buildProgram } from '../src/cli/program.js';
import { runInProcess } from './helpers/in-process.js';
import { captureIO } from './helpers/io.js';
import { tempDir } from './helpers/cli.js';

describe('a mistyped choice at the command line', () => {
  it.each([
    [['config', 'set', 'api_key', 'x'], 'api-key'],
    [['config', 'get', 'projectid'], 'project-id'],
    [['completion', 'bahs'], 'bash'],
    [['completion', 'bsh'], 'one of bash, zsh'],
    [['searches', 'list', '--format', 'jsn'], 'json'],
    [['export', 'host-config', 'ngnix'], 'nginx'],
  ])('%j: exit 2, the allowed choices and "(Did you mean %s?)"', async (argv, near) => {
    const home = tempDir();
    try {
      const r = await runInProcess(argv, { env: { HOME: home.path, XDG_CONFIG_HOME: `${home.path}/xdg` } });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: .* is invalid.*Allowed choices are /);
      expect(r.stderr).toMatch(new RegExp(`\\n\\(Did you mean ${near}\\?\\)\\n$`));
    } finally {
      home.cleanup();
    }
  });

  it('a value like none of them suggests nothing', async () => {
    const r = await runInProcess(['config', 'get', 'zzzzzzzzzz'], { env: {} });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Allowed choices are/);
    expect(r.stderr).not.toMatch(/Did you mean/);
  });
});

describe('every choice of every command', () => {
  const deps = {
    io: captureIO().io,
    env: {},
    clock: systemClock,
    signal: new AbortController().signal,
    random: Math.random,
  };
  const all = (command: Command): Command[] => [command, ...command.commands.flatMap(all)];
  const targets = all(buildProgram(deps)).flatMap((command) =>
    [...command.registeredArguments, ...command.options]
      .filter((target) => target.argChoices && target.argChoices.length > 0)
      .map((target) => [`${command.name()} ${'flags' in target ? target.flags : target.name()}`, target] as const),
  );

  it('the tree has choices to check', () => {
    expect(targets.length).toBeGreaterThanOrEqual(10);
  });

  it.each(targets)('%s: a choice with one letter dropped is suggested', (_name, target) => {
    for (const choice of target.argChoices!.filter((c) => c.length >= 4)) {
      const typo = choice.slice(0, -2) + choice.slice(-1);
      expect(() => target.parseArg!(typo, undefined)).toThrow(`(Did you mean ${choice}?)`);
    }
    for (const choice of target.argChoices!) expect(target.parseArg!(choice, undefined)).toBe(choice);
  });
});
