// What a person at a real terminal gets: Ctrl-C typed as a key (not `kill -INT`) while a spinner or
// progress bar is drawn stops the command as the signal would, and the terminal is left as it was
// (echo and signals on, cursor shown). Every case runs with and without CI=true in the environment,
// because some libraries change what they draw when CI is set.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { CTRL_C, noPython, PYTHON_SKIP_NOTE, runCliOnPty, screenText, type PtyResult } from '../helpers/pty.js';

const t = useSandbox({ searchTermCount: 450 }, { homePerTest: true });

const env = (ci: boolean) => ({ ...t.env(), CI: ci ? 'true' : undefined });

/** The terminal as a person left it: echo and signals on, line editing on, the cursor shown. */
function expectTerminalRestored(r: PtyResult): void {
  expect(r.modes).toEqual({ echo: true, isig: true, icanon: true });
  expect(r.modesUnchanged).toBe(true);
  const hidden = r.output.lastIndexOf('\x1b[?25l');
  if (hidden >= 0) expect(r.output.indexOf('\x1b[?25h', hidden)).toBeGreaterThan(hidden);
}

const lastLine = (r: PtyResult) => screenText(r.output).trimEnd().split('\n').at(-1);

describe.skipIf(noPython)(`Ctrl-C typed at a terminal (python3 pty helper)${PYTHON_SKIP_NOTE}`, () => {
  describe.each([
    ['without CI', false],
    ['with CI=true', true],
  ])('%s', (_name, ci) => {
    it('agent run --wait: exit 130 with the resume hint', async () => {
      t.sandbox.faults.agentPollsToFinish = 1_000_000;
      const r = await runCliOnPty(['agent', 'run', 'Add a changelog', '--wait', '--interval', '200ms'], {
        env: env(ci),
        steps: [{ wait: 'agent job \\w+: active', send: CTRL_C }],
      });
      expect(r.stepsLeft).toBe(0);
      expect(r.timedOut).toBe(false);
      expect(r.code).toBe(130);
      expect(lastLine(r)).toMatch(
        /^error: stopped waiting; agent job \w+ keeps running on the server: resume the wait with `mint-admin agent get \w+ --wait`$/,
      );
      expectTerminalRestored(r);
    });

    it('export run while the bar is drawn: exit 130, nothing created', async () => {
      t.sandbox.faults.exportPollsToFinish = 1_000_000;
      const out = join(t.home, 'site');
      const r = await runCliOnPty(['export', 'run', 'docs.example.com', '-o', out, '--interval', '200ms'], {
        env: env(ci),
        steps: [{ wait: 'Exporting \\[', send: CTRL_C }],
      });
      expect(r.timedOut).toBe(false);
      expect(r.code).toBe(130);
      expect(lastLine(r)).toMatch(
        /^error: interrupted: stopped waiting, but export se_\w+ keeps running on the server; resume with `mint-admin export download se_\w+ -o \S+ --wait`$/,
      );
      expect(existsSync(out)).toBe(false);
      expectTerminalRestored(r);
    });

    it('export download mid-transfer: exit 130, no work directory left', async () => {
      const start = await fetch(`${t.sandbox.baseUrl}/v1/static-export/jobs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.sandbox.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ domain: 'docs.example.com' }),
      });
      const { jobId } = (await start.json()) as { jobId: string };
      for (let i = 0; i < 10; i++)
        await fetch(`${t.sandbox.baseUrl}/v1/static-export/jobs/${jobId}`, {
          headers: { authorization: `Bearer ${t.sandbox.apiKey}` },
        });
      t.sandbox.faults.throttleBytesPerSecond = 5_000;
      const work = join(t.home, 'work');
      const r = await runCliOnPty(['export', 'download', jobId, '-o', join(work, 'site')], {
        env: env(ci),
        steps: [{ wait: 'Downloading', send: CTRL_C }],
      });
      expect(r.timedOut).toBe(false);
      expect(r.code).toBe(130);
      expect(lastLine(r)).toMatch(/^error: interrupted: the partial download was removed/);
      expect(existsSync(work) ? readdirSync(work) : []).toEqual([]);
      expectTerminalRestored(r);
    });

    it('searches list --all -o: exit 130, whole rows, the resume command', async () => {
      t.sandbox.faults.inject({ route: 'searches.list', delayMs: 1500, times: 100 });
      const file = join(t.home, 'searches.csv');
      const r = await runCliOnPty(['searches', 'list', '--all', '--format', 'csv', '-o', file], {
        env: env(ci),
        steps: [{ wait: 'fetching search terms: 100 so far', send: CTRL_C }],
      });
      expect(r.timedOut).toBe(false);
      expect(r.code).toBe(130);
      expect(screenText(r.output)).toContain('To carry on from the next term');
      expectTerminalRestored(r);
    });
  });

  it.each([
    ['without CI', false],
    ['with CI=true', true],
  ])('the hidden api-key prompt %s: exit 130, nothing saved, echo back on', async (_name, ci) => {
    const r = await runCliOnPty(['config', 'set', 'api-key'], {
      env: { ...env(ci), MINTLIFY_ADMIN_API_KEY: undefined },
      steps: [{ wait: 'input hidden\\): ', send: `mint_abc${CTRL_C}`, echoOff: true }],
    });
    expect(r.code).toBe(130);
    expect(screenText(r.output)).toBe('Admin API key (input hidden): \nerror: cancelled; nothing was saved\n');
    expect(existsSync(join(t.home, 'xdg', 'mint-admin'))).toBe(false);
    expectTerminalRestored(r);
  });

  it('the hidden api-key prompt: Enter with nothing typed says "no key entered" (exit 2)', async () => {
    const r = await runCliOnPty(['config', 'set', 'api-key'], {
      env: { ...env(false), MINTLIFY_ADMIN_API_KEY: undefined },
      steps: [{ wait: 'input hidden\\): ', send: '\r', echoOff: true }],
    });
    expect(r.code).toBe(2);
    expect(screenText(r.output)).toBe('Admin API key (input hidden): \nerror: no key entered; nothing was saved\n');
    expectTerminalRestored(r);
  });
});

describe.skipIf(noPython)(`a drawn table on a real terminal${PYTHON_SKIP_NOTE}`, () => {
  it.each([40, 60, 80, 132])('searches list fits %i columns: no line wider, none wrapped', async (cols) => {
    const r = await runCliOnPty(['searches', 'list', '--limit', '20'], { env: env(false), cols });
    expect(r.code).toBe(0);
    const lines = r.output
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split('\r\n')
      .filter(Boolean);
    const table = lines.filter((l) => /^[┌│├└]/.test(l));
    expect(table.length).toBeGreaterThan(20);
    // Terminal cells: East Asian wide characters and emoji take two.
    const cells = (line: string) =>
      [...line].reduce(
        (n, ch) =>
          n +
          (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]|\p{Extended_Pictographic}/u.test(ch)
            ? 2
            : 1),
        0,
      );
    // Every table line is as wide as the others and within the terminal: a wrapped row would leave a short one.
    const widths = new Set(table.map(cells));
    expect(widths.size, table.join('\n')).toBe(1);
    expect([...widths][0]).toBeLessThanOrEqual(cols);
  });
});

describe.skipIf(noPython)(`help on a real terminal${PYTHON_SKIP_NOTE}`, () => {
  const words = (text: string) => text.replace(/\r/g, '').split(/\s+/).filter(Boolean);
  it.each([40, 60, 100])('wraps to %i columns without splitting a word (examples may stay long)', async (cols) => {
    const r = await runCliOnPty(['searches', 'list', '--help'], { cols });
    expect(r.code).toBe(0);
    const lines = r.output.replace(/\r/g, '').split('\n');
    // A single word longer than the line (a CSV header) cannot break without splitting it.
    for (const line of lines)
      if (!/^\s*\$ /.test(line) && /\S\s+\S/.test(line)) expect([...line].length, line).toBeLessThanOrEqual(cols);
    const piped = await runCli(['searches', 'list', '--help']);
    // The same words in the same order as the 80-column text a pipe gets: only the line breaks moved.
    expect(words(r.output)).toEqual(words(piped.stdout));
  });
});
