// The local ledger of analytics requests: one small append-only file per key and base URL, under
// $XDG_STATE_HOME/mint-admin/ (0700; the file 0600), named by a hash of both, never the key itself.
// Each line is one request's time, or `R <time>` for a 429's Retry-After. Appends of a line are atomic,
// so processes sharing a key need no lock to count; the file is compacted to the last hour now and then.
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  closeSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { MAX_RETRY_AFTER_MS } from '../api/limits.js';
import { ANALYTICS_BUDGET, type RequestLedger } from '../api/request-ledger.js';
import { makeDirectory } from '../make-directory.js';

export interface LedgerState {
  /** Requests sent in the hour before `now`, oldest first. */
  recent: number[];
  /** The latest Retry-After still in the future, if any. */
  retryAfter: number | undefined;
}

/** $XDG_STATE_HOME/mint-admin, else ~/.local/state/mint-admin. */
export function stateDirectory(env: Record<string, string | undefined>): string {
  const xdg = env.XDG_STATE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'state'), 'mint-admin');
}

export function ledgerPath(env: Record<string, string | undefined>, baseUrl: string, apiKey: string): string {
  const id = createHash('sha256')
    .update(`${baseUrl.replace(/\/+$/, '')}\n${apiKey}`)
    .digest('hex')
    .slice(0, 24);
  return join(stateDirectory(env), 'analytics-requests', `${id}.log`);
}

const COMPACT_AFTER_LINES = 2000;

export class FileRequestLedger implements RequestLedger {
  constructor(readonly path: string) {}

  record(at: number): void {
    this.append(`${at}\n`);
  }

  recordRetryAfter(until: number): void {
    this.append(`R ${until}\n`);
  }

  /** What the ledger holds for the hour before `now`. */
  read(now: number): LedgerState {
    const lines = this.lines();
    const recent: number[] = [];
    let retryAfter: number | undefined;
    for (const line of lines) {
      if (line.startsWith('R ')) {
        const until = Number(line.slice(2));
        // Past the longest believable wait it was stored by an older version (or the clock went back):
        // ignored, so such a line cannot hold every later run back for years.
        if (until > now + MAX_RETRY_AFTER_MS) continue;
        if (until > now && (retryAfter === undefined || until > retryAfter)) retryAfter = until;
        continue;
      }
      const at = Number(line);
      if (Number.isFinite(at) && at > now - ANALYTICS_BUDGET.windowMs && at <= now) recent.push(at);
    }
    recent.sort((a, b) => a - b);
    if (lines.length > COMPACT_AFTER_LINES) this.compact(recent, retryAfter);
    return { recent, retryAfter };
  }

  /**
   * Forgets the hour's count and any held wait (`analytics budget --reset`), for a user who knows the
   * API's own count is other than this machine's. The API's limit still holds: a 429 is recorded again.
   */
  reset(): void {
    try {
      const fd = openSync(this.path, 'r+');
      try {
        ftruncateSync(fd, 0);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  private lines(): string[] {
    try {
      return readFileSync(this.path, 'utf8').split('\n').filter(Boolean);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  private append(line: string): void {
    try {
      appendFileSync(this.path, line, { mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return; // counting must never stop a request
      try {
        makeDirectory(join(this.path, '..'), 0o700);
        appendFileSync(this.path, line, { mode: 0o600 });
      } catch {
        // a read-only home: the budget is then only what this run counts itself
      }
    }
  }

  /** Rewrites the file to what still counts; a line appended meanwhile by another process may be lost (a slight undercount, bounded by the sync's own count). */
  private compact(recent: number[], retryAfter: number | undefined): void {
    const temp = `${this.path}.${process.pid}.tmp`;
    try {
      const fd = openSync(temp, 'w', 0o600);
      writeFileSync(fd, recent.map((t) => `${t}\n`).join('') + (retryAfter ? `R ${retryAfter}\n` : ''));
      closeSync(fd);
      chmodSync(temp, 0o600);
      renameSync(temp, this.path);
    } catch {
      // compaction is an optimisation only
    }
  }
}

/** The ledger for one key and base URL. */
export function fileRequestLedger(
  env: Record<string, string | undefined>,
  baseUrl: string,
  apiKey: string,
): FileRequestLedger {
  return new FileRequestLedger(ledgerPath(env, baseUrl, apiKey));
}
