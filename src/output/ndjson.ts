// One search object a line (https://github.com/ndjson/ndjson-spec). JSON.stringify escapes every
// newline inside a value, so a term such as "multi\nline" still takes exactly one line.
import type { SearchTerm } from '../api/types.js';
import { writeChunk, type SearchesWriter } from './writer.js';

export function ndjsonWriter(stream: NodeJS.WritableStream): SearchesWriter {
  return {
    begin: async () => undefined,
    writePage: (searches: readonly SearchTerm[]) => writeChunk(stream, searches.map((s) => `${JSON.stringify(s)}\n`).join('')),
    end: async () => undefined,
  };
}
