// Reader text (search terms, feedback comments, assistant questions) is typed by the public and may
// hold half of a UTF-16 surrogate pair: an emoji cut in two by a client or a length limit. JSON can
// carry it (`"\ud83d"`), but DuckDB's JSON reader refuses it, and a page it refuses is refused on
// every later run too, so the sync could never get past it. Each such code unit becomes U+FFFD, as
// any UTF-8 decoder would make it, and the fields repaired are counted for --debug.
import type { Row } from './stream.js';

export interface Repaired {
  rows: Row[];
  /** Each field (table column, or column.path inside a nested value) with how many strings in it were repaired. */
  fields: Map<string, number>;
}

/**
 * A high surrogate not followed by a low one, or a low one not preceded by a high one. No `u` flag:
 * the pattern must see code units, not code points. (String.prototype.toWellFormed is ES2024, beyond
 * the library's declared lib.)
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The rows with every lone surrogate in every string replaced by U+FFFD; the same rows when none held one (the usual case). */
export function wellFormedRows(rows: Row[]): Repaired {
  const fields = new Map<string, number>();
  const mended = rows.map((row) => {
    let copy: Row | undefined;
    for (const [key, value] of Object.entries(row)) {
      const fixed = wellFormed(value, key, fields);
      if (fixed !== value) (copy ??= { ...row })[key] = fixed;
    }
    return copy ?? row;
  });
  return { rows: fields.size === 0 ? rows : mended, fields };
}

function wellFormed(value: unknown, field: string, fields: Map<string, number>): unknown {
  if (typeof value === 'string') {
    LONE_SURROGATE.lastIndex = 0;
    if (!LONE_SURROGATE.test(value)) return value;
    fields.set(field, (fields.get(field) ?? 0) + 1);
    return value.replace(LONE_SURROGATE, '\uFFFD');
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const fixed = wellFormed(item, field, fields);
      if (fixed !== item) (copy ??= [...value])[i] = fixed;
    });
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object') {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const fixed = wellFormed(item, `${field}.${key}`, fields);
      if (fixed !== item) (copy ??= { ...value })[key] = fixed;
    }
    return copy ?? value;
  }
  return value;
}
