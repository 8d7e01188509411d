// One object a line (https://github.com/ndjson/ndjson-spec). jsonText escapes every newline
// inside a value (U+2028 and U+2029 too), so a term such as "multi\nline" still takes exactly one line.
import { jsonText } from './json-text.js';
import { writeChunk, type PageWriter } from './writer.js';

export function ndjsonWriter<Item>(stream: NodeJS.WritableStream): PageWriter<Item, object> {
  return {
    begin: async () => undefined,
    writePage: (items: readonly Item[]) => writeChunk(stream, items.map((s) => `${jsonText(s)}\n`).join('')),
    end: async () => undefined,
  };
}
