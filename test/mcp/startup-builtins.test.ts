// What the server's start loads of Node itself: node:v8 (to set a V8 flag) and fs/promises (with
// readline and streams) cost its start-up a few milliseconds each and the server needs neither before
// a tool runs (docs/performance.md, "The MCP server"). Node's own list of the built-ins a process
// loaded, written at exit by a preloaded module, after the server answered initialize and tools/list.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CLI, tempDir } from '../helpers/cli.js';

it('the MCP server answers initialize and tools/list without loading node:v8 or fs/promises', () => {
  const dir = tempDir();
  try {
    const preload = join(dir.path, 'builtins.cjs');
    const list = join(dir.path, 'builtins.txt');
    writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`);
    const messages = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    ];
    const r = spawnSync(process.execPath, ['-r', preload, CLI, 'mcp'], {
      input: messages.map((m) => `${JSON.stringify(m)}\n`).join(''),
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: dir.path, XDG_CONFIG_HOME: join(dir.path, 'config'), XDG_CACHE_HOME: join(dir.path, 'cache'), MINTLIFY_ADMIN_API_KEY: 'mint_0123456789abcdef0123456789', MINTLIFY_PROJECT_ID: 'p1', MINTLIFY_API_URL: 'http://127.0.0.1:9' },
      timeout: 20_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const answers = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number; result: { tools?: unknown[] } });
    expect(answers.find((a) => a.id === 1)?.result.tools?.length).toBeGreaterThan(5);
    const builtins = readFileSync(list, 'utf8').split('\n').filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
    expect(builtins).toContain('net'); // the recorder works: stdin is a pipe, a socket
    expect(builtins.filter((name) => ['v8', 'fs/promises', 'internal/readline/interface'].includes(name))).toEqual([]);
  } finally {
    dir.cleanup();
  }
});
