// One sync per database at a time. DuckDB locks the file against other processes, but not against a
// second open in the same process (the library, the MCP server), so the sync also takes a lock file
// beside the database: O_EXCL, holding the pid; one left by a dead process is taken over. A second
// sync waits a little for the first to finish, then refuses (DatabaseBusyError), never shares.
import { closeSync, constants, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Clock } from '../clock.js';
import { DatabaseBusyError } from './errors.js';

export interface LockOptions {
  clock: Clock;
  /** How long to wait for another sync to finish before refusing. */
  waitMs?: number;
  signal?: AbortSignal | undefined;
}

export async function lockDatabase(path: string, opts: LockOptions): Promise<() => void> {
  const lockPath = `${path}.lock`;
  const deadline = opts.clock.now() + (opts.waitMs ?? 5000);
  // The database's directory, made as openAnalyticsDb would (0700), so the lock can sit beside it.
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  for (;;) {
    try {
      const fd = openSync(lockPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(lockPath);
        } catch {
          // taken over as stale; nothing of ours to remove
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(lockPath);
    if (holder !== undefined && !isAlive(holder)) {
      try {
        unlinkSync(lockPath);
      } catch {
        // someone else took it over first
      }
      continue;
    }
    if (opts.clock.now() >= deadline) throw new DatabaseBusyError(path, holder);
    await opts.clock.sleep(200, opts.signal);
  }
}

function holderOf(lockPath: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
