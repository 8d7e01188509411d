// `analytics report`'s engine: the periods, the numbers from a real DuckDB database with known rows
// (exact), and each renderer: Markdown with untrusted text as code spans, Slack Block Kit within its
// limits with mrkdwn escaped.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openForReading } from '../../src/analytics-store/read.js';
import {
  computeReport,
  renderMarkdown,
  renderSlack,
  reportPeriods,
  SLACK_LIMITS,
  type Report,
} from '../../src/analytics-store/report/index.js';
import { code as mdCode } from '../../src/analytics-store/report/markdown.js';
import { bounded } from '../../src/analytics-store/report/text.js';
import { tempDir } from '../helpers/cli.js';
import { EXPECTED, fillReportDatabase } from './report-fixture.js';

const NOW = new Date('2026-11-25T08:00:00Z'); // a Wednesday

describe('reportPeriods', () => {
  it.each([
    [
      'a Wednesday',
      '2026-11-25T08:00:00Z',
      { from: '2026-11-16', to: '2026-11-23', label: '2026-W47' },
      { from: '2026-11-09', to: '2026-11-16', label: '2026-W46' },
    ],
    [
      'a Monday just after midnight: the week that just ended',
      '2026-11-23T00:00:01Z',
      { from: '2026-11-16', to: '2026-11-23', label: '2026-W47' },
      { from: '2026-11-09', to: '2026-11-16', label: '2026-W46' },
    ],
    [
      'a Sunday: the week before this one',
      '2026-11-22T23:59:59Z',
      { from: '2026-11-09', to: '2026-11-16', label: '2026-W46' },
      { from: '2026-11-02', to: '2026-11-09', label: '2026-W45' },
    ],
    [
      'across a year: ISO week 1 of 2026 began on 2025-12-29',
      '2026-01-07T12:00:00Z',
      { from: '2025-12-29', to: '2026-01-05', label: '2026-W01' },
      { from: '2025-12-22', to: '2025-12-29', label: '2025-W52' },
    ],
  ])('week on %s', (_when, now, current, previous) => {
    expect(reportPeriods('week', new Date(now))).toEqual({ kind: 'week', current, previous });
  });

  it.each([
    [
      'mid-month',
      '2026-11-25T08:00:00Z',
      { from: '2026-10-01', to: '2026-11-01', label: '2026-10' },
      { from: '2026-09-01', to: '2026-10-01', label: '2026-09' },
    ],
    [
      'in January',
      '2026-01-01T00:00:00Z',
      { from: '2025-12-01', to: '2026-01-01', label: '2025-12' },
      { from: '2025-11-01', to: '2025-12-01', label: '2025-11' },
    ],
  ])('month %s', (_when, now, current, previous) => {
    expect(reportPeriods('month', new Date(now))).toEqual({ kind: 'month', current, previous });
  });
});

describe('bounded untrusted text', () => {
  it('one line, no direction overrides, at most 120 characters', () => {
    expect(bounded('a\nb\r\n\tc\u202ed')).toBe('a b c d');
    expect([...bounded('x'.repeat(500))]).toHaveLength(120);
    expect(bounded('x'.repeat(500)).endsWith('…')).toBe(true);
  });

  it('no invisible characters: the Arabic letter mark, zero-width ones, a BOM, soft hyphens, Unicode tags', () => {
    // Each can hide or reorder text a reader typed: "pay\u200Bpal" reads as "paypal", tag characters spell a hidden message.
    const hidden =
      'a\u061Cb\u200Bc\u200Dd\u2060e\uFEFFf\u00ADg' + String.fromCodePoint(0xe0001, 0xe0069, 0xe0067) + 'h';
    expect(bounded(hidden)).toBe('abcdefgh');
    expect(bounded('plain café ✓')).toBe('plain café ✓');
  });
});

