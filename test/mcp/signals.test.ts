// How the server process ends: the client closing its stdin is a normal end (exit 0); SIGTERM, as a
// client or a supervisor stops it, is the CLI's "terminated" (143), with nothing on stdout but protocol;
// a message the SDK's stdio transport cannot hold ends it with exit 1 and the reason on stderr.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, cliEnv, outputOf } from '../helpers/cli.js';

function server() {
  const child = spawn(process.execPath, [CLI, 'mcp'], { env: cliEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  const started = new Promise<void>((resolve) => child.stderr.once('data', () => resolve()));
  return { child, started, output: outputOf(child) };
}

describe('the server process', () => {
  it('ends with exit 0 when the client closes its stdin', async () => {
    const { child, started, output } = server();
    await started;
    child.stdin.end();
    expect(await output).toMatchObject({ code: 0, stdout: '' });
  });

  it('ends with exit 143 on SIGTERM', async () => {
    const { child, started, output } = server();
    await started;
    child.kill('SIGTERM');
    const r = await output;
    expect(r.code).toBe(143);
    expect(r.stdout).toBe('');
  });

  it('ends with exit 1 and the reason in one line on stderr when a message is longer than the transport holds', async () => {
    const { child, started, output } = server();
    await started;
    child.stdin.on('error', () => undefined);
    // Over the SDK's 10 MiB stdio buffer, in one message.
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { x: 'x'.repeat(11 * 1024 * 1024) } })}\n`,
    );
    const r = await output;
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(/MCP server stopped: .*ReadBuffer exceeded maximum size of 10485760 bytes/);
  });
});
