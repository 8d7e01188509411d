// buildProgram(deps, argv) gives only the group a run needs its leaves (a start-up saving). Whatever
// the arguments, the program must answer exactly as the whole tree does: same output, same errors,
// same suggestions, same exit.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.js';
import { buildProgram, groupToBuild } from '../src/cli/program.js';
import { captureIO } from './helpers/io.js';

async function answer(argv: string[], lazily: boolean) {
  const capture = captureIO();
  const deps = {
    io: capture.io,
    env: {},
    clock: systemClock,
    signal: new AbortController().signal,
    random: Math.random,
  };
  const program = buildProgram(deps, lazily ? argv : undefined);
  const outcome = await program.parseAsync(argv, { from: 'user' }).then(
    () => 'ran',
    (error: { code?: string; exitCode?: number }) => `${error.code} ${error.exitCode}`,
  );
  return {
    outcome,
    stdout: capture.stdout(),
    stderr: capture.stderr(),
    groups: program.commands.map((c) => [c.name(), c.commands.length]),
  };
}

describe('a program built for one group', () => {
  it.each([
    [['config']],
    [['config', 'pth']],
    [['confg', 'path']],
    [['frobnicate']],
    [['agent', 'run']],
    [['--json', 'agent', 'get']],
    [['-p', 'proj', 'export', 'status']],
    [['--profile=ci', 'deploy']],
    [['--debug', 'analytics', 'views', '--format', 'xml']],
    [['searches', 'list', '--bogus']],
    [['export', 'run', '--help']],
    [['preview', 'status', '-h']],
    [['automation']],
    [['auth', 'stat']],
    [['--bogus', 'config', 'path']],
    [[]],
  ])('answers %j exactly as the whole tree does', async (argv) => {
    const full = await answer(argv, false);
    const lazy = await answer(argv, true);
    expect(full.outcome).not.toBe('ran'); // every case stops in commander: nothing is sent
    expect({ ...lazy, groups: undefined }).toEqual({ ...full, groups: undefined });
  });

  it('builds the leaves of the named group only, and every group when unsure', async () => {
    const leaves = async (argv: string[]) =>
      Object.fromEntries((await answer(argv, true)).groups.filter(([, n]) => n !== 0));
    expect(Object.keys(await leaves(['config', 'pth']))).toEqual(['config']);
    expect(Object.keys(await leaves(['-p', 'proj', '--json', 'export', 'status']))).toEqual(['export']);
    expect(Object.keys(await leaves(['frobnicate']))).toHaveLength(10);
    expect(Object.keys(await leaves(['-qp', 'proj', 'config', 'path']))).toHaveLength(10);
  });

  it('reads the group past the global options, and gives up on anything else', () => {
    expect(groupToBuild(['config', 'path'])).toBe('config');
    expect(groupToBuild(['--json', '-q', '--no-color', '--debug', 'agent', 'run'])).toBe('agent');
    expect(groupToBuild(['-p', 'config', 'export'])).toBe('export'); // "config" is -p's value
    expect(groupToBuild(['--base-url', 'http://x', '--profile', 'ci', 'deploy'])).toBe('deploy');
    expect(groupToBuild(['--project=p', 'preview'])).toBe('preview');
    expect(groupToBuild(['-qp', 'proj', 'config'])).toBeUndefined(); // a cluster: not worth parsing here
    expect(groupToBuild(['completion', 'bash'])).toBeUndefined(); // walks the whole tree
    expect(groupToBuild(['sandbox'])).toBeUndefined();
    expect(groupToBuild(['--help'])).toBeUndefined();
    expect(groupToBuild([])).toBeUndefined();
  });
});
