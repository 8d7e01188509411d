// `analytics gaps` at a terminal: the report as a person reads it there, not as Markdown source.
// The gaps are a drawn table fitted to the width (the list writers' own layout: long text gives way,
// then less needed columns go), prose is wrapped to the width, and questions readers asked are cut to
// one line each. The partial-report note is left to stderr's warning, so it is said once.
import { escapeCell } from '../../../output/cells.js';
import { displayWidth, fitFlexible } from '../../../output/table.js';
import type { GapsReport } from '../../../gaps/collect.js';
import { promptCommand } from './gaps-prompt.js';

const HEADER = ['#', 'kind', 'evidence', 'count', 'score', 'why'];
const KIND = { search: 'search', question: 'questions', page: 'page' } as const;
const ALIGN = ['right', 'left', 'left', 'right', 'right', 'left'] as const;
/** Long text shares the room; when it is too narrow the count goes, then the explanation. */
const LAYOUT = { flexible: [2, 5], dropOrder: [3, 5] };
/** Reader text is cut here before anything is measured: a 1 MB term costs no more than a short one. */
const CELL_CHARS = 500;

const cell = (text: string) =>
  escapeCell(text.length > CELL_CHARS ? `${text.slice(0, CELL_CHARS)}…` : text, { backslash: false });

/** Lines of at most `width` cells, broken between words (a word longer than that is cut). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (displayWidth(next) <= width) line = next;
    else {
      if (line !== '') lines.push(line);
      line = fit(word, width);
    }
  }
  lines.push(line);
  return lines;
}

/** The text cut to `width` cells, ending in "…" when cut. */
function fit(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  for (const ch of text) {
    if (displayWidth(`${out}${ch}…`) > width) break;
    out += ch;
  }
  return `${out}…`;
}

export async function terminalReport(report: GapsReport, top: number, columns: number): Promise<string[]> {
  const width = Math.max(20, columns);
  const range =
    report.from || report.to ? `${report.from ?? 'the start'} to ${report.to ?? 'now'} (exclusive)` : 'all dates';
  const shown = report.gaps.slice(0, top);
  const { searches, conversations, feedbackByPage, views } = report.sources;
  const lines = [
    ...wrap(`Content gaps: ${range}`, width),
    ...wrap(
      `${report.gaps.length} ${report.gaps.length === 1 ? 'gap' : 'gaps'} found in ${searches.rows} search terms, ${conversations.rows} assistant questions, feedback on ${feedbackByPage.rows} pages and views of ${views.rows} pages; ${report.requests.used} of ${report.requests.max} analytics requests used.`,
      width,
    ),
    '',
  ];
  if (shown.length === 0)
    return [
      ...lines,
      ...wrap('No gaps: every frequent search was clicked, every question answered, no page voted down.', width),
    ];

  const rows = shown.map((g, i) => [
    String(i + 1),
    KIND[g.kind],
    cell(g.evidence),
    String(g.count),
    String(g.score),
    g.why,
  ]);
  const layout = fitFlexible([HEADER, ...rows], width, LAYOUT);
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head: layout.shown.map((i) => HEADER[i]!),
    colWidths: layout.widths,
    colAligns: layout.shown.map((i) => ALIGN[i]!),
    wordWrap: false,
    truncate: '…',
    style: { compact: true, head: [], border: [] },
  });
  table.push(...rows.map((row) => layout.shown.map((i) => row[i]!)));
  lines.push(...table.toString().split('\n'));

  const asked = shown.filter((g) => g.examples.length > 0);
  if (asked.length > 0) {
    lines.push('', 'What readers asked:');
    for (const g of asked) {
      lines.push(
        fit(`${shown.indexOf(g) + 1}. ${cell(g.evidence)}`, width),
        ...g.examples.map((q) => fit(`   - "${cell(q)}"`, width)),
      );
    }
  }
  if (report.gaps.length > shown.length)
    lines.push(
      '',
      ...wrap(
        `${report.gaps.length - shown.length} more below these; --top ${report.gaps.length} shows every one.`,
        width,
      ),
    );
  const again = promptCommand(report);
  // The command stays on one line, whatever the width, so it can be copied whole.
  lines.push('', 'Hand the top gaps to the agent:', `  mint-admin agent run "$(${again})"`);
  return lines;
}
