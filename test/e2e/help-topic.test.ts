// `mint-admin help <command...>` is `<command...> --help`; a topic that is no command is a usage
// error (exit 2) naming it, not the root help and exit 0 (a script asking for help on a command that
// does not exist is wrong, and should hear so).
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/cli-errors.js';
import { runBuiltCli, runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

describe('help <topic>', () => {
  it.each([
    [
      ['help', 'nonsense'],
      'error: unknown help topic "nonsense"; `mint-admin --help` lists the commands (and `mint-admin help exit-codes`)',
    ],
    [
      ['help', 'agent', 'nonsense'],
      'error: unknown help topic "agent nonsense"; `mint-admin agent --help` lists the commands',
    ],
    [
      ['help', 'agent', 'run', 'extra'],
      'error: unknown help topic "agent run extra"; `mint-admin agent run --help` lists the commands',
    ],
  ])('%j: one line naming it, exit 2, nothing on stdout', async (args, line) => {
    const r = await runCli(args);
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
  });

  it.each([[['help']], [['help', 'agent']], [['help', 'agent', 'run']], [['help', 'auth', 'status']]])(
    '%j prints the same help as --help, exit 0',
    async (args) => {
      const asHelp = await runCli([...args.slice(1), '--help']);
      const r = await runCli(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(asHelp.stdout);
      expect(r.stdout).toMatch(/^Usage: mint-admin/);
    },
  );

  it('exit-codes lists every exit code the CLI ends with, one line each, exit 0 (in-process and as the built CLI)', async () => {
    for (const r of [
      await runInProcess(['help', 'exit-codes'], { env: {} }),
      await runBuiltCli(['help', 'exit-codes']),
    ]) {
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
      const listed = [...r.stdout.matchAll(/^ {2}(\d+) +\S/gm)].map((m) => Number(m[1]));
      expect(listed).toEqual(Object.values(EXIT_CODES).sort((a, b) => a - b));
      expect(r.stdout).toMatch(/^ {2}4 +a job or build ended in failure/m);
      for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    }
  });
});
