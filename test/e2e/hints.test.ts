// Resume hints repeat every flag that shaped the command, so pasting one carries on exactly; a
// failure after the export completed points at downloading it, never at starting a new export.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { homePerTest: true });

const cli = (args: string[]) =>
  t.cli([...args, '--base-url', t.sandbox.baseUrl], {
    env: { MINTLIFY_API_URL: undefined, MINTLIFY_PROJECT_ID: undefined },
  });
const lastLine = (stderr: string) => stderr.trimEnd().split('\n').at(-1)!;
const idIn = (stderr: string) => /export (se_\w+)/.exec(stderr)?.[1] ?? 'no id';

describe('export run hints', () => {
  it('a timed-out export run suggests a download with -o, --force, --archive and --base-url', async () => {
    t.sandbox.faults.exportPollsToFinish = 1_000_000;
    const out = join(t.home, 'my site');
    const archive = join(t.home, 'site.tar.gz');
    const r = await cli([
      'export',
      'run',
      'docs.example.com',
      '-o',
      out,
      '--force',
      '--archive',
      archive,
      '--timeout',
      '500ms',
      '--interval',
      '100ms',
    ]);
    expect(r.code).toBe(5);
    const id = idIn(r.stderr);
    expect(lastLine(r.stderr)).toMatch(/keeps running on the server: resume with `(.*)`$/);
    expect(/resume with `(.*)`$/.exec(lastLine(r.stderr))![1]).toBe(
      `mint-admin export download ${id} -o '${out}' --force --archive ${archive} --wait --base-url ${t.sandbox.baseUrl}`,
    );
  });

  it('a download that fails after the export completed points at export download, not a new export', async () => {
    t.sandbox.faults.inject({ route: 'storage.get', status: 400, times: 10 });
    const out = join(t.home, 'site');
    const r = await cli(['export', 'run', 'docs.example.com', '-o', out, '--interval', '100ms']);
    expect(r.code).toBe(1);
    const id = idIn(r.stderr);
    expect(lastLine(r.stderr)).toMatch(
      new RegExp(
        `^error: the bundle storage refused the download \\(400 InjectedFault\\) of .*; export ${id} is complete and stays on the server: download it with \`mint-admin export download ${id} -o ${out} --base-url ${t.sandbox.baseUrl.replace(/[.]/g, '\\.')}\`$`,
      ),
    );
    expect(lastLine(r.stderr)).not.toContain('run the command again');
    expect(existsSync(out)).toBe(false);
  });
});
