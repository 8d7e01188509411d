// The report as data: what `analytics report` computes from the local database, before any format.
// Every renderer (md, json, slack) reads this object and nothing else. Text here that readers typed
// (search terms, assistant questions, categories) and page paths is as stored, only bounded in
// length (text.ts); each renderer escapes it for its own format.
import type { DateRange, PeriodKind } from './period.js';

export interface Change {
  current: number;
  previous: number;
  /** current - previous. */
  change: number;
  /** The change as a percentage of the previous period; null when the previous period had none. */
  changePercent: number | null;
}

export interface SearchChange {
  query: string;
  /** Searches (hits) this period and the one before. */
  current: number;
  previous: number;
  change: number;
}

export interface ZeroClickSearch {
  query: string;
  /** Searches this period, none of which led to a click. */
  hits: number;
}

export interface UnansweredCategory {
  /** The assistant's category; "(uncategorised)" when it gave none. */
  category: string;
  current: number;
  previous: number;
  /** Up to three of this period's questions, newest first. */
  examples: string[];
}

export interface PageThumbsDown {
  path: string;
  current: number;
  previous: number;
}

export interface TrafficTrend {
  human: Change;
  ai: Change;
  total: Change;
}

export interface Report {
  period: PeriodKind;
  current: DateRange;
  previous: DateRange;
  /**
   * Days of each period that \`analytics sync\` has read whole for every table the report sums (searches,
   * views, visitors, feedback by page; complete in sync_state): a period half synced reads as such.
   */
  daysSynced: {
    current: number;
    previous: number;
    ofDays: { current: number; previous: number };
    /** Each table not read whole for both periods (conversations included), with its days read of each: exactly what is partial. */
    partial: Array<{ table: string; current: number; previous: number }>;
  };
  /**
   * How visitors were counted in each period: `day`, unique per page and day, summed over the days; `period`,
   * unique per page over the whole period (the sync read it at once), which is lower by the visitors who came back.
   */
  visitorsCounted: { current: 'day' | 'period'; previous: 'day' | 'period' };
  searches: {
    total: Change;
    rising: SearchChange[];
    falling: SearchChange[];
    /** Searched this period with no click, and not a no-click search in the period before. */
    newZeroClick: ZeroClickSearch[];
  };
  unanswered: { total: Change; byCategory: UnansweredCategory[] };
  thumbsDown: PageThumbsDown[];
  views: TrafficTrend;
  /** Unique visitors per day, summed over the period's days (a visitor on two days counts twice). */
  visitors: TrafficTrend;
}

/** How many entries each list of the report holds at most. */
export const REPORT_LIMITS = { searches: 10, zeroClick: 10, categories: 10, examples: 3, pages: 10 } as const;
