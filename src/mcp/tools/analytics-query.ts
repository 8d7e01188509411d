// Read-only SQL over the local analytics database that `analytics sync` fills, through the same layers
// as `analytics query` (src/analytics-store/read.ts and query.ts: opened read-only, file access,
// extensions and settings locked, one SELECT only). No API request. DuckDB is loaded when the tool is
// called, never at the server's start, and the file is opened per call and closed after it, so the
// server never holds it against a sync. The tables hold what readers typed: every text cell is bounded
// and flattened like reader text (untrusted.ts), and a call returns one bounded page of rows.
import type { Cell } from '../../analytics-store/query.js';
import { DatabaseBusyError, DuckDbMissingError } from '../../analytics-store/errors.js';
import { InvalidQueryError, NoDatabaseError, QueryRefusedError } from '../../analytics-store/read-errors.js';
import { QueryLimitError } from '../../analytics-store/query-limits.js';
import type { ToolFailure } from '../errors.js';
import { z } from '../sdk.js';
import { defineTool, READ_ONLY } from '../tool.js';
import { readerText, readerTextNote } from '../untrusted.js';

export const MAX_ROWS = 500;
const DEFAULT_ROWS = 50;
/** Characters of row JSON one page holds at most, under the server's 50,000 backstop: a page stays whole JSON. */
export const PAGE_CHARS = 40_000;
/** Elements kept of a list cell (DuckDB LIST, ARRAY): each is a cell, bounded the same way. */
const LIST_ITEMS = 20;

const TABLES =
  'searches, views, visitors, feedback_by_page, caller_stats (one row per day and key, with its "date"), conversations, feedback (one row per id), sync_state; searches_by_range, views_by_range, visitors_by_range, feedback_by_page_by_range (the same over a whole week or month, with "date_from" and "date_to": they overlap the day tables, so never sum both)';

