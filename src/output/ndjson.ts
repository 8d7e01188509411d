// One object a line (https://github.com/ndjson/ndjson-spec). JSON.stringify escapes every newline
// inside a value, so a term such as "multi\nline" still takes exactly one line.
import { writeChunk, type PageWriter } from './writer.js';

export function ndjsonWriter<Item>(stream: NodeJS.WritableStream): PageWriter<Item, object> {
  return {
    begin: async () => undefined,
    writePage: (items: readonly Item[]) => writeChunk(stream, items.map((s) => `${JSON.stringify(s)}\n`).join('')),
    end: async () => undefined,
  };
}