describe('computeReport on known rows', () => {
  const dir = tempDir();
  let report: Report;
  beforeAll(async () => {
    const path = join(dir.path, 'a.duckdb');
    await fillReportDatabase(path, reportPeriods('week', NOW));
    const db = await openForReading(path);
    try {
      report = await computeReport(db.connection, 'week', NOW);
    } finally {
      db.close();
    }
  });
  afterAll(() => dir.cleanup());

  it("is exactly the rows' numbers, this week against the one before", () => {
    const { current, previous } = reportPeriods('week', NOW);
    expect(report).toEqual({ period: 'week', current, previous, ...EXPECTED });
  });

  it('md: exact sections, untrusted text as code spans', () => {
    const md = renderMarkdown(report);
    expect(
      md.startsWith(
        '## Docs analytics: week 2026-W47 (2026-11-16 to 2026-11-22)\n\nAgainst 2026-W46 (2026-11-09 to 2026-11-15). Days synced: 7 of 7 this week, 5 of 7 the week before.\n\n> [!WARNING]\n> Not synced whole yet: the week before (views 5 of 7 days); its numbers are partial until `mint-admin analytics sync` has read the rest.\n',
      ),
    ).toBe(true);
    expect(md).toContain(
      '| Views, people | 150 | 100 | +50 (+50%) |\n| Views, AI agents | 50 | 0 | +50 (new) |\n| Views, total | 200 | 100 | +100 (+100%) |',
    );
    expect(md).toContain('### Searches: 59, +15 (+34.1%)');
    expect(md).toContain(
      '**Rising**\n\n| search | this week | week before | change |\n| --- | --: | --: | --: |\n| `install` | 40 | 10 | +30 |\n| `webhooks` | 8 | 0 | +8 |\n| `` <script>alert(1)</script> \\| `x` `` | 2 | 0 | +2 |\n',
    );
    expect(md).toContain('| `deploy` | 5 | 25 | -20 |');
    expect(md).toContain(
      '**New zero-click searches** (no result clicked)\n\n| search | searches |\n| --- | --: |\n| `webhooks` | 8 |\n',
    );
    expect(md).toContain(
      '### Unanswered assistant questions: 3, +1 (+50%)\n\n| category | this week | week before | for example |\n| --- | --: | --: | --- |\n| `Auth` | 2 | 1 | `SAML setup?`, `How do I rotate keys?` |\n| `(uncategorised)` | 1 | 0 | `Where is the CLI?` |\n',
    );
    expect(
      md.endsWith(
        '### Pages with the most thumbs-down\n\n| page | this week | week before |\n| --- | --: | --: |\n| `/a` | 5 | 0 |\n| `/b` | 5 | 1 |\n',
      ),
    ).toBe(true);
    // The only raw "<" or ">" is inside a code span (or opens the warning's quote).
    expect(md.replace(/^> /gm, '').replace(/(`+)[^`].*?\1/g, '')).not.toMatch(/[<>]/);
  });

  it('slack: the numbers in Block Kit a webhook accepts, mrkdwn escaped', () => {
    const message = renderSlack(report);
    checkBlockKit(message);
    expect(message.text).toBe('Docs analytics, week 2026-W47: 200 views, 59 searches, 3 unanswered questions');
    const texts = message.blocks.map((b) =>
      'text' in b ? b.text.text : 'elements' in b ? b.elements.map((e) => e.text).join() : '',
    );
    expect(message.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Docs analytics: week 2026-W47', emoji: false },
    });
    expect(texts).toContain(
      '*Searches rising (this week: 59 searches, +15 (+34.1%))*\n• `install`: 40 (+30 from 10)\n• `webhooks`: 8 (+8 from 0)\n• `&lt;script&gt;alert(1)&lt;/script&gt; | ˋxˋ`: 2 (+2 from 0)',
    );
    expect(texts).toContain(
      '*Unanswered assistant questions: 3, +1 (+50%)*\n• `Auth`: 2 (week before: 1), e.g. `SAML setup?`, `How do I rotate keys?`\n• `(uncategorised)`: 1 (week before: 0), e.g. `Where is the CLI?`',
    );
    expect(texts).toContain(
      ':warning: Not synced whole yet: the week before (views 5 of 7 days); its numbers are partial until `mint-admin analytics sync` has read the rest.',
    );
    expect(texts.join('\n')).not.toMatch(/<|>/);
  });

  it('slack: a section past 3000 characters keeps whole lines and counts the rest', () => {
    const long = (i: number) => ({ query: `${i} ${'y'.repeat(117)}`, current: 1, previous: 0, change: 1 });
    const message = renderSlack({
      ...report,
      searches: { ...report.searches, rising: Array.from({ length: 100 }, (_, i) => long(i)) },
    });
    checkBlockKit(message);
    const rising = message.blocks.find((b) => b.type === 'section' && b.text.text.startsWith('*Searches rising'));
    expect(rising && 'text' in rising && rising.text.text).toMatch(/\n…and \d+ more$/);
  });

  it('md code spans: backticks, pipes and backslashes cannot leave the cell', () => {
    expect(mdCode('a|b')).toBe('`a\\|b`');
    expect(mdCode('a\\|b')).toBe('`a\\\\\\|b`');
    expect(mdCode('``x')).toBe('``` ``x ```');
    expect(mdCode('  ')).toBe('(empty)');
  });
});

