// The bounds of a caller's query. DuckDB's own are most of the machine (memory 80% of RAM, temporary
// files 90% of the free disk) and no time limit at all, and the rows it returns are turned into
// JavaScript values that can be many times their size in DuckDB (a list of numbers becomes an array
// of strings). So every query runs under a memory, temporary-disk and time bound, and a chunk of rows
// is measured before it is converted. The MCP server's are tighter: an agent's query runs inside a
// long-lived process on the user's machine, and it asks again in other words rather than wait.
import { UsageError } from '../errors.js';

export interface QueryLimits {
  /** DuckDB's memory_limit, as DuckDB writes sizes ("1GB"). */
  readonly memory: string;
  /** DuckDB's max_temp_directory_size: what a sort or join that does not fit in memory may spill. */
  readonly temporaryDisk: string;
  readonly threads: number;
  /** How long the query may run, its rows streamed included. */
  readonly timeMs: number;
  /** List, array, map and struct elements one chunk of rows (DuckDB's vector, ~2048 rows) may hold. */
  readonly chunkElements: number;
}

export const CLI_QUERY_LIMITS: QueryLimits = {
  memory: '2GB',
  temporaryDisk: '8GB',
  threads: 2,
  timeMs: 10 * 60_000,
  chunkElements: 1_000_000,
};
export const MCP_QUERY_LIMITS: QueryLimits = {
  memory: '256MB',
  temporaryDisk: '1GB',
  threads: 1,
  timeMs: 60_000,
  chunkElements: 100_000,
};

export type QueryBound = 'memory' | 'temporary disk' | 'time' | 'result size';

/** The query went past one of its bounds and was stopped: nothing it returned was kept. */
export class QueryLimitError extends UsageError {
  constructor(
    readonly bound: QueryBound,
    /** The bound in words ("2GB", "10 minutes", "1,000,000 list elements in one chunk of rows"). */
    readonly limit: string,
  ) {
    super(
      `the query was stopped at its ${bound} bound (${limit}): narrow it (WHERE, GROUP BY, LIMIT, fewer or smaller lists) and run it again`,
    );
  }
}

/** DuckDB's "Out of Memory Error" as the bound it hit, or undefined for any other error. */
export function boundOf(error: unknown, limits: QueryLimits): QueryLimitError | undefined {
  const message = error instanceof Error ? error.message : String(error);
  if (!/^Out of Memory Error/.test(message)) return undefined;
  if (/max_temp_directory_size|temp(orary)? directory/i.test(message))
    return new QueryLimitError('temporary disk', limits.temporaryDisk);
  return new QueryLimitError('memory', limits.memory);
}

export function timeBound(limits: QueryLimits): QueryLimitError {
  const seconds = limits.timeMs / 1000;
  const words =
    seconds >= 60 && seconds % 60 === 0
      ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}`
      : `${seconds} second${seconds === 1 ? '' : 's'}`;
  return new QueryLimitError('time', words);
}

export function resultSizeBound(limits: QueryLimits): QueryLimitError {
  return new QueryLimitError(
    'result size',
    `${limits.chunkElements.toLocaleString('en-US')} list, map or struct elements in one chunk of rows`,
  );
}
