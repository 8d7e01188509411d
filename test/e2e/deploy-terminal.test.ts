// A build's wait at a real terminal (python3 pty helper): the spinner's line shows the status and the
// time passing between polls, each log line lands on a line of its own above it (never glued to the
// spinner's text), a typed Ctrl-C stops the wait with the resume hint and leaves the terminal as it was.
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { CTRL_C, noPython, PYTHON_SKIP_NOTE, runCliOnPty, screenText } from '../helpers/pty.js';

const fixture = useSandbox();

const envFor = () => ({ ...fixture.env(), CI: undefined });

describe.skipIf(noPython)(`a build wait at a terminal (python3 pty helper)${PYTHON_SKIP_NOTE}`, () => {
  it('the spinner shows the status and the elapsed time between polls; the log lines stand on their own lines', async () => {
    fixture.sandbox.faults.buildPollsToFinish = 2;
    // Polls 2.5 s apart: the elapsed time must move on the spinner's line while nothing is asked.
    const r = await runCliOnPty(['deploy', 'start', '--wait', '--interval', '2500ms'], { env: envFor(), cols: 200 });
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(0);
    const id = /^([0-9a-f]{24})\r?\n/.exec(r.output)?.[1] ?? 'none';
    // One poll answers in_progress and the next (success) comes 2.25 s later at the earliest: the
    // spinner showing in_progress with more than one elapsed time is the ticker at work.
    const shown = new Set(
      [...r.output.matchAll(new RegExp(`deploy ${id}: in_progress {2}(\\d+)s`, 'g'))].map((m) => m[1]),
    );
    expect(shown.size).toBeGreaterThanOrEqual(2);
    expect(fixture.sandbox.requests.filter((q) => q.path === `/v1/project/update-status/${id}`)).toHaveLength(2);
    const screen = screenText(r.output).split('\n');
    // Every log line is a whole line: the spinner was cleared before it was written.
    for (const line of ['Installing dependencies', 'Build succeeded', 'Deployed main']) expect(screen).toContain(line);
    expect(screen.filter((l) => l.startsWith('Cloning main at '))).toHaveLength(1);
    expect(screen.at(-2)).toMatch(new RegExp(`^✔ deploy ${id}: success after \\ds$`));
  }, 30_000);

  it('Ctrl-C typed while waiting: exit 130, the resume hint, the terminal as it was', async () => {
    fixture.sandbox.faults.buildPollsToFinish = 1_000_000;
    const r = await runCliOnPty(['deploy', 'start', '--wait', '--interval', '200ms'], {
      env: envFor(),
      steps: [{ wait: 'deploy \\w+: in_progress', send: CTRL_C }],
    });
    expect(r.stepsLeft).toBe(0);
    expect(r.code).toBe(130);
    expect(screenText(r.output).trimEnd().split('\n').at(-1)).toMatch(
      /^error: stopped waiting; deploy (\w+) keeps building on the server: resume the wait with `mint-admin deploy status \1 --wait`$/,
    );
    expect(r.modes).toEqual({ echo: true, isig: true, icanon: true });
    expect(r.modesUnchanged).toBe(true);
  }, 30_000);
});
