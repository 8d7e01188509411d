// Once through an outside client: the MCP Inspector's CLI (@modelcontextprotocol/inspector-cli) starts
// the built server itself, lists its tools and calls one, as a user checking a set-up would.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, cliEnv, outputOf } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const INSPECTOR = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/inspector-cli/build/cli.js', import.meta.url),
);
// The Inspector finds its own package.json by a path relative to its working directory ("../package.json"
// when that exists, else "../../package.json"): run it one level below this repository's root.
const CWD = fileURLToPath(new URL('..', import.meta.url));

const fx = useSandbox();

function inspector(args: string[]) {
  const env = Object.entries(fx.env()).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
  const child = spawn(process.execPath, [INSPECTOR, '--cli', ...env, process.execPath, CLI, 'mcp', ...args], {
    cwd: CWD,
    env: cliEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return outputOf(child);
}

describe('the MCP Inspector CLI', () => {
  it('lists the read-only tools and calls one', async () => {
    const [listed, called] = await Promise.all([
      inspector(['--method', 'tools/list']),
      inspector(['--method', 'tools/call', '--tool-name', 'analytics_views', '--tool-arg', 'limit=2']),
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    const names = (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(names).toContain('analytics_gaps');
    expect(names).not.toContain('agent_run');
    expect(called.code, called.stderr).toBe(0);
    const result = JSON.parse(called.stdout) as { content: Array<{ text: string }>; isError?: boolean };
    expect(result.isError).toBeUndefined();
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ count: 2, next: '2' });
    expect(listed.stdout + called.stdout).not.toContain(fx.sandbox.apiKey);
  }, 60_000);
});
