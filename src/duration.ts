import { UsageError } from './errors.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * The longest wait that can be timed. Node's timers hold at most 2^31-1 ms (about 24.8 days) and fire
 * at once beyond it (a TimeoutOverflowWarning), which turned `--timeout 597h` into an immediate exit 5
 * and a long `--interval` into a poll without pause. A round 596 hours leaves room for the grace a
 * wait adds to its deadline (wait.ts).
 */
export const LONGEST_WAIT_MS = 596 * UNIT_MS.h!;

/**
 * Parses `90s`, `5m`, `1h30m`, `250ms` or a plain number of seconds (`45`, `0.5`) into milliseconds,
 * at most LONGEST_WAIT_MS. `flag` names the option in the error so the user knows which value to fix.
 */
export function parseDuration(text: string, flag: string): number {
  const ms = millisecondsIn(text.trim());
  if (ms === undefined)
    throw new UsageError(`${flag}: "${text}" is not a duration; use e.g. 90s, 5m, 1h30m or a number of seconds`);
  checkWaitLength(ms, `${flag}: "${text}"`);
  return ms;
}

/** Refuses a wait no timer can hold; `what` opens the message (`--timeout: "597h"`, `timeoutMs: 1e12`). */
export function checkWaitLength(ms: number, what: string): void {
  // !(ms <= max) also refuses NaN.
  if (!(ms <= LONGEST_WAIT_MS))
    throw new UsageError(`${what} is longer than a wait can be timed; the most is 596h (about 24.8 days)`);
}

function millisecondsIn(text: string): number | undefined {
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return undefined;
  return Math.round(parts.reduce((sum, [, n, unit]) => sum + Number(n) * (UNIT_MS[unit!] ?? 0), 0));
}

/** A short human form: 45s, 2m05s, 1h02m. */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}

const DAY_MS = 86_400_000;

/**
 * `try again in 30m00s (after 2026-11-22T12:30:00.000Z)`. A server may name a time so far off that no
 * Date can hold it (Retry-After: 100000000000000000000); that still reads as a time, never a crash.
 */
export function retryWhen(retryAt: number, now: number): string {
  const ms = Math.max(0, retryAt - now);
  const span = ms >= 2 * DAY_MS ? `${Math.floor(ms / DAY_MS)} days` : formatDuration(ms);
  const at = new Date(retryAt);
  return `try again in ${span}${Number.isNaN(at.getTime()) ? '' : ` (after ${at.toISOString()})`}`;
}
