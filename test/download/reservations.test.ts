import { describe, expect, it } from 'vitest';
import { EntryReservations } from '../../src/download/reservations.js';

/** Reserves each entry and records when it starts; returns a way to finish them by name. */
function schedule(entries: Array<[name: string, paths: string[]]>) {
  const reservations = new EntryReservations();
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  for (const [name, paths] of entries) {
    reservations.reserve(paths, (done) => {
      started.push(name);
      finishers.set(name, done);
    });
  }
  return { reservations, started, finish: (name: string) => finishers.get(name)!() };
}

describe('EntryReservations', () => {
  it('runs entries in unrelated places side by side', () => {
    const { started } = schedule([['a', ['docs/a.html']], ['b', ['docs/b.html']], ['c', ['img/c.png']]]);
    expect(started).toEqual(['a', 'b', 'c']);
  });

  it.each([
    ['the same path', 'docs/a.html', 'docs/a.html'],
    ['the same path in another case', 'docs/A.html', 'docs/a.html'],
    ['a directory and a file below it', 'docs/', 'docs/a.html'],
    ['a file and a later directory above it', 'docs/sub/a.html', 'docs/sub'],
  ])('makes %s wait for the earlier entry to finish', (_name, first, second) => {
    const { started, finish } = schedule([['first', [first]], ['second', [second]]]);
    expect(started).toEqual(['first']);
    finish('first');
    expect(started).toEqual(['first', 'second']);
  });

  it('forgets every entry once it has finished, however many there were', () => {
    const { reservations, finish } = schedule(Array.from({ length: 1000 }, (_, i) => [`e${i}`, [`dir/f${i % 7}`]] as [string, string[]]));
    expect(reservations.size).toBe(1000);
    for (let i = 0; i < 1000; i++) finish(`e${i}`);
    expect(reservations.size).toBe(0);
  });

  it('ignores a second call of the same done', () => {
    const { reservations, started, finish } = schedule([['a', ['x']], ['b', ['x']], ['c', ['x']]]);
    finish('a');
    finish('a');
    expect(started).toEqual(['a', 'b']);
    expect(reservations.size).toBe(2);
  });
});