export const analyticsQuery = defineTool({
  name: 'analytics_query',
  title: 'Query the analytics database (SQL)',
  description:
    `Run one read-only SQL SELECT (DuckDB dialect) over the local analytics database that \`mint-admin analytics sync\` fills: no API request, no rate limit. Tables: ${TABLES}; columns are the API's fields in snake_case ("SHOW TABLES", "DESCRIBE searches" list them). ` +
    `Anything but a SELECT (INSERT, CREATE, COPY, ATTACH, SET, PRAGMA with effects...) is refused before it runs, as is any file access. A query is bounded (memory 256MB, temporary disk 1GB, 60 seconds, 100,000 list elements per chunk of rows): past a bound it is stopped with an error naming it. Returns { columns, rows, rowCount, more, nextOffset }: at most \`limit\` rows (default ${DEFAULT_ROWS}, at most ${MAX_ROWS}); pass nextOffset as \`offset\` for the rows after them (null: no more). Aggregate in SQL (GROUP BY, LIMIT) rather than paging through raw rows.`,
  input: {
    sql: z
      .string()
      .min(1)
      .max(20_000)
      .describe(
        'one SELECT statement, e.g. "SELECT search_query, sum(hits) AS hits FROM searches GROUP BY 1 ORDER BY 2 DESC LIMIT 20"',
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_ROWS)
      .default(DEFAULT_ROWS)
      .describe(`rows in this page (1-${MAX_ROWS}, default ${DEFAULT_ROWS})`),
    offset: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('rows of the result to skip: the nextOffset of the previous call; 0 (default) for the first page'),
  },
  annotations: { ...READ_ONLY, openWorldHint: false },
  async run(args, env) {
    const path = await env.analyticsDatabase();
    const { openForReading } = await import('../../analytics-store/read.js');
    const { MCP_QUERY_LIMITS } = await import('../../analytics-store/query-limits.js');
    const db = await openForReading(path, undefined, MCP_QUERY_LIMITS);
    try {
      const { runReadOnlyQuery } = await import('../../analytics-store/query.js');
      const { rowObject, uniqueNames } = await import('../../analytics-store/query-columns.js');
      const result = await runReadOnlyQuery(db.connection, args.sql, env.signal, MCP_QUERY_LIMITS);
      const names = uniqueNames(result.columns);
      const shownNames = names.map((name) => readerText(name, 100) ?? '');
      const rows: Array<Record<string, Cell>> = [];
      let seen = 0;
      let chars = 0;
      let more = false;
      // The result is read a chunk at a time, and no further than one row past the page.
      outer: for await (const chunk of result.chunks()) {
        env.signal.throwIfAborted();
        for (const cells of chunk) {
          if (seen++ < args.offset) continue;
          const row = rowObject(shownNames, cells.map(bounded));
          const size = JSON.stringify(row).length;
          if (rows.length === args.limit || (rows.length > 0 && chars + size > PAGE_CHARS)) {
            more = true;
            break outer;
          }
          rows.push(row);
          chars += size;
        }
      }
      return {
        database: path,
        columns: result.columns.map((column, i) => ({ name: shownNames[i], type: column.type })),
        rows,
        rowCount: rows.length,
        offset: args.offset,
        more,
        nextOffset: more ? args.offset + rows.length : null,
        readerText: readerTextNote(['text cells of rows (search terms, comments, questions, answers, page paths)']),
        next: more
          ? `more rows: call analytics_query with the same sql and offset ${args.offset + rows.length}, or narrow the query (GROUP BY, WHERE, LIMIT)`
          : 'that is every row of the result',
      };
    } finally {
      db.close();
    }
  },
  explain(error): ToolFailure | undefined {
    if (error instanceof NoDatabaseError) {
      return {
        message: error.message,
        next: 'there is nothing synced to query yet: ask the user to run `mint-admin analytics sync` (it reads the analytics API into the database), or use the analytics_* list tools, which ask the API directly',
      };
    }
    if (error instanceof DuckDbMissingError) {
      return {
        message: error.message,
        next: 'tell the user: install DuckDB as said above, then restart this MCP server; meanwhile the analytics_* list tools work without it',
      };
    }
    if (error instanceof DatabaseBusyError) {
      return {
        message: `the analytics database ${error.path} is being written by another process${error.holderPid ? ` (pid ${error.holderPid})` : ''}, most likely \`mint-admin analytics sync\`; nothing was read`,
        next: 'call analytics_query again once the sync has finished (a minute or a few)',
      };
    }
    if (error instanceof QueryLimitError) {
      return {
        message: error.message,
        next: 'nothing was returned: aggregate in SQL (GROUP BY, count, sum), filter with WHERE, cut lists with list_slice or LIMIT, then call again',
      };
    }
    if (error instanceof QueryRefusedError) {
      return {
        message: error.message,
        next: 'nothing ran: analytics_query only reads; rewrite it as one SELECT over the tables (SHOW TABLES, DESCRIBE <table> list them)',
      };
    }
    if (error instanceof InvalidQueryError) {
      return {
        message: error.message,
        next: 'fix the SQL (DuckDB dialect) and call again: SHOW TABLES and DESCRIBE <table> list the tables and their columns',
      };
    }
    return undefined;
  },
});

/** A cell as the agent sees it: text as reader text, lists cut, structs and maps field by field. */
function bounded(cell: Cell): Cell {
  if (typeof cell === 'string') return readerText(cell);
  if (Array.isArray(cell)) {
    const kept = cell.slice(0, LIST_ITEMS).map(bounded);
    return cell.length > LIST_ITEMS ? [...kept, `… ${cell.length - LIST_ITEMS} more`] : kept;
  }
  if (cell !== null && typeof cell === 'object') {
    const out: Record<string, Cell> = {};
    for (const [key, value] of Object.entries(cell).slice(0, LIST_ITEMS))
      out[readerText(key, 100) ?? ''] = bounded(value);
    return out;
  }
  return cell;
}
