// The --wait / --timeout / --interval flags shared by agent and export commands.
import type { Command } from 'commander';
import { parseDuration } from '../duration.js';
import { UsageError } from '../errors.js';

export interface WaitFlags {
  wait?: boolean;
  timeout: string;
  interval: string;
}

export interface WaitSettings {
  wait: boolean;
  timeoutMs: number;
  intervalMs: number;
}

export const DEFAULT_TIMEOUT = '30m';
export const DEFAULT_INTERVAL = '5s';

export function addWaitOptions(command: Command, what: string): Command {
  return command
    .option('--wait', `wait until ${what}`)
    .option('--timeout <duration>', 'give up waiting after this long (90s, 5m, 1h30m)', DEFAULT_TIMEOUT)
    .option('--interval <duration>', 'first poll interval; it grows gently from there', DEFAULT_INTERVAL);
}

/** Validates the flags before anything is sent. */
export function parseWaitFlags(flags: WaitFlags): WaitSettings {
  const timeoutMs = parseDuration(flags.timeout, '--timeout');
  const intervalMs = parseDuration(flags.interval, '--interval');
  if (timeoutMs <= 0) throw new UsageError('--timeout must be longer than zero');
  if (intervalMs < 100) throw new UsageError('--interval must be at least 100ms');
  return { wait: Boolean(flags.wait), timeoutMs, intervalMs };
}
