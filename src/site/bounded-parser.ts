// htmlparser2's Parser with a bound on attribute values. The parser appends each piece of a value to
// one string until its quote closes: a huge attribute that never closes grew past the longest string
// V8 can hold ("Invalid string length"). Here a value keeps its first ATTRIBUTE_LIMIT + 1 characters
// and only counts the rest, so memory stays flat whatever the page holds. Other markup (a comment, a
// tag or attribute name) is held whole by the parser until it ends: past MARKUP_LIMIT, the file is given up.
import { Parser, type QuoteType } from 'htmlparser2';

/** An attribute value is kept up to this many characters; one cut to ATTRIBUTE_LIMIT + 1 was longer. */
export const ATTRIBUTE_LIMIT = 1024 * 1024;

/** A comment, tag or attribute name longer than this stops the parse: the parser would keep all of it. */
export const MARKUP_LIMIT = 16 * 1024 * 1024;

/** Thrown by `write` when the parser holds more than MARKUP_LIMIT characters of markup that has not ended. */
export class OverlongMarkupError extends Error {
  constructor() {
    super(`a tag or comment of more than ${MARKUP_LIMIT / 1024 / 1024} MiB`);
  }
}

/**
 * The parser's own fields this class reads: the value of an attribute the file ends inside, and the
 * chunks it still holds (it lets go of one only once an event has passed it).
 */
interface ParserInternals {
  attribvalue?: unknown;
  buffers?: unknown;
}

export class BoundedParser extends Parser {
  /** characters of the attribute value being read so far, including those not kept */
  private openValueLength = 0;

  override write(chunk: string): void {
    super.write(chunk);
    if (this.heldCharacters() > MARKUP_LIMIT) throw new OverlongMarkupError();
  }

  private heldCharacters(): number {
    const buffers = (this as unknown as ParserInternals).buffers;
    if (!Array.isArray(buffers)) return 0;
    let held = 0;
    for (const buffer of buffers) held += typeof buffer === 'string' ? buffer.length : 0;
    return held;
  }

  override onattribdata(start: number, endIndex: number): void {
    const room = ATTRIBUTE_LIMIT + 1 - this.openValueLength;
    this.openValueLength += endIndex - start;
    // Past the limit an empty range is still passed on: it is what lets the parser drop the chunks behind it.
    super.onattribdata(start, room > 0 ? Math.min(endIndex, start + room) : start);
  }

  override onattribentity(codePoint: number): void {
    this.openValueLength++;
    if (this.openValueLength <= ATTRIBUTE_LIMIT + 1) super.onattribentity(codePoint);
  }

  override onattribend(quote: QuoteType, endIndex: number): void {
    this.openValueLength = 0;
    super.onattribend(quote, endIndex);
  }

  /**
   * After `end()`: the start of an attribute value longer than `limit` that the file ended inside
   * (the parser drops such a tag without a word), or undefined.
   */
  unclosedValueOver(limit: number): string | undefined {
    if (this.openValueLength <= limit) return undefined;
    const kept = (this as unknown as ParserInternals).attribvalue;
    return typeof kept === 'string' ? kept : '';
  }
}
