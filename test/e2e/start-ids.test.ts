// Every command that starts something prints the id it started, alone, when stdout is not a terminal
// (issue 28: `export start` and `agent run` printed `<id>  <status>`, so `id=$(...)` held both). The
// status goes to stderr. Through the built CLI in bash, against the sandbox, as a script captures it.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, cliEnv, outputOf } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { noPython, runCliOnPty, screenText } from '../helpers/pty.js';

const fixture = useSandbox();

/** `id=$(mint-admin ARGS)` in bash, as a script does it: the captured value and what went to stderr. */
async function captured(args: string[]): Promise<{ code: number | null; id: string; stderr: string }> {
  const script = `mint-admin() { "${process.execPath}" "${CLI}" "$@"; }\nid=$(mint-admin "$@")\nstatus=$?\nprintf '%s' "$id"\nexit $status`;
  const r = await outputOf(spawn('bash', ['-c', script, 'bash', ...args], { env: cliEnv(fixture.env()) }));
  return { code: r.code, id: r.stdout, stderr: r.stderr };
}

/** The id the API gives for what `status` finds by `id`, asked with --json. */
async function idKnownAs(statusArgs: (id: string) => string[], field: string, id: string): Promise<unknown> {
  const r = await fixture.cli([...statusArgs(id), '--json']);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as Record<string, unknown>)[field];
}

async function agentJob(): Promise<string> {
  const r = await fixture.cli(['agent', 'run', 'Add a quick start', '--json']);
  return (JSON.parse(r.stdout) as { id: string }).id;
}

describe('id=$(mint-admin ... start) holds the id alone', () => {
  it.each<[string, () => Promise<string[]>, (id: string) => string[], string, RegExp]>([
    [
      'export start',
      async () => ['export', 'start', 'docs.example.com'],
      (id) => ['export', 'status', id],
      'jobId',
      /^export \S+: queued\n/m,
    ],
    [
      'export start --wait',
      async () => ['export', 'start', 'docs.example.com', '--wait', '--interval', '100ms'],
      (id) => ['export', 'status', id],
      'jobId',
      /^export \S+: completed  100%  \d+ pages\n/m,
    ],
    [
      'agent run',
      async () => ['agent', 'run', 'Add a changelog'],
      (id) => ['agent', 'get', id],
      'id',
      /^agent job \w+: active\n/m,
    ],
    [
      'agent message',
      async () => ['agent', 'message', await agentJob(), 'Also add an example'],
      (id) => ['agent', 'get', id],
      'id',
      /^agent job \w+: active\n/m,
    ],
    ['deploy start', async () => ['deploy', 'start'], (id) => ['deploy', 'status', id], '_id', /deployment queued/],
    [
      'preview start',
      async () => ['preview', 'start', 'feat/x'],
      (id) => ['preview', 'status', id],
      '_id',
      /preview of feat\/x/,
    ],
  ])('%s: the id on stdout, the status on stderr', async (_name, args, status, field, stderr) => {
    const r = await captured(await args());
    expect(r.code).toBe(0);
    expect(r.id).toMatch(/^\w+$/);
    expect(await idKnownAs(status, field, r.id)).toBe(r.id);
    expect(r.stderr).toMatch(stderr);
  });

  it('automation run: the run id alone', async () => {
    const r = await captured(['automation', 'run', 'wf_scheduled']);
    expect(r.code).toBe(0);
    expect(r.id).toMatch(/^wfi_[0-9a-f]{16}$/);
  });

  it('autopilot run: the run id alone', async () => {
    const r = await captured(['autopilot', 'run', 'Update the changelog']);
    expect(r.code).toBe(0);
    expect(r.id).toMatch(/^apr_[0-9a-f]{16}$/);
    expect(r.stderr).toBe(`autopilot: run ${r.id} started\n`);
  });

  it('--quiet: still the id alone, and nothing on stderr', async () => {
    const r = await captured(['export', 'start', 'docs.example.com', '--quiet']);
    expect(r.code).toBe(0);
    expect(await idKnownAs((id) => ['export', 'status', id], 'jobId', r.id)).toBe(r.id);
    expect(r.stderr).toBe('');
  });
});

describe.skipIf(noPython)('at a terminal (python3 pty helper)', () => {
  it.each([
    ['export start', ['export', 'start', 'docs.example.com'], /^se_\w+ {2}queued$/m],
    ['agent run', ['agent', 'run', 'Add a changelog'], /^\w+ {2}active$/m],
  ])('%s keeps the readable line: the id and its status', async (_name, args, line) => {
    const r = await runCliOnPty(args, { env: fixture.env() });
    expect(r.code).toBe(0);
    expect(screenText(r.output)).toMatch(line);
  });
});
