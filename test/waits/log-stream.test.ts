import { describe, expect, it } from 'vitest';
import { LogStream, placeAgainst } from '../../src/waits/log-stream.js';

const dots = (n: number) => Array<string>(n).fill('.');

/** The array, with every read of an element counted in `reads`. */
function counted(lines: readonly string[], reads: { count: number }): readonly string[] {
  return new Proxy(lines, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads.count++;
      return Reflect.get(target, key, receiver);
    },
  });
}

/** Feeds each poll's log in turn and collects what would be printed, poll by poll. */
function follow(polls: Array<string[] | undefined>): string[][] {
  const stream = new LogStream();
  return polls.map((logs) => stream.next(logs));
}

describe('LogStream: each new line once, in order, whatever the server does', () => {
  it.each<[string, Array<string[] | undefined>, string[][]]>([
    [
      'a log that grows',
      [[], ['a'], ['a', 'b', 'c'], ['a', 'b', 'c'], ['a', 'b', 'c', 'd']],
      [[], ['a'], ['b', 'c'], [], ['d']],
    ],
    ['no logs field at all', [undefined, ['a'], undefined, ['a', 'b']], [[], ['a'], [], ['b']]],
    [
      'a log that shrinks, then grows back past where it was',
      [['a', 'b', 'c'], ['a'], ['a', 'b', 'c', 'd']],
      [['a', 'b', 'c'], [], ['d']],
    ],
    [
      'a sliding window that drops old lines',
      [
        ['a', 'b', 'c'],
        ['b', 'c', 'd', 'e'],
        ['d', 'e', 'f'],
      ],
      [['a', 'b', 'c'], ['d', 'e'], ['f']],
    ],
    [
      'a log rewritten entirely (only lines past the count shown)',
      [
        ['a', 'b'],
        ['x', 'y', 'z'],
        ['x', 'y', 'z', 'w'],
      ],
      [['a', 'b'], ['z'], ['w']],
    ],
    ['repeated identical lines that are new', [['.'], ['.', '.'], ['.', '.', '.']], [['.'], ['.'], ['.']]],
    ['an emptied log', [['a'], [], ['a', 'b']], [['a'], [], ['b']]],
  ])('%s', (_name, polls, printed) => {
    expect(follow(polls)).toEqual(printed);
  });

  // Each of these printed lines a second time before: a rewritten log was read by position alone, and
  // a read that lay inside what was shown (not at its start) was taken for a rewrite.
  it.each<[string, Array<string[] | undefined>, string[][]]>([
    [
      'lines put in front of the log shown (a rewrite)',
      [
        ['a', 'b', 'c'],
        ['x', 'y', 'a', 'b', 'c'],
      ],
      [['a', 'b', 'c'], []],
    ],
    [
      'a lagging read of an older window, then the window again',
      [
        ['a', 'b', 'c', 'd', 'e'],
        ['b', 'c'],
        ['b', 'c', 'd', 'e', 'f'],
      ],
      [['a', 'b', 'c', 'd', 'e'], [], ['f']],
    ],
    [
      'a log that flips to another and back',
      [
        ['a', 'b'],
        ['x', 'y'],
        ['x', 'y', 'a', 'b'],
        ['x', 'y', 'a', 'b', 'c'],
      ],
      [['a', 'b'], [], [], ['c']],
    ],
    [
      'a rewrite that repeats lines already shown',
      [
        ['.', '.', 'A'],
        ['.', '.', 'B', '.', 'A', '.'],
      ],
      [
        ['.', '.', 'A'],
        ['.', '.'],
      ],
    ],
  ])('never prints a line twice: %s', (_name, polls, printed) => {
    expect(follow(polls)).toEqual(printed);
  });

  it('prints each line of a 300,000-line log that rewrites its last line once', () => {
    const lines = 300_000;
    const log = (last: string) => [...Array<string>(lines).fill('.'), last];
    const stream = new LogStream();
    const printed = [log('A'), log('B'), log('A'), log('B')].map((l) => stream.next(l).length);
    expect(printed).toEqual([lines + 1, 0, 0, 0]);
  });

  // Work counted, not timed: the quadratic search this replaced read each line of a poll once per
  // line of the log followed (seconds a poll on a long log), so a timing would only catch it on an
  // idle machine. Every line read by placeAgainst is counted through a proxy over each array.
  it.each<[string, (n: number) => [string[], string[]]]>([
    ['a log that grew by one line', (n: number) => [dots(n), [...dots(n), 'A']]],
    [
      'a log rewritten at its last line',
      (n: number) => [
        [...dots(n), 'A'],
        [...dots(n), 'B'],
      ],
    ],
    ['a poll that lags behind', (n: number) => [[...dots(n), 'A'], dots(n / 2)]],
  ])('placing a poll reads a number of lines linear in the two logs: %s', (_name, logs) => {
    for (const n of [1_000, 4_000]) {
      const [before, after] = logs(n);
      const reads = { count: 0 };
      placeAgainst(counted(before, reads), counted(after, reads));
      expect(reads.count).toBeLessThanOrEqual(6 * (before.length + after.length));
    }
  });

  it('ignores entries that are not strings instead of failing', () => {
    expect(follow([['a', 5 as unknown as string, 'b']])).toEqual([['a', 'b']]);
  });

  it('keeps the tail for a failure message', () => {
    const stream = new LogStream();
    stream.next(['1', '2', '3', '4']);
    expect(stream.tail(2)).toEqual(['3', '4']);
  });
});
