// `analytics gaps`: the report as text, from what the gaps engine collected (src/gaps/collect.ts):
// Markdown, CSV, JSON, or the prompt for `agent run` (gaps-prompt.ts); a terminal gets its own
// layout (gaps-terminal.ts).
import type { GapSource, GapsReport } from '../../../gaps/collect.js';
import type { Gap } from '../../../gaps/score.js';
import { escapeCell } from '../../../output/cells.js';
import { jsonText } from '../../../output/json-text.js';
import type { Columns } from '../../../output/writer.js';
import { agentPrompt, promptCommand } from './gaps-prompt.js';

export const FORMATS = ['md', 'csv', 'json'] as const;
export type GapsFormat = (typeof FORMATS)[number];

const KIND_LABEL = { search: 'search, no click', question: 'unanswered questions', page: 'poorly rated page' } as const;

/** Reader text in the report is cut here (csv and json keep it whole): a 1 MB term is no report. */
const MD_CELL_CHARS = 200;

/** One line of the markdown report: no control characters, no `|` breaking the table, cut to MD_CELL_CHARS. */
const mdCell = (text: string) => {
  const chars = Array.from(text.slice(0, MD_CELL_CHARS * 2));
  const cut =
    chars.length > MD_CELL_CHARS || text.length > MD_CELL_CHARS * 2
      ? `${chars.slice(0, MD_CELL_CHARS - 1).join('')}…`
      : text;
  return escapeCell(cut, { backslash: false }).replaceAll('|', '\\|');
};

export function markdownReport(report: GapsReport, top: number): string {
  const range =
    report.from || report.to ? `${report.from ?? 'the start'} to ${report.to ?? 'now'} (exclusive)` : 'all dates';
  const shown = report.gaps.slice(0, top);
  const lines = [
    `# Content gaps: ${range}`,
    '',
    `${report.gaps.length} ${report.gaps.length === 1 ? 'gap' : 'gaps'} found in ${report.sources.searches.rows} search terms, ${report.sources.conversations.rows} assistant questions, feedback on ${report.sources.feedbackByPage.rows} pages and views of ${report.sources.views.rows} pages; ${report.requests.used} of ${report.requests.max} analytics requests used.`,
  ];
  if (report.partial) {
    lines.push(
      '',
      `**Partial report**: ${partialNotes(report).join('; ')}. Raise --max-requests (or run it again in an hour) for a complete one.`,
    );
  }
  if (shown.length === 0)
    return [
      ...lines,
      '',
      'No gaps: every frequent search was clicked, every question answered, no page voted down.',
      '',
    ].join('\n');
  lines.push('', '| # | kind | evidence | count | score | why |', '|---:|---|---|---:|---:|---|');
  shown.forEach((g, i) =>
    lines.push(
      `| ${i + 1} | ${KIND_LABEL[g.kind]} | ${mdCell(g.evidence)} | ${g.count} | ${g.score} | ${mdCell(g.why)} |`,
    ),
  );
  const asked = shown.filter((g) => g.examples.length > 0);
  if (asked.length > 0) {
    lines.push('', '## What readers asked');
    for (const g of asked)
      lines.push(
        '',
        `${shown.indexOf(g) + 1}. ${mdCell(g.evidence)}:`,
        ...g.examples.map((q) => `   - "${mdCell(q)}"`),
      );
  }
  if (report.gaps.length > shown.length)
    lines.push(
      '',
      `${report.gaps.length - shown.length} more below these; --top ${report.gaps.length} shows every one.`,
    );
  const again = promptCommand(report);
  lines.push('', `Hand the top gaps to the agent: mint-admin agent run "$(${again})"`, '');
  return lines.join('\n');
}

export function partialNotes(report: GapsReport): string[] {
  return Object.entries(report.sources)
    .filter(([, s]) => s.incomplete !== null)
    .map(([name, s]) => `${SOURCE_LABEL[name as GapSource]}: ${s.incomplete}`);
}

const SOURCE_LABEL: Record<GapSource, string> = {
  feedbackByPage: 'feedback by page',
  views: 'page views',
  searches: 'search terms',
  conversations: 'assistant conversations',
};

export const GAP_COLUMNS: Columns<Gap & { rank: number }> = {
  csvHeader: ['rank', 'kind', 'evidence', 'page', 'count', 'views', 'score', 'why', 'examples'],
  csvRecord: (g) => [g.rank, g.kind, g.evidence, g.page, g.count, g.views, g.score, g.why, g.examples.join('\n')],
  tableHeader: [],
  tableCells: () => [],
  align: [],
  flexible: [],
};

export async function renderReport(
  report: GapsReport,
  opts: { prompt: boolean; format: GapsFormat; top: number },
): Promise<string> {
  if (opts.prompt) return agentPrompt(report, opts.top);
  if (opts.format === 'md') return markdownReport(report, opts.top);
  if (opts.format === 'json') return `${jsonText({ ...report, gaps: report.gaps.slice(0, opts.top) }, 2)}\n`;
  const [{ stringify }, { guardCell, FIRST_LINE_COMMAND }] = await Promise.all([
    import('csv-stringify/sync'),
    import('../../../output/csv.js'),
  ]);
  // Reader-typed terms: no cell may issue a GitHub Actions workflow command when the CSV is printed in a log.
  const rows = report.gaps
    .slice(0, opts.top)
    .map((g, i) => GAP_COLUMNS.csvRecord({ ...g, rank: i + 1 }).map(guardCell));
  return stringify([[...GAP_COLUMNS.csvHeader], ...rows], {
    record_delimiter: 'windows',
    quote_record_delimiter: true,
    escape_formulas: true,
    quoted_match: FIRST_LINE_COMMAND,
    bom: false,
  });
}
