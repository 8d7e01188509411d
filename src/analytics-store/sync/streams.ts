// What the sync reads: one stream per endpoint (stream.ts says what a stream is). Aggregating endpoints
// are read one UTC day at a time (day-streams.ts), or over a whole report period (below); item
// endpoints over one window of timestamps at a time (item-streams.ts).
import { RANGE_OF, RANGE_TABLES, type DataTable, type RangeTable } from '../schema.js';
import { DAY_STREAMS } from './day-streams.js';
import { ITEM_STREAMS } from './item-streams.js';
import type { Stream } from './stream.js';

export const STREAMS: Record<DataTable, Stream> = { ...DAY_STREAMS, ...ITEM_STREAMS };

/**
 * A day stream read over a whole report period instead (RANGE_TABLES): the same request with a wider
 * date range, its rows carrying the range instead of a day.
 */
function rangeStream(table: RangeTable): Stream {
  const day = STREAMS[RANGE_OF[table]];
  const { date: _date, ...columns } = day.columns;
  return {
    ...day,
    table,
    kind: 'range',
    key: ['date_from', 'date_to', ...day.key.filter((k) => k !== 'date')],
    columns: { date_from: 'DATE', date_to: 'DATE', ...columns },
    async fetch(api, projectId, w, position, call) {
      const page = await day.fetch(api, projectId, w, position, call);
      return {
        ...page,
        rows: page.rows.map(({ date: _day, ...row }) => ({ date_from: w.from, date_to: w.to, ...row })),
      };
    },
  };
}

export const RANGE_STREAMS = Object.fromEntries(RANGE_TABLES.map((t) => [t, rangeStream(t)])) as Record<
  RangeTable,
  Stream
>;
