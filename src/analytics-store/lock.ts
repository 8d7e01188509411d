// One sync per database at a time. DuckDB locks the file against other processes, but not against a
// second open in the same process (the library, the MCP server), so the sync also takes a lock file
// beside the database: O_EXCL, holding the pid (and its start time); one left by a dead process is
// taken over, also when its pid has come round again. Anything
// else at that path (a symbolic link, a directory, a FIFO) is refused, never followed or removed. A
// second sync waits a little for the first to finish, then refuses (DatabaseBusyError), never shares.
import { unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Clock } from '../clock.js';
import { makeDirectory } from '../make-directory.js';
import { holderAlive, lookAtLock, tryLockFile } from '../lock-file.js';
import { UsageError } from '../errors.js';
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
  makeDirectory(dirname(path), 0o700);
  for (;;) {
    const release = tryLockFile(lockPath);
    if (release) return release;
    const look = lookAtLock(lockPath);
    if (look.kind === 'gone') continue;
    // Planted by someone else (the database may sit in a shared directory): following it could
    // create or truncate a file elsewhere, or read a live pid as the holder; removing it would hide it.
    if (look.kind === 'other') {
      throw new UsageError(
        `the lock file ${lockPath} is ${look.what}, not a lock file mint-admin made: a sync neither follows it nor takes it over; remove it if nothing of yours put it there, then run the sync again`,
      );
    }
    const holder = look.holder;
    if (holder !== undefined && !holderAlive(lockPath, holder)) {
      try {
        unlinkSync(lockPath);
      } catch {
        // someone else took it over first
      }
      continue;
    }
    if (opts.clock.now() >= deadline) throw new DatabaseBusyError(path, holder?.pid);
    await opts.clock.sleep(200, opts.signal);
  }
}
