import { describe, expect, it } from 'vitest';
import { LogStream } from '../../../src/commands/deploy/log-stream.js';

/** Feeds each poll's log in turn and collects what would be printed, poll by poll. */
function follow(polls: Array<string[] | undefined>): string[][] {
  const stream = new LogStream();
  return polls.map((logs) => stream.next(logs));
}

describe('LogStream: each new line once, in order, whatever the server does', () => {
  it.each<[string, Array<string[] | undefined>, string[][]]>([
    ['a log that grows', [[], ['a'], ['a', 'b', 'c'], ['a', 'b', 'c'], ['a', 'b', 'c', 'd']], [[], ['a'], ['b', 'c'], [], ['d']]],
    ['no logs field at all', [undefined, ['a'], undefined, ['a', 'b']], [[], ['a'], [], ['b']]],
    ['a log that shrinks, then grows back past where it was', [['a', 'b', 'c'], ['a'], ['a', 'b', 'c', 'd']], [['a', 'b', 'c'], [], ['d']]],
    ['a sliding window that drops old lines', [['a', 'b', 'c'], ['b', 'c', 'd', 'e'], ['d', 'e', 'f']], [['a', 'b', 'c'], ['d', 'e'], ['f']]],
    ['a log rewritten entirely (only lines past the count shown)', [['a', 'b'], ['x', 'y', 'z'], ['x', 'y', 'z', 'w']], [['a', 'b'], ['z'], ['w']]],
    ['repeated identical lines that are new', [['.'], ['.', '.'], ['.', '.', '.']], [['.'], ['.'], ['.']]],
    ['an emptied log', [['a'], [], ['a', 'b']], [['a'], [], ['b']]],
  ])('%s', (_name, polls, printed) => {
    expect(follow(polls)).toEqual(printed);
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
