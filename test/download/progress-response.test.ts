import { describe, expect, it } from 'vitest';
import type { Activity } from '../../src/reporter.js';
import {
  DownloadProgress,
  formatBytes,
  liveProgressText,
  plainProgressText,
  progressBar,
} from '../../src/output/progress.js';
import { parseContentRange, planBody } from '../../src/download/response.js';
import { FakeClock } from '../helpers/clock.js';

describe('progress text', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1.0 KB'],
    [12_345_678, '12.3 MB'],
    [1_500_000_000, '1.5 GB'],
  ])('formats %i bytes as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it.each([
    [0, '[----------]'],
    [0.5, '[#####-----]'],
    [1.7, '[##########]'],
  ])('draws a bar for %d', (fraction, bar) => {
    expect(progressBar(fraction, 10)).toBe(bar);
  });

  it.each([
    [
      'halfway with speed and ETA',
      { bytes: 12_300_000, total: 24_600_000, elapsedMs: 2000 },
      'Downloading [##########----------] 12.3 MB / 24.6 MB  6.2 MB/s  ETA 2s',
      'Downloading 12.3 MB / 24.6 MB (50%)  6.2 MB/s  ETA 2s',
    ],
    [
      'too early for a speed',
      { bytes: 1000, total: 4000, elapsedMs: 100 },
      'Downloading [#####---------------] 1.0 KB / 4.0 KB',
      'Downloading 1.0 KB / 4.0 KB (25%)',
    ],
    [
      'without a known total',
      { bytes: 5_000_000, total: undefined, elapsedMs: 1000 },
      'Downloading 5.0 MB  5.0 MB/s',
      'Downloading 5.0 MB  5.0 MB/s',
    ],
  ])('%s', (_name, figures, live, plain) => {
    expect(liveProgressText(figures)).toBe(live);
    expect(plainProgressText(figures)).toBe(plain);
  });

  it('redraws a terminal at most every 100 ms but always shows the last byte', () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const activity: Activity = { update: (t) => lines.push(t), succeed() {}, fail() {}, stop() {} };
    const progress = new DownloadProgress(activity, clock, true);
    progress.update(100, 1000);
    clock.time += 50;
    progress.update(200, 1000);
    clock.time += 50;
    progress.update(300, 1000);
    progress.update(1000, 1000);
    expect(lines).toEqual([
      'Downloading [##------------------] 100 B / 1.0 KB',
      'Downloading [######--------------] 300 B / 1.0 KB',
      'Downloading [####################] 1.0 KB / 1.0 KB',
    ]);
  });

  it('computes a plain line at most once a second', () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const activity: Activity = { update: (t) => lines.push(t), succeed() {}, fail() {}, stop() {} };
    const progress = new DownloadProgress(activity, clock, false);
    progress.update(100, 1000);
    clock.time += 500;
    progress.update(200, 1000);
    clock.time += 500;
    progress.update(300, 1000);
    expect(lines).toEqual(['Downloading 100 B / 1.0 KB (10%)', 'Downloading 300 B / 1.0 KB (30%)  300 B/s  ETA 2s']);
  });
});

describe('reading a storage answer', () => {
  it.each([
    ['bytes 100-199/1000', { start: 100, end: 199, total: 1000 }],
    ['bytes 0-9/*', { start: 0, end: 9, total: undefined }],
    ['bytes */1000', undefined],
    [undefined, undefined],
  ])('parses Content-Range %s', (text, parsed) => {
    expect(parseContentRange(text)).toEqual(parsed);
  });

  it.each([
    ['a full 200', 200, { 'content-length': '1000' }, 0, 1000, { kind: 'body', start: 0, total: 1000 }],
    [
      'a 200 to a resume (Range ignored): start over with this body',
      200,
      { 'content-length': '1000' },
      400,
      1000,
      { kind: 'body', start: 0, total: 1000 },
    ],
    [
      'a 200 shorter than the bundle: take it, resume after',
      200,
      { 'content-length': '600' },
      0,
      1000,
      { kind: 'body', start: 0, total: 1000 },
    ],
    [
      'a 200 longer than the bundle',
      200,
      { 'content-length': '1200' },
      0,
      1000,
      { kind: 'restart', reason: 'the storage announced 1200 bytes but the bundle is 1000 bytes' },
    ],
    [
      'a 200 when the API gave no size',
      200,
      { 'content-length': '1200' },
      0,
      undefined,
      { kind: 'body', start: 0, total: 1200 },
    ],
    [
      'a matching 206',
      206,
      { 'content-range': 'bytes 400-999/1000' },
      400,
      1000,
      { kind: 'body', start: 400, total: 1000 },
    ],
    [
      'a 206 at another offset',
      206,
      { 'content-range': 'bytes 0-999/1000' },
      400,
      1000,
      { kind: 'restart', reason: 'the storage answered a different range (bytes 0-999/1000) than bytes=400-' },
    ],
    [
      'a 206 of another object size',
      206,
      { 'content-range': 'bytes 400-1199/1200' },
      400,
      1000,
      { kind: 'restart', reason: 'the storage holds 1200 bytes but the bundle is 1000 bytes' },
    ],
    ['a 416 when every byte is here', 416, { 'content-range': 'bytes */1000' }, 1000, 1000, { kind: 'complete' }],
    [
      'a 416 otherwise',
      416,
      { 'content-range': 'bytes */800' },
      900,
      1000,
      { kind: 'restart', reason: 'the storage refused the resume range (416)' },
    ],
  ])('%s', (_name, status, headers, have, expected, plan) => {
    expect(planBody(status, headers, have, expected)).toEqual(plan);
  });
});
