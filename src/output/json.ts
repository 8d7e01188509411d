// One JSON document, `{ searches, totalSearches, nextCursor }`, written as the pages arrive: the
// opening first, each page's searches as they come, the closing last, so an export of any size
// holds one page in memory. The bytes are exactly JSON.stringify(document, null, 2) + "\n", the same
// as every other --json output. If an export stops early, end() still closes the document, with the
// cursor to resume from as nextCursor, so what was written parses.
import type { SearchTerm } from '../api/types.js';
import { writeChunk, type PageSummary, type SearchesWriter } from './writer.js';

const ITEM_INDENT = '    ';

export function jsonWriter(stream: NodeJS.WritableStream): SearchesWriter {
  let written = 0;
  return {
    begin: () => writeChunk(stream, '{\n  "searches": ['),
    async writePage(searches) {
      await writeChunk(stream, searches.map((s) => `${written++ === 0 ? '' : ','}\n${ITEM_INDENT}${indented(s)}`).join(''));
    },
    end: (summary: PageSummary) =>
      writeChunk(
        stream,
        `${written === 0 ? '' : '\n  '}],\n  "totalSearches": ${JSON.stringify(summary.totalSearches)},\n  "nextCursor": ${JSON.stringify(summary.nextCursor)}\n}\n`,
      ),
  };
}

/** A search object pretty-printed at the depth of an array element; strings never hold a raw newline. */
function indented(search: SearchTerm): string {
  return JSON.stringify(search, null, 2).replaceAll('\n', `\n${ITEM_INDENT}`);
}
