// How a list export speaks on stderr. Every analytics list counts the organization's 100 hourly
// analytics requests aloud; `searches list` keeps the words it had before the analytics group
// existed (its footer counts searches, not requests). One engine, so only the words differ.
import { shellCommand } from '../shell.js';
import type { ListResult } from '../../list-export/options.js';
import type { ListExportOptions } from '../../list-export/options.js';

export interface ListVoice<Page extends object> {
  /** The progress line: `fetching <this>: 200 so far (page 2)`. */
  fetching: string;
  /** The items as a full disk's message counts them: "it holds the 100 <this> written before". */
  counted: string;
  /** What was written before an early stop: `stopped after <this>; ...`. */
  stoppedAfter(result: ListResult<Page>): string;
  /** Where a resume carries on: `To carry on from <this> (...)`. */
  nextOne: string;
  /** The line after the data (not after a JSON document). */
  footer(result: ListResult<Page>, opts: ListExportOptions): string;
  /** Say how many analytics requests the run used (--debug; and after a JSON export of every page). */
  countsRequests: boolean;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function requestsUsed(requests: number): string {
  return `${plural(requests, 'analytics request', 'analytics requests')} used (the organization shares 100 an hour)`;
}

/** An analytics list's words: every message counts its requests against the hourly limit. */
export function analyticsVoice<Page extends object>(noun: string): ListVoice<Page> {
  return {
    fetching: noun,
    counted: noun,
    stoppedAfter: (r) =>
      `${r.items} ${noun} (${plural(r.pages, 'page', 'pages')}, ${plural(r.requests, 'analytics request', 'analytics requests')})`,
    nextOne: 'the next row',
    footer: (r, opts) => analyticsFooter(noun, r, opts),
    countsRequests: true,
  };
}

/** The stderr line after the data: what was written, the requests it cost, and how to get more. */
export function analyticsFooter(noun: string, result: ListResult, opts: ListExportOptions): string {
  const verb = opts.output === undefined ? 'Showing' : 'Wrote';
  const into = opts.output === undefined ? '' : ` to ${opts.output}`;
  const used = requestsUsed(result.requests);
  if (result.next !== null) {
    const more =
      result.next.offset !== undefined
        ? ['--offset', String(result.next.offset)]
        : ['--cursor', result.next.cursor ?? ''];
    return `${verb} ${result.items} ${noun}${into}; ${used}; more: ${shellCommand(more)} (or --all)`;
  }
  return `${verb} ${result.items} ${noun}${into}, the last of the range; ${used}`;
}
