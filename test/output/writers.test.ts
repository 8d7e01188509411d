import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { SearchTerm } from '../../src/api/types.js';
import { csvWriter } from '../../src/output/csv.js';
import { jsonWriter } from '../../src/output/json.js';
import { ndjsonWriter } from '../../src/output/ndjson.js';
import { tableWriter, fitColumns, fitFlexible } from '../../src/output/table.js';
import { escapeCell, formatCtr } from '../../src/output/cells.js';
import { writeChunk, type SearchesWriter } from '../../src/output/writer.js';
import { expectedCsv, expectedJson, expectedNdjson, expectedTsv, term } from '../helpers/searches.js';

const TRICKY: SearchTerm[] = [
  term({ searchQuery: 'comma, separated' }),
  term({ searchQuery: 'say "hello"', topClickedPage: null, ctr: 0 }),
  term({ searchQuery: 'multi\nline', ctr: 1 }),
  term({ searchQuery: 'windows\r\nline', ctr: 0.3333 }),
  term({ searchQuery: '=SUM(1,2)' }),
  term({ searchQuery: '+cmd' }),
  term({ searchQuery: '-1+2' }),
  term({ searchQuery: '@import' }),
  term({ searchQuery: '\tleading tab' }),
  term({ searchQuery: '\rleading cr' }),
  term({ searchQuery: 'back\\slash' }),
  term({ searchQuery: 'esc \x1b[31mred' }),
  term({ searchQuery: '日本語 検索 deploy 🚀', topClickedPage: '=cmd|calc' }),
];

function memory() {
  const stream = new PassThrough();
  let text = '';
  stream.setEncoding('utf8').on('data', (c: string) => (text += c));
  return { stream, text: () => text };
}

/** Feeds `pages` through a writer the way the list loop does. */
async function run(writer: SearchesWriter, pages: SearchTerm[][], nextCursor: string | null = null): Promise<void> {
  await writer.begin();
  for (const page of pages) await writer.writePage(page);
  await writer.end({ totalSearches: 1234, nextCursor });
}

const splits: Array<[string, SearchTerm[][]]> = [
  ['no terms at all', [[]]],
  ['one page', [TRICKY]],
  ['three pages, one empty', [TRICKY.slice(0, 5), [], TRICKY.slice(5)]],
];

describe('json writer', () => {
  it.each(splits)('streams %s as exactly JSON.stringify(document, null, 2)', async (_n, pages) => {
    const out = memory();
    await run(jsonWriter(out.stream), pages, 'next-cursor');
    expect(out.text()).toBe(expectedJson({ searches: pages.flat(), totalSearches: 1234, nextCursor: 'next-cursor' }));
  });
});

describe('ndjson writer', () => {
  it.each(splits)('writes %s one object a line', async (_n, pages) => {
    const out = memory();
    await run(ndjsonWriter(out.stream), pages);
    expect(out.text()).toBe(expectedNdjson(pages.flat()));
    expect(out.text().split('\n').filter(Boolean)).toHaveLength(pages.flat().length);
  });
});

describe('csv writer', () => {
  it.each([
    ['neutralises formula-like cells', { raw: false, header: true }],
    ['keeps them with --csv-raw', { raw: true, header: true }],
    ['leaves out the header with --no-header', { raw: false, header: false }],
  ])('%s, quotes per RFC 4180 and ends lines with CRLF', async (_n, opts) => {
    const out = memory();
    await run(csvWriter(out.stream, opts), [TRICKY.slice(0, 6), TRICKY.slice(6)]);
    expect(out.text()).toBe(expectedCsv(TRICKY, opts));
  });

  it('keeps numbers as numbers, a negative-looking term as text, and a null page as an empty cell', async () => {
    const out = memory();
    await run(csvWriter(out.stream, { raw: false, header: false }), [
      [term({ searchQuery: '-x', hits: 3, ctr: 0.5, topClickedPage: null })],
    ]);
    expect(out.text()).toBe("'-x,3,0.5,,2026-10-31T12:00:00.000Z\r\n");
  });
});

