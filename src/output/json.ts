// One JSON document, `{ <items>: [...], ...summary }` (`{ searches, totalSearches, nextCursor }` for
// searches), written as the pages arrive: the opening first, each page's items as they come, the
// summary and closing last, so an export of any size holds one page in memory. The bytes are exactly
// jsonText(document, 2) + "\n" (JSON.stringify's, C1 controls escaped: json-text.ts), the same as
// every other --json output. If an export stops early, end() still closes the document, with where
// to resume in the summary, so what was written parses.
import type { SearchTerm } from '../api/types.js';
import { jsonText } from './json-text.js';
import { writeChunk, type PageSummary, type PageWriter } from './writer.js';

const ITEM_INDENT = '    ';

export function jsonWriter(stream: NodeJS.WritableStream): PageWriter<SearchTerm, PageSummary>;
export function jsonWriter<Item, Summary extends object>(
  stream: NodeJS.WritableStream,
  itemsKey: string,
): PageWriter<Item, Summary>;
export function jsonWriter<Item, Summary extends object>(
  stream: NodeJS.WritableStream,
  itemsKey = 'searches',
): PageWriter<Item, Summary> {
  let written = 0;
  return {
    begin: () => writeChunk(stream, `{\n  ${jsonText(itemsKey)}: [`),
    async writePage(items) {
      await writeChunk(
        stream,
        items.map((s) => `${written++ === 0 ? '' : ','}\n${ITEM_INDENT}${indented(s)}`).join(''),
      );
    },
    end: (summary: Summary) => {
      const fields = Object.entries(summary).map(([key, value]) => `,\n  ${jsonText(key)}: ${indented(value, '  ')}`);
      return writeChunk(stream, `${written === 0 ? '' : '\n  '}]${fields.join('')}\n}\n`);
    },
  };
}

/** A value pretty-printed at the depth of an array element (or a field); strings never hold a raw newline. */
function indented(value: unknown, indent = ITEM_INDENT): string {
  return jsonText(value, 2).replaceAll('\n', `\n${indent}`);
}
