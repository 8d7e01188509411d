// --help and --version are printed from texts the build rendered (src/cli/prerendered.ts). Each must be
// exactly what commander itself prints for that command today.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { buildProgram } from '../../src/cli/program.js';
import { runCli } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';

/** What commander prints for these arguments, run in-process on the live command tree. */
async function commanderOutput(args: string[]): Promise<string> {
  const capture = captureIO();
  const program = buildProgram({
    io: capture.io,
    env: {},
    clock: systemClock,
    signal: new AbortController().signal,
    random: Math.random,
  });
  await program.parseAsync(args, { from: 'user' }).catch((error: { exitCode?: number }) => {
    if (error.exitCode !== 0) throw error;
  });
  return capture.stdout();
}

function commandPaths(): string[][] {
  const paths: string[][] = [];
  const walk = (command: Command, path: string[]) => {
    paths.push(path);
    for (const sub of command.commands) walk(sub, [...path, sub.name()]);
  };
  walk(
    buildProgram({
      io: captureIO().io,
      env: {},
      clock: systemClock,
      signal: new AbortController().signal,
      random: Math.random,
    }),
    [],
  );
  return paths;
}

describe('pre-rendered help and version', () => {
  it.each(commandPaths().map((p) => [p.join(' ') || '(root)', p] as const))(
    '`mint-admin %s --help` is what commander prints',
    async (_name, path) => {
      const expected = await commanderOutput([...path, '--help']);
      expect(expected).toMatch(/^Usage: mint-admin/);
      const fast = await runCli([...path, '--help']);
      expect(fast).toMatchObject({ code: 0, stdout: expected, stderr: '' });
    },
  );

  it.each(commandPaths().map((p) => [p.join(' ') || '(root)', p] as const))(
    '`mint-admin %s --help` has a one-line purpose and an example',
    async (_name, path) => {
      const help = await commanderOutput([...path, '--help']);
      const purpose = help.split('\n')[2] ?? '';
      expect(purpose).toMatch(/^\S.{10,}/);
      expect(help).toMatch(/\nExamples:\n {2}\$ mint-admin \S/);
    },
  );

  it.each([['-V'], ['--version'], ['-h'], ['export', 'download', '-h']])(
    '`mint-admin %s` matches too',
    async (...args) => {
      expect((await runCli(args)).stdout).toBe(await commanderOutput(args));
    },
  );
});

describe('help for people', () => {
  it.each([
    ['agent', 'run'],
    ['export', 'download'],
    ['searches', 'list'],
    ['config', 'set'],
  ])('`mint-admin help %s %s` shows the leaf, the same as --help', async (...path) => {
    const help = await runCli(['help', ...path]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: mint-admin ${path.join(' ')} `));
    expect(help.stdout).toBe((await runCli([...path, '--help'])).stdout);
  });

  it.each(
    commandPaths()
      .filter((p) => p.length === 2)
      .map((p) => [p.join(' '), p] as const),
  )('`mint-admin %s --help` lists the global options under their own heading', async (_name, path) => {
    const help = (await runCli([...path, '--help'])).stdout;
    const global = help.slice(help.indexOf('\nGlobal options:\n'));
    expect(help).toContain('\nGlobal options:\n');
    for (const flag of [
      '-p, --project <id>',
      '--base-url <url>',
      '--profile <name>',
      '--json',
      '-q, --quiet',
      '--no-color',
      '--debug',
    ])
      expect(global).toContain(`  ${flag} `);
  });

  it('wraps to 80 columns in a pipe (examples may stay long)', async () => {
    for (const path of commandPaths()) {
      const help = (await runCli([...path, '--help'])).stdout;
      for (const line of help.split('\n'))
        if (!/^\s*\$ /.test(line)) expect([...line].length, `${path.join(' ')}: ${line}`).toBeLessThanOrEqual(80);
    }
  });
});
