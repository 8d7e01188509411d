import { describe, expect, it } from 'vitest';
import { createReporter } from '../src/cli/io.js';
import { FakeClock } from './helpers/clock.js';
import { captureIO } from './helpers/io.js';

const SGR = /\x1b\[[0-9;]*m/; // a colour or style escape

describe('reporter', () => {
  it('with colour off, a spinner on a terminal ends with plain symbols and no colour codes', async () => {
    const capture = captureIO({ tty: true });
    const reporter = createReporter(capture.io, { json: false, quiet: false, color: false }, new FakeClock());
    expect(reporter.live).toBe(true);
    const ok = await reporter.activity('working');
    ok.succeed('done');
    const bad = await reporter.activity('working again');
    bad.fail('broke');
    expect(capture.stderr()).toContain('✔ done');
    expect(capture.stderr()).toContain('✖ broke');
    expect(capture.stderr()).not.toMatch(SGR);
  });

  it('in plain mode prints a status change at once and other updates at most every 5 s', async () => {
    const capture = captureIO();
    const clock = new FakeClock();
    const reporter = createReporter(capture.io, { json: false, quiet: false, color: true }, clock);
    const a = await reporter.activity('start');
    a.update('1%');
    a.update('queued -> running', { milestone: true });
    clock.time += 5000;
    a.update('50%');
    a.succeed('done');
    expect(capture.stderr()).toBe('start\nqueued -> running\n50%\ndone\n');
  });

  it('with --quiet says nothing but warnings', async () => {
    const capture = captureIO({ tty: true });
    const reporter = createReporter(capture.io, { json: false, quiet: true, color: true }, new FakeClock());
    (await reporter.activity('x')).succeed('y');
    reporter.info('hint');
    reporter.warn('careful');
    expect(capture.stderr()).toBe('warning: careful\n');
  });
});
