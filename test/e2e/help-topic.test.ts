// `mint-admin help <command...>` is `<command...> --help`; a topic that is no command is a usage
// error (exit 2) naming it, not the root help and exit 0 (a script asking for help on a command that
// does not exist is wrong, and should hear so).
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('help <topic>', () => {
  it.each([
    [['help', 'nonsense'], 'error: unknown help topic "nonsense"; `mint-admin --help` lists the commands'],
    [['help', 'agent', 'nonsense'], 'error: unknown help topic "agent nonsense"; `mint-admin agent --help` lists the commands'],
    [['help', 'agent', 'run', 'extra'], 'error: unknown help topic "agent run extra"; `mint-admin agent run --help` lists the commands'],
  ])('%j: one line naming it, exit 2, nothing on stdout', async (args, line) => {
    const r = await runCli(args);
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
  });

  it.each([[['help']], [['help', 'agent']], [['help', 'agent', 'run']], [['help', 'auth', 'status']]])('%j prints the same help as --help, exit 0', async (args) => {
    const asHelp = await runCli([...args.slice(1), '--help']);
    const r = await runCli(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(asHelp.stdout);
    expect(r.stdout).toMatch(/^Usage: mint-admin/);
  });
});
