import { createHmac } from 'node:crypto';
import type { SearchesPage, SearchTerm } from '../api/types.js';
import { HttpError, type Reply } from './http-util.js';
import { aggregate, generateSearchData, type TermData } from './search-data.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

interface Filter {
  from: number | null;
  to: number | null;
}

export class SearchService {
  private readonly data: TermData[];
  // Paging through a big data set asks for the same range over and over; aggregate it once.
  private cached: { key: string; terms: SearchTerm[]; total: number } | undefined;

  constructor(
    count: number,
    seed: number,
    private readonly cursorSecret: string,
    dataEnd?: number,
  ) {
    this.data = generateSearchData(count, seed, dataEnd);
  }

  allTerms(): SearchTerm[] {
    return this.aggregateCached({ from: null, to: null }).terms;
  }

  list(query: URLSearchParams): Reply {
    const problems: string[] = [];
    const filter: Filter = {
      from: parseDate(query.get('dateFrom'), 'dateFrom', problems),
      to: parseDate(query.get('dateTo'), 'dateTo', problems),
    };
    const limit = parseLimit(query.get('limit'), problems);
    if (filter.from !== null && filter.to !== null && filter.from >= filter.to) {
      problems.push('dateFrom must be before dateTo (dateTo is exclusive)');
    }
    if (problems.length > 0) throw invalid('Invalid query parameters', problems);
    const cursor = query.get('cursor');
    const offset = cursor === null ? 0 : this.decodeCursor(cursor, filter);

    const { terms, total } = this.aggregateCached(filter);
    const end = offset + limit;
    const page: SearchesPage = {
      searches: terms.slice(offset, end),
      totalSearches: total,
      nextCursor: end < terms.length ? this.encodeCursor(end, filter) : null,
    };
    return { status: 200, body: page };
  }

  private aggregateCached(filter: Filter): { terms: SearchTerm[]; total: number } {
    const key = `${filter.from}|${filter.to}`;
    if (this.cached?.key !== key) {
      this.cached = { key, ...aggregate(this.data, filter.from ?? -Infinity, filter.to ?? Infinity) };
    }
    return this.cached;
  }

  /** Opaque to clients, but carries the filter it was made for and a MAC, so edits are caught. */
  private encodeCursor(offset: number, filter: Filter): string {
    const fields = { o: offset, f: filter.from, t: filter.to };
    return Buffer.from(JSON.stringify({ ...fields, s: this.mac(fields) })).toString('base64url');
  }

  private decodeCursor(cursor: string, filter: Filter): number {
    let decoded: { o?: unknown; f?: unknown; t?: unknown; s?: unknown };
    try {
      if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
      decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as typeof decoded;
    } catch {
      throw invalid('Invalid cursor', ['cursor is not one this service returned']);
    }
    const { o, f, t, s } = decoded ?? {};
    if (typeof o !== 'number' || s !== this.mac({ o, f, t })) {
      throw invalid('Invalid cursor', ['cursor is not one this service returned']);
    }
    if (f !== filter.from || t !== filter.to) {
      throw invalid('Invalid cursor', [
        'cursor was issued for a different dateFrom/dateTo; repeat the same filters on every page',
      ]);
    }
    return o;
  }

  private mac(fields: { o: unknown; f: unknown; t: unknown }): string {
    return createHmac('sha256', this.cursorSecret)
      .update(JSON.stringify([fields.o, fields.f, fields.t]))
      .digest('base64url')
      .slice(0, 16);
  }
}

function invalid(error: string, messages: string[]): HttpError {
  return new HttpError(400, error, { details: messages.map((message) => ({ message })) });
}

function parseLimit(text: string | null, problems: string[]): number {
  if (text === null) return DEFAULT_LIMIT;
  const limit = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    problems.push(`limit must be an integer from 1 to ${MAX_LIMIT}, got "${text}"`);
    return DEFAULT_LIMIT;
  }
  return limit;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** `YYYY-MM-DD` (UTC midnight) or an ISO 8601 date-time; no offset means UTC, not server-local. */
export function parseDate(text: string | null, name: string, problems: string[]): number | null {
  if (text === null) return null;
  const m = DATE_ONLY.exec(text) ?? DATE_TIME.exec(text);
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m ?? [];
  const valid =
    m !== null &&
    Number(mo) >= 1 &&
    Number(mo) <= 12 &&
    Number(d) >= 1 &&
    Number(d) <= new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate() &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 60;
  if (!valid) {
    problems.push(`${name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time, got "${text}"`);
    return null;
  }
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const millis = frac.slice(1, 4).padEnd(3, '0');
  const time = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${millis}${offset}`);
  if (Number.isNaN(time)) problems.push(`${name} has an invalid time zone offset, got "${text}"`);
  return Number.isNaN(time) ? null : time;
}