describe('writers: no row line a GitHub Actions runner would run as a workflow command', () => {
  const hostile = [
    term({ searchQuery: '::error::x', topClickedPage: '/a\n::add-mask::y' }),
    term({ searchQuery: '  ::warning::w', topClickedPage: 'see ##[error]z' }),
  ];
  it('csv: a cell opening with :: is quoted (same value); later lines and ##[ marked unless --csv-raw', async () => {
    const out = memory();
    await run(csvWriter(out.stream, { raw: false, header: false }), [hostile]);
    expect(out.text()).toBe(
      '"::error::x",10,0.125,"/a\n\'::add-mask::y",2026-10-31T12:00:00.000Z\r\n' +
        '"  ::warning::w",10,0.125,see ##\'[error]z,2026-10-31T12:00:00.000Z\r\n',
    );
    const raw = memory();
    await run(csvWriter(raw.stream, { raw: true, header: false }), [hostile]);
    expect(raw.text()).toBe(
      '"::error::x",10,0.125,"/a\n::add-mask::y",2026-10-31T12:00:00.000Z\r\n' +
        '"  ::warning::w",10,0.125,see ##[error]z,2026-10-31T12:00:00.000Z\r\n',
    );
  });

  it('tsv: the opening : is \\x3a and the [ of ##[ is \\x5b, escapes that read back as the same value', async () => {
    const out = memory();
    await run(tableWriter(out.stream, { terminal: false, columns: undefined, color: false, header: false }), [hostile]);
    expect(out.text()).toBe(
      '\\x3a:error::x\t10\t12.5%\t/a\\n::add-mask::y\t2026-10-31T12:00:00.000Z\n' +
        '  \\x3a:warning::w\t10\t12.5%\tsee ##\\x5berror]z\t2026-10-31T12:00:00.000Z\n',
    );
  });
});

describe('table writer', () => {
  it.each(splits)('in a pipe, writes %s as tab-separated lines with escapes', async (_n, pages) => {
    const out = memory();
    await run(tableWriter(out.stream, { terminal: false, columns: undefined, color: false, header: true }), pages);
    expect(out.text()).toBe(expectedTsv(pages.flat()));
    for (const line of out.text().split('\n').filter(Boolean)) expect(line.split('\t')).toHaveLength(5);
  });

  it('in a pipe with --no-header, writes only the rows', async () => {
    const out = memory();
    await run(tableWriter(out.stream, { terminal: false, columns: undefined, color: false, header: false }), [TRICKY]);
    expect(out.text()).toBe(expectedTsv(TRICKY, false));
  });

  it('on a terminal, draws one header, fits the width, and shows no control characters', async () => {
    const long = term({
      searchQuery: 'a very long search query that will never fit '.repeat(3),
      topClickedPage: '/a/very/long/page/path/'.repeat(4),
    });
    const out = memory();
    await run(tableWriter(out.stream, { terminal: true, columns: 80, color: false, header: true }), [
      [long, ...TRICKY],
      TRICKY,
    ]);
    const lines = out.text().split('\n').filter(Boolean);
    expect(lines.filter((l) => /^│ query +│ +hits │/.test(l))).toHaveLength(1);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(out.text()).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
    expect(out.text()).toContain('multi\\nline');
    expect(out.text()).toContain('esc \\x1b[31mred');
    expect(out.text()).toContain('…');
    // Two pages: two tables, each with its own top and bottom border.
    expect(lines.filter((l) => l.startsWith('┌'))).toHaveLength(2);
  });
});

