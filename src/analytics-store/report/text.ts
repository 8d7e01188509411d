// Text readers typed is untrusted: any length, any characters. The report keeps at most
// TEXT_LIMIT characters of it on one line, without the direction overrides that make text read
// other than it is; each renderer then escapes what remains for its format.

export const TEXT_LIMIT = 120;

/**
 * One line (control characters and line breaks become spaces), without invisible format characters
 * (Unicode's Cf: zero-width ones, the Arabic letter mark, a BOM, tags that can spell a hidden message),
 * at most `limit` characters with "…".
 */
export function bounded(text: string, limit = TEXT_LIMIT): string {
  const line = text
    .replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .replace(/\p{Cf}/gu, '')
    .trim();
  const chars = [...line];
  return chars.length <= limit ? line : `${chars.slice(0, limit - 1).join('')}…`;
}
