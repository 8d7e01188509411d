// Text that readers of the docs typed, made into one line of data for an agent (MCP tool results,
// `analytics gaps --prompt`): whitespace runs become one space; invisible format characters go
// (Unicode's Cf: direction overrides that make text read other than it is, zero-width ones, a BOM, and
// tag characters, which can spell instructions a model reads and a person never sees); controls are
// escaped; and it is cut to a bound.
import { escapeCell } from './cells.js';

/** `text` as one bounded line; `cut` when characters were left out (it then ends with `…`). */
export function flatReaderText(text: string, max: number): { text: string; cut: boolean } {
  // Only a bounded prefix is looked at: a comment of megabytes costs no more than a short one.
  const head = text.slice(0, max * 4);
  const flat = escapeCell(head.replace(/\p{Cf}/gu, '').replace(/[\s\u2028\u2029]+/g, ' '), { backslash: false }).trim();
  const chars = Array.from(flat);
  if (chars.length <= max && head.length === text.length) return { text: flat, cut: false };
  return { text: `${chars.slice(0, max - 1).join('')}…`, cut: true };
}