/** Block Kit's limits and shapes for what this renderer makes (https://api.slack.com/reference/block-kit). */
function checkBlockKit(message: ReturnType<typeof renderSlack>): void {
  expect(typeof message.text).toBe('string');
  expect(message.text.length).toBeGreaterThan(0);
  expect(message.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
  for (const block of message.blocks) {
    expect(['header', 'section', 'context', 'divider']).toContain(block.type);
    if (block.type === 'header') {
      expect(block.text.type).toBe('plain_text');
      expect(block.text.text.length).toBeLessThanOrEqual(150);
    }
    if (block.type === 'section') {
      expect(block.text.type).toBe('mrkdwn');
      expect(block.text.text.length).toBeGreaterThan(0);
      expect(block.text.text.length).toBeLessThanOrEqual(3000);
    }
    if (block.type === 'context') {
      expect(block.elements.length).toBeGreaterThan(0);
      expect(block.elements.length).toBeLessThanOrEqual(10);
      for (const e of block.elements) expect(e.text.length).toBeLessThanOrEqual(3000);
    }
  }
  expect(JSON.parse(JSON.stringify(message))).toEqual(message);
}

describe('computeReport over range rows and day rows', () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());

  it('a period read whole at once is its range rows alone, the other its day rows; what is partial is named table by table', async () => {
    const path = join(dir.path, 'ranges.duckdb');
    const { openAnalyticsDb } = await import('../../src/analytics-store/db.js');
    const db = await openAnalyticsDb(path);
    const run = (sql: string) => db.connection.run(sql);
    const window = (stream: string, from: string, to: string, complete = true) =>
      `('${stream}', TIMESTAMP '${from}', TIMESTAMP '${to}', NULL, 1, 1, ${complete}, TIMESTAMP '2026-11-24 12:00:00')`;
    try {
      // This week (11-16..11-23): views read whole at once AND two of its days read too: counted once, from the range.
      await run(
        `INSERT INTO views_by_range VALUES ('2026-11-16', '2026-11-23', '/a', 70, 7, 77), ('2026-11-16', '2026-11-23', '/b', 30, 3, 33)`,
      );
      await run(
        `INSERT INTO views VALUES ('2026-11-16', '/a', 10, 1, 11), ('2026-11-17', '/a', 10, 1, 11), ('2026-11-10', '/a', 5, 0, 5), ('2026-11-11', '/a', 6, 0, 6)`,
      );
      // A range stopped part-way (not complete) for the week before: its rows are not used.
      await run(`INSERT INTO views_by_range VALUES ('2026-11-09', '2026-11-16', '/a', 999, 0, 999)`);
      await run(`INSERT INTO visitors_by_range VALUES ('2026-11-16', '2026-11-23', '/a', 8, 1, 9)`);
      const windows = [
        window('views_by_range', '2026-11-16', '2026-11-23'),
        window('views_by_range', '2026-11-09', '2026-11-16', false),
        window('visitors_by_range', '2026-11-16', '2026-11-23'),
        window('views', '2026-11-16', '2026-11-17'),
        window('views', '2026-11-17', '2026-11-18'),
        window('views', '2026-11-10', '2026-11-11'),
        window('views', '2026-11-11', '2026-11-12'),
        window('conversations', '2026-11-12', '2026-11-24'),
      ];
      for (const table of ['searches', 'feedback_by_page'])
        for (const w of ['2026-11-09', '2026-11-16'])
          windows.push(window(`${table}_by_range`, w, w === '2026-11-09' ? '2026-11-16' : '2026-11-23'));
      await run(`INSERT INTO sync_state VALUES ${windows.join(', ')}`);
    } finally {
      db.close();
    }
    const reading = await openForReading(path);
    let report: Report;
    try {
      report = await computeReport(reading.connection, 'week', NOW);
    } finally {
      reading.close();
    }
    expect(report.views.total).toEqual({ current: 110, previous: 11, change: 99, changePercent: 900 });
    expect(report.visitorsCounted).toEqual({ current: 'period', previous: 'day' });
    expect(report.daysSynced).toEqual({
      current: 7,
      previous: 0,
      ofDays: { current: 7, previous: 7 },
      partial: [
        { table: 'views', current: 7, previous: 2 },
        { table: 'visitors', current: 7, previous: 0 },
        { table: 'conversations', current: 7, previous: 4 },
      ],
    });
    const md = renderMarkdown(report);
    expect(md).toContain(
      '> Not synced whole yet: the week before (views 2 of 7 days, visitors 0 of 7 days, conversations 4 of 7 days); its numbers are partial',
    );
    expect(md).toContain(
      '(visitors: this week unique visitors per page over the whole week, the week before unique visitors per page and day, summed; the two do not compare.)',
    );
  });
});
