// Arrays as long as a server cares to make them: nothing spreads one into a call's arguments
// (`push(...rows)`, `Math.max(...widths)`), which overflows the stack past ~100,000 elements.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Thread } from '../../src/api/types.js';
import { threadLines } from '../../src/cli/commands/analytics/thread.js';
import { fitColumns, fitFlexible, tableWriter } from '../../src/output/table.js';
import { term } from '../helpers/searches.js';

const MANY = 200_000;

describe('large arrays', () => {
  // cli-table3 hands all of a table's rows to one call (push.apply), which overflows past ~120,000; it
  // also draws about a row a millisecond, so the crash takes minutes to reach. What is checked is the
  // bound that prevents it: no drawn table holds more than 1,000 rows, and the page reads as one list.
  it('a table page of 2,500 rows is drawn 1,000 rows at a time under one header', async () => {
    const stream = new PassThrough();
    let text = '';
    stream.setEncoding('utf8').on('data', (c: string) => (text += c));
    const writer = tableWriter(stream, { terminal: true, columns: 80, color: false, header: true });
    await writer.begin();
    await writer.writePage(Array.from({ length: 2500 }, (_, i) => term({ searchQuery: `query ${i}` })));
    const lines = text.split('\n');
    expect(lines.filter((l) => /^│ query \d+ /.test(l)).map((l) => Number(/query (\d+)/.exec(l)![1]))).toEqual(
      Array.from({ length: 2500 }, (_, i) => i),
    );
    expect(lines.filter((l) => /^│ query +│/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('┌'))).toHaveLength(3);
  });

  it('column widths over 200,000 rows', () => {
    const rows = Array.from({ length: MANY }, (_, i) => ['query', String(i), '0', '/page', '2026-01-01T00:00:00Z']);
    expect(fitColumns(rows, 80).shown.length).toBeGreaterThan(0);
    expect(fitFlexible(rows, 80, { flexible: [0] }).shown.length).toBeGreaterThan(0);
  });

  it('a thread message of 200,000 lines', () => {
    const thread = {
      threadId: 't',
      createdAt: '2026-01-01T00:00:00Z',
      messages: [{ role: 'assistant', createdAt: '2026-01-01T00:00:00Z', content: 'line\n'.repeat(MANY) }],
    } as unknown as Thread;
    expect(threadLines(thread).length).toBe(MANY + 4);
  });
});
