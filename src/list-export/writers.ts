// The streaming writer of the chosen format, over the list's columns. Each format's module loads
// only when a list is written in it (csv-stringify and cli-table3 are heavy for `--help`).
import type { OutputTarget } from '../output/target.js';
import type { Columns, PageWriter } from '../output/writer.js';
import type { ListExportOptions } from './options.js';

/** What the writers need to know of the terminal the data may go to (stdout when no -o file is given). */
export interface WriterTerminal {
  /** stdout is a terminal: a table is fitted to its width, CSV cells are made safe to show. */
  stdoutIsTTY: boolean;
  /** The terminal's width, for a drawn table. */
  columns: number | undefined;
  color: boolean;
}

export interface WriterSpec<Item> {
  /** The JSON document's field that holds the items: `searches`, `feedback`, ... */
  itemsKey: string;
  columns: Columns<Item>;
}

/** Opens the target (creating the -o file only now) and writes the format's opening. */
export async function startWriter<Item>(
  spec: WriterSpec<Item>,
  opts: ListExportOptions,
  target: OutputTarget,
  terminal: WriterTerminal,
): Promise<PageWriter<Item, object>> {
  const stream = await target.open();
  const writer = await createWriter(spec, opts, stream, terminal);
  await writer.begin();
  return writer;
}

async function createWriter<Item>(
  spec: WriterSpec<Item>,
  opts: ListExportOptions,
  stream: NodeJS.WritableStream,
  terminal: WriterTerminal,
): Promise<PageWriter<Item, object>> {
  switch (opts.format) {
    case 'csv':
      return (await import('../output/csv.js')).csvWriter(
        stream,
        { raw: opts.csvRaw, header: opts.header, terminal: opts.output === undefined && terminal.stdoutIsTTY },
        spec.columns,
      );
    case 'ndjson':
      return (await import('../output/ndjson.js')).ndjsonWriter<Item>(stream);
    case 'json':
      return (await import('../output/json.js')).jsonWriter<Item, object>(stream, spec.itemsKey);
    case 'table': {
      const onTerminal = opts.output === undefined && terminal.stdoutIsTTY;
      return (await import('../output/table.js')).tableWriter(
        stream,
        { terminal: onTerminal, columns: terminal.columns, color: terminal.color, header: opts.header },
        spec.columns,
      );
    }
  }
}
