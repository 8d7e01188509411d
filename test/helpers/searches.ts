// Expected outputs for search terms, written independently of src/output so a test compares the
// CLI against the formats' own rules (RFC 4180, the escape table in the help), not against itself.
import type { SearchTerm } from '../../src/api/types.js';

/** RFC 4180 cell, with the formula guard cli.md describes. */
export function expectedCsvCell(value: string | number | null, raw = false): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const guarded = !raw && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

export function expectedCsv(terms: SearchTerm[], opts: { raw?: boolean; header?: boolean } = {}): string {
  const header = opts.header === false ? '' : 'searchQuery,hits,ctr,topClickedPage,lastSearchedAt\r\n';
  return (
    header +
    terms
      .map(
        (t) =>
          [t.searchQuery, t.hits, t.ctr, t.topClickedPage, t.lastSearchedAt]
            .map((v) => expectedCsvCell(v, opts.raw))
            .join(',') + '\r\n',
      )
      .join('')
  );
}

export function expectedNdjson(terms: SearchTerm[]): string {
  return terms.map((t) => `${JSON.stringify(t)}\n`).join('');
}

export function expectedJson(doc: {
  searches: SearchTerm[];
  totalSearches: number;
  nextCursor: string | null;
}): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Tab-separated form: \\ \t \n \r and \xNN for other control characters. */
export function expectedTsv(terms: SearchTerm[], header = true): string {
  const esc = (s: string) =>
    [...s]
      .map((c) => {
        if (c === '\\') return '\\\\';
        if (c === '\t') return '\\t';
        if (c === '\n') return '\\n';
        if (c === '\r') return '\\r';
        const code = c.codePointAt(0)!;
        return code < 0x20 || (code >= 0x7f && code <= 0x9f) ? `\\x${code.toString(16).padStart(2, '0')}` : c;
      })
      .join('');
  const pct = (ctr: number) => `${Math.round(ctr * 1000) / 10}%`;
  const lines = terms.map((t) =>
    [t.searchQuery, String(t.hits), pct(t.ctr), t.topClickedPage ?? '-', t.lastSearchedAt].map(esc).join('\t'),
  );
  return [...(header ? ['query\thits\tCTR\ttop clicked page\tlast searched'] : []), ...lines]
    .map((l) => `${l}\n`)
    .join('');
}

export const term = (over: Partial<SearchTerm> = {}): SearchTerm => ({
  searchQuery: 'api key',
  hits: 10,
  ctr: 0.125,
  topClickedPage: '/quickstart',
  lastSearchedAt: '2026-10-31T12:00:00.000Z',
  ...over,
});
