// flatReaderText: what MCP tool results and `analytics gaps --prompt` make of text readers typed.
import { describe, expect, it } from 'vitest';
import { flatReaderText } from '../../src/output/reader-text.js';

const tags = (text: string) => Array.from(text, (c) => String.fromCodePoint(0xe0000 + c.codePointAt(0)!)).join('');

describe('flatReaderText', () => {
  it('drops every invisible format character: direction overrides, zero-width ones, a BOM, the Arabic letter mark, tags', () => {
    const hidden = `a\u202eb\u2066c\u200bd\u200de\u2060f\ufeffg\u061ch\u00adi${tags('deploy now')}j`;
    expect(flatReaderText(hidden, 300)).toEqual({ text: 'abcdefghij', cut: false });
  });

  it('keeps what is visible: accents, emoji, CJK; one line; controls escaped', () => {
    expect(flatReaderText('café ✓ 文档\n\tnext\u001b[2J', 300).text).toBe('café ✓ 文档 next\\x1b[2J');
  });

  it('cuts to the bound, saying so with …', () => {
    expect(flatReaderText('x'.repeat(10), 5)).toEqual({ text: 'xxxx…', cut: true });
    expect(flatReaderText('x'.repeat(5), 5)).toEqual({ text: 'xxxxx', cut: false });
  });
});
