// The report as GitHub-flavoured Markdown, to read in a step summary, a pull request or an issue.
// Text readers typed (search terms, questions, categories) and page paths are shown as code spans:
// no Markdown, HTML or link inside them is rendered, and a `|` cannot end a table cell.
import {
  changeText,
  count,
  partialPeriods,
  periodName,
  rangeText,
  signed,
  trafficRows,
  visitorsNote,
} from './words.js';
import type { Report, SearchChange } from './types.js';

export function renderMarkdown(report: Report): string {
  const name = periodName(report);
  const lines: string[] = [];
  const table = (header: string[], align: string[], rows: string[][]) => {
    if (rows.length === 0) {
      lines.push('None.', '');
      return;
    }
    lines.push(`| ${header.join(' | ')} |`, `| ${align.join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`), '');
  };
  lines.push(`## Docs analytics: ${report.period === 'week' ? 'week' : 'month'} ${rangeText(report.current)}`, '');
  lines.push(
    `Against ${rangeText(report.previous)}. Days synced: ${report.daysSynced.current} of ${report.daysSynced.ofDays.current} ${name.this}, ` +
      `${report.daysSynced.previous} of ${report.daysSynced.ofDays.previous} the ${name.before}.`,
    '',
  );
  const partial = partialPeriods(report);
  if (partial) lines.push(`> [!WARNING]`, `> ${partial}`, '');

  lines.push('### Views and visitors', '');
  table(
    ['', name.this, name.before, 'change'],
    ['---', '--:', '--:', '--:'],
    trafficRows(report).map((r) => [r.label, count(r.change.current), count(r.change.previous), changeText(r.change)]),
  );
  lines.push(`(${visitorsNote(report)}.)`, '');

  lines.push(`### Searches: ${count(report.searches.total.current)}, ${changeText(report.searches.total)}`, '');
  const searches = (rows: SearchChange[]) =>
    rows.map((s) => [code(s.query), count(s.current), count(s.previous), signed(s.change)]);
  lines.push('**Rising**', '');
  table(['search', name.this, name.before, 'change'], ['---', '--:', '--:', '--:'], searches(report.searches.rising));
  lines.push('**Falling**', '');
  table(['search', name.this, name.before, 'change'], ['---', '--:', '--:', '--:'], searches(report.searches.falling));
  lines.push('**New zero-click searches** (no result clicked)', '');
  table(
    ['search', 'searches'],
    ['---', '--:'],
    report.searches.newZeroClick.map((s) => [code(s.query), count(s.hits)]),
  );

  lines.push(
    `### Unanswered assistant questions: ${count(report.unanswered.total.current)}, ${changeText(report.unanswered.total)}`,
    '',
  );
  table(
    ['category', name.this, name.before, 'for example'],
    ['---', '--:', '--:', '---'],
    report.unanswered.byCategory.map((c) => [
      code(c.category),
      count(c.current),
      count(c.previous),
      c.examples.map(code).join(', '),
    ]),
  );

  lines.push('### Pages with the most thumbs-down', '');
  table(
    ['page', name.this, name.before],
    ['---', '--:', '--:'],
    report.thumbsDown.map((p) => [code(p.path), count(p.current), count(p.previous)]),
  );
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * Untrusted text as an inline code span inside a table cell: a fence longer than any run of
 * backticks in it, padded when it starts or ends with one, and `|` escaped (GFM splits cells on it
 * even inside code spans, and renders `\|` there as `|`).
 */
export function code(text: string): string {
  if (text.trim() === '') return '(empty)';
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  // Backslashes right before a `|` are doubled too: the cell splitter reads `\\` as one escaped backslash.
  const cell = text.replace(/(\\*)\|/g, (_match, backslashes: string) => `${backslashes}${backslashes}\\|`);
  return `${fence}${pad}${cell}${pad}${fence}`;
}
