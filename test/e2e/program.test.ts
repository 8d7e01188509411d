// The built binary itself: its pre-rendered --version and --help, and the exit codes it ends with.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('mint-admin', () => {
  it.each([['--version'], ['-V']])('%s prints the package version and exits 0', async (flag) => {
    const r = await runCli([flag], { subprocess: true });
    expect(r).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('--help lists the commands, the environment variables and the exit codes', async () => {
    const r = await runCli(['--help'], { subprocess: true });
    expect(r.code).toBe(0);
    for (const text of [
      'config',
      'MINTLIFY_ADMIN_API_KEY',
      'MINTLIFY_PROJECT_ID',
      'MINTLIFY_API_URL',
      'MINT_ADMIN_PROFILE',
      'NO_COLOR',
      'Exit codes:',
      '130  interrupted',
    ]) {
      expect(r.stdout).toContain(text);
    }
  });

  it.each([
    ['an unknown option', ['--frobnicate'], "error: unknown option '--frobnicate'"],
    ['an unknown command', ['frobnicate'], "error: unknown command 'frobnicate'"],
    ['a missing argument', ['config', 'get'], "error: missing required argument 'key'"],
  ])('%s is a usage error: exit 2', async (_n, args, line) => {
    const r = await runCli(args, { subprocess: true });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(line);
    expect(r.stdout).toBe('');
  });
});

describe('a closed stdout', () => {
  it('ends quietly with exit 0 when the reader goes away (| head)', async () => {
    const { spawnSync } = await import('node:child_process');
    const { CLI } = await import('../helpers/cli.js');
    const r = spawnSync(
      'bash',
      ['-c', `"${process.execPath}" "${CLI}" --help | head -c 5; echo " status=\${PIPESTATUS[0]}"`],
      { encoding: 'utf8' },
    );
    expect(r.stdout).toBe('Usage status=0\n');
    expect(r.stderr).toBe('');
  });
});
