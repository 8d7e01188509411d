// The streaming writer of the chosen format, over the list's columns. Each format's module loads
// only when a list is written in it (csv-stringify and cli-table3 are heavy for `--help`).
import type { Context } from '../cli/context.js';
import type { OutputTarget } from '../output/target.js';
import type { Columns, PageWriter } from '../output/writer.js';
import type { ListExportOptions } from './options.js';

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
  ctx: Context,
): Promise<PageWriter<Item, object>> {
  const stream = await target.open();
  const writer = await createWriter(spec, opts, stream, ctx);
  await writer.begin();
  return writer;
}

async function createWriter<Item>(
  spec: WriterSpec<Item>,
  opts: ListExportOptions,
  stream: NodeJS.WritableStream,
  ctx: Context,
): Promise<PageWriter<Item, object>> {
  switch (opts.format) {
    case 'csv':
      return (await import('../output/csv.js')).csvWriter(
        stream,
        { raw: opts.csvRaw, header: opts.header, terminal: opts.output === undefined && ctx.io.stdoutIsTTY },
        spec.columns,
      );
    case 'ndjson':
      return (await import('../output/ndjson.js')).ndjsonWriter<Item>(stream);
    case 'json':
      return (await import('../output/json.js')).jsonWriter<Item, object>(stream, spec.itemsKey);
    case 'table': {
      const terminal = opts.output === undefined && ctx.io.stdoutIsTTY;
      return (await import('../output/table.js')).tableWriter(
        stream,
        { terminal, columns: ctx.io.columns, color: ctx.mode.color, header: opts.header },
        spec.columns,
      );
    }
  }
}
