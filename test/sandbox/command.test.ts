import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runSandboxCommand } from '../../src/sandbox/command.js';

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

describe('runSandboxCommand', () => {
  it('prints paste-ready exports on stdout, a note on stderr, serves until aborted, then closes', async () => {
    const stdout = capture();
    const stderr = capture();
    const controller = new AbortController();
    const running = runSandboxCommand({ port: 0 }, { stdout: stdout.stream, stderr: stderr.stream }, controller.signal);
    await expect.poll(() => stdout.text()).toContain('MINTLIFY_PROJECT_ID');

    const lines = stdout.text().trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^export MINTLIFY_API_URL=http:\/\/127\.0\.0\.1:\d+$/),
      'export MINTLIFY_ADMIN_API_KEY=mint_sandbox_0123456789abcdef',
      'export MINTLIFY_PROJECT_ID=proj_sandbox',
    ]);
    expect(stderr.text()).toContain('Ctrl-C');
    const baseUrl = lines[0]!.split('=')[1]!;
    const res = await fetch(`${baseUrl}/v1/analytics/proj_sandbox/searches?limit=1`, {
      headers: { authorization: 'Bearer mint_sandbox_0123456789abcdef' },
    });
    expect(res.status).toBe(200);

    controller.abort();
    await running;
    await expect(fetch(`${baseUrl}/_sandbox/faults`)).rejects.toThrow();
  });

  it('returns at once when the signal is already aborted', async () => {
    const out = capture();
    await runSandboxCommand({}, { stdout: out.stream, stderr: out.stream }, AbortSignal.abort());
    expect(out.text()).toContain('export MINTLIFY_API_URL=');
  });

  it.each([
    ['a terminal', true, 'Paste the lines above into your shell'],
    ['a file or a pipe', false, 'Source the export lines written to stdout (e.g. `. ./sandbox.env`)'],
  ])('says how to use the lines when stdout is %s', async (_name, stdoutIsTTY, words) => {
    const out = capture();
    const err = capture();
    await runSandboxCommand({}, { stdout: out.stream, stderr: err.stream, stdoutIsTTY }, AbortSignal.abort());
    expect(err.text().split('\n')[1]).toMatch(new RegExp(`^${words.replace(/[.()`]/g, '\\$&')}`));
    expect(err.text()).not.toContain(stdoutIsTTY ? 'Source' : 'Paste');
  });
});
