// The Inspector's CLI (a devDependency) as docs/mcp.md says to run it in a clone: from docs/, since
// version 1.0.3 finds its own package.json relative to the working directory and stops elsewhere.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliEnv, tempDir } from '../helpers/cli.js';

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));

describe('docs/mcp.md: the Inspector CLI line for a clone', () => {
  it('lists the tools of the built server', async () => {
    const home = tempDir();
    // npm_config_yes=false: npx runs the installed devDependency or fails; it never downloads one.
    const { stdout } = await promisify(execFile)(
      'npx',
      ['mcp-inspector-cli', '--cli', 'node', '../dist/cli/main.cjs', 'mcp', '--method', 'tools/list'],
      {
        cwd: DOCS,
        env: cliEnv({
          HOME: home.path,
          XDG_CONFIG_HOME: `${home.path}/xdg`,
          npm_config_yes: 'false',
        }) as NodeJS.ProcessEnv,
      },
    ).finally(() => home.cleanup());
    const { tools } = JSON.parse(stdout) as { tools: Array<{ name: string }> };
    expect(tools.map((tool) => tool.name)).toContain('agent_get');
  });
});
