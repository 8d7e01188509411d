// This run's share of the organization's hourly analytics budget: at most `maxRequests` of its own,
// and never more than the ledger allows (every mint-admin command's analytics requests of the last
// hour, this run's included, under the documented 100), and nothing while a 429's Retry-After runs.
import { ANALYTICS_BUDGET } from '../../api/request-ledger.js';

export interface LedgerReader {
  read(now: number): { recent: number[]; retryAfter: number | undefined };
}

export type BudgetStop =
  /** --max-requests spent: the next run may continue at once, within the hour's budget. */
  | { reason: 'run-budget'; nextAt: number }
  /** The local count of the last hour reached the organization's limit. */
  | { reason: 'hourly-budget'; nextAt: number }
  /**
   * The API said to come back later (429 Retry-After). `held`: said to an earlier command, and kept on
   * this machine (the ledger), so this run sent nothing.
   */
  | { reason: 'rate-limited'; nextAt: number; held?: boolean };

export class RequestBudget {
  private sent = 0;
  constructor(
    readonly maxRequests: number,
    private readonly ledger: LedgerReader | undefined,
    private readonly limit: number = ANALYTICS_BUDGET.requests,
  ) {}

  get spent(): number {
    return this.sent;
  }

  /** Why no request may be sent now, or undefined when one may. */
  check(now: number): BudgetStop | undefined {
    const { recent, retryAfter } = this.ledger?.read(now) ?? { recent: [], retryAfter: undefined };
    // A ledger that cannot be written (read-only home) still has this run's own count.
    const used = Math.max(recent.length, this.sent);
    // When the next request may go: a slot frees up when the request `limit` places back leaves the hour.
    const hourFull = used >= this.limit;
    const freesAt = hourFull ? (recent[recent.length - this.limit] ?? now) + ANALYTICS_BUDGET.windowMs : now;
    const nextAt = Math.max(freesAt, retryAfter ?? now);
    if (retryAfter !== undefined && retryAfter > now) return { reason: 'rate-limited', nextAt, held: true };
    if (this.sent >= this.maxRequests) return { reason: 'run-budget', nextAt };
    if (hourFull) return { reason: 'hourly-budget', nextAt };
    return undefined;
  }

  /** Requests of the organization's hourly budget not yet spent on this machine (0 while a Retry-After runs). */
  left(now: number): number {
    const { recent, retryAfter } = this.ledger?.read(now) ?? { recent: [], retryAfter: undefined };
    if (retryAfter !== undefined && retryAfter > now) return 0;
    return Math.max(0, this.limit - Math.max(recent.length, this.sent));
  }

  /** One request is about to be sent (the transport records it in the ledger itself). */
  spend(): void {
    this.sent++;
  }
}