describe('cells', () => {
  it.each([
    [0.125, '12.5%'],
    [0, '0%'],
    [1, '100%'],
    [0.3333, '33.3%'],
    [0.07, '7%'],
  ])('shows CTR %s as %s', (ctr, text) => expect(formatCtr(ctr)).toBe(text));

  it.each([
    ['a\tb\nc\rd', true, 'a\\tb\\nc\\rd'],
    ['back\\slash', true, 'back\\\\slash'],
    ['back\\slash', false, 'back\\slash'],
    ['\x1b[2J\x7f', false, '\\x1b[2J\\x7f'],
  ])('escapes %j (backslash %s) as %j', (value, backslash, text) =>
    expect(escapeCell(value, { backslash })).toBe(text),
  );

  const HEAD = ['query', 'hits', 'CTR', 'top clicked page', 'last searched'];
  const TS = '2026-11-20T10:11:12.000Z';
  it.each([
    [
      'keeps natural widths when they fit',
      [['q', '1', '1%', '/p', TS]],
      80,
      { shown: [0, 1, 2, 3, 4], widths: [7, 6, 5, 18, 26], dateOnly: false },
    ],
    [
      'gives a short page column its width and the query the rest',
      [['q'.repeat(100), '1', '1%', '/p', TS]],
      100,
      { shown: [0, 1, 2, 3, 4], widths: [39, 6, 5, 18, 26], dateOnly: false },
    ],
    [
      'shortens timestamps to a date before cutting the query short',
      [['q'.repeat(100), '1', '1%', '/p', TS]],
      80,
      { shown: [0, 1, 2, 3, 4], widths: [32, 6, 5, 16, 15], dateOnly: true },
    ],
    [
      'gives the query two thirds when both are long',
      [['q'.repeat(100), '1', '1%', 'p'.repeat(100), TS]],
      100,
      { shown: [0, 1, 2, 3, 4], widths: [38, 6, 5, 19, 26], dateOnly: false },
    ],
    [
      'drops the timestamp at 60 columns',
      [['q'.repeat(100), '1', '1%', 'p'.repeat(100), TS]],
      60,
      { shown: [0, 1, 2, 3], widths: [30, 6, 5, 14], dateOnly: false },
    ],
    [
      'drops the page column too at 40 columns',
      [['q'.repeat(100), '1', '1%', 'p'.repeat(100), TS]],
      40,
      { shown: [0, 1, 2], widths: [25, 6, 5], dateOnly: false },
    ],
  ])('fits columns: %s', (_n, rows, columns, layout) => {
    const got = fitColumns([HEAD, ...rows], columns);
    expect(got).toEqual(layout);
    expect(got.widths.reduce((a, b) => a + b, 0) + got.shown.length + 1).toBeLessThanOrEqual(columns);
  });

  const FEEDBACK_HEAD = ['created', 'source', 'status', 'page', 'helpful', 'comment'];
  const LONG = [TS, 'contextual', 'in_progress', `/guides/${'p'.repeat(40)}`, 'true', 'c'.repeat(80)];
  const FEEDBACK = { flexible: [3, 5], dates: [0], dropOrder: [4, 2, 0] };
  it.each([
    [
      'keeps natural widths when they fit',
      [TS, 'contextual', 'pending', '/p', 'true', 'ok'],
      80,
      { shown: [0, 1, 2, 3, 4, 5], widths: [26, 12, 9, 6, 9, 9], dateOnly: false },
    ],
    [
      'shares the room among the long-text columns',
      LONG,
      120,
      { shown: [0, 1, 2, 3, 4, 5], widths: [26, 12, 13, 26, 9, 27], dateOnly: false },
    ],
    [
      'shortens the date, then drops the first column of the drop order',
      LONG,
      80,
      { shown: [0, 1, 2, 3, 5], widths: [12, 12, 13, 18, 19], dateOnly: true },
    ],
    ['drops the next at 60 columns', LONG, 60, { shown: [0, 1, 3, 5], widths: [12, 12, 15, 16], dateOnly: true }],
    [
      'keeps only what matters most at 40 columns',
      LONG,
      40,
      { shown: [1, 3, 5], widths: [12, 12, 12], dateOnly: true },
    ],
  ])('fits other lists: %s', (_n, row, columns, layout) => {
    const got = fitFlexible([FEEDBACK_HEAD, row], columns, FEEDBACK);
    expect(got).toEqual(layout);
    expect(got.widths.reduce((a, b) => a + b, 0) + got.shown.length + 1).toBeLessThanOrEqual(columns);
  });

  it('draws every width from 40 to 120 columns without a line longer than the terminal, the query widest', async () => {
    const rows = [
      term({
        searchQuery: 'how do I configure the authentication provider for SSO',
        topClickedPage: '/guides/authentication/single-sign-on/setup',
        lastSearchedAt: TS,
      }),
    ];
    for (let columns = 40; columns <= 120; columns++) {
      const out = memory();
      await run(tableWriter(out.stream, { terminal: true, columns, color: false, header: true }), [rows]);
      const lines = out.text().split('\n').filter(Boolean);
      for (const line of lines) expect([...line].length, `${columns} columns: ${line}`).toBeLessThanOrEqual(columns);
      const layout = fitColumns(
        [HEAD, ...rows.map((r) => [r.searchQuery, String(r.hits), '1%', r.topClickedPage!, r.lastSearchedAt])],
        columns,
      );
      expect(Math.max(...layout.widths)).toBe(layout.widths[0]);
    }
  });
});

describe('writeChunk', () => {
  it('waits until the stream has taken the chunk, so memory stays at one page', async () => {
    const done: Array<() => void> = [];
    const slow = new Writable({ highWaterMark: 4, write: (_c, _e, cb) => void done.push(cb) });
    let resolved = false;
    const pending = writeChunk(slow, 'a whole page of rows').then(() => (resolved = true));
    await new Promise((r) => setImmediate(r));
    expect(resolved).toBe(false);
    done.shift()!();
    await pending;
    expect(resolved).toBe(true);
  });

  it('rejects when the stream fails (a full disk, a closed pipe)', async () => {
    const broken = new Writable({
      highWaterMark: 1,
      write: (_c, _e, cb) => cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })),
    });
    broken.on('error', () => undefined);
    await expect(writeChunk(broken, 'rows')).rejects.toThrow('EPIPE');
  });
});
