// How a search term's fields read as text in the table format, on a terminal and in a pipe.
import type { SearchTerm } from '../api/types.js';
import type { Columns } from './writer.js';

export const TABLE_HEADER = ['query', 'hits', 'CTR', 'top clicked page', 'last searched'] as const;

/** 0.125 -> "12.5%", 0 -> "0%", 1 -> "100%": one decimal at most, no trailing ".0". */
export function formatCtr(ctr: number): string {
  return `${Number((ctr * 100).toFixed(1))}%`;
}

/** The table's cells for one term, before escaping. */
export function tableCells(search: SearchTerm): string[] {
  return [
    search.searchQuery,
    String(search.hits),
    formatCtr(search.ctr),
    search.topClickedPage ?? '-',
    search.lastSearchedAt,
  ];
}

export const SEARCH_COLUMNS: Columns<SearchTerm> = {
  csvHeader: ['searchQuery', 'hits', 'ctr', 'topClickedPage', 'lastSearchedAt'],
  csvRecord: (s) => [s.searchQuery, s.hits, s.ctr, s.topClickedPage, s.lastSearchedAt],
  tableHeader: TABLE_HEADER,
  tableCells,
  align: ['left', 'right', 'right', 'left', 'left'],
  flexible: [0, 3],
};

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * Makes a value safe to show on one line: tab, newline and CR become `\t`, `\n`, `\r`, and any other
 * control character (ESC would start a terminal escape sequence) becomes `\xNN`. In tab-separated
 * output a backslash is doubled too, so `\t` in the output always means a tab in the value.
 */
export function escapeCell(value: string, opts: { backslash: boolean }): string {
  const pattern = opts.backslash ? /[\\\x00-\x1f\x7f-\x9f]/g : /[\x00-\x1f\x7f-\x9f]/g;
  const escaped = value.replace(pattern, (c) => {
    if (c === '\\') return '\\\\';
    return NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
  return opts.backslash ? withoutWorkflowCommands(escaped) : escaped;
}

/**
 * Tab-separated rows land in CI logs, where the Actions runner runs a line that opens with `::`, or
 * holds `##[`, as a workflow command (src/terminal-text.ts). In this format's own escapes the `:`
 * that opens such a cell is `\x3a` and the `[` is `\x5b`: the value reads back unchanged.
 */
function withoutWorkflowCommands(escaped: string): string {
  return escaped.replace(/^(\s*):/, '$1\\x3a').replace(/##\[/g, '##\\x5b');
}
