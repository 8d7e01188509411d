// One sync per database at a time. DuckDB locks the file against other processes, but not against a
// second open in the same process (the library, the MCP server), so the sync also takes a lock file
// beside the database: O_EXCL, holding the pid; one left by a dead process is taken over. A second
// sync waits a little for the first to finish, then refuses (DatabaseBusyError), never shares.
import { unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Clock } from '../clock.js';
import { makeDirectory } from '../make-directory.js';
import { lockHolder, processAlive, tryLockFile } from '../lock-file.js';
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
    const holder = lockHolder(lockPath);
    if (holder !== undefined && !processAlive(holder)) {
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
