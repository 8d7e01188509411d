// The one lock-file primitive: a file created with O_EXCL (which never follows a link) holding the
// taker's pid, and the liveness check that decides whether a holder's lock is stale. The config file,
// the analytics database and the download's leftovers each decide for themselves how long to wait.
import { closeSync, constants, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';

/** Takes the lock at `lockPath`: its release, or undefined when another holds it (the file exists). */
export function tryLockFile(lockPath: string): (() => void) | undefined {
  let fd: number;
  try {
    fd = openSync(lockPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  writeFileSync(fd, String(process.pid));
  closeSync(fd);
  return () => {
    try {
      unlinkSync(lockPath);
    } catch {
      // someone judged it stale and took it over; nothing of ours to remove
    }
  };
}

/** The pid a lock file holds, or undefined while it is being written or cannot be read. */
export function lockHolder(lockPath: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8'));
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the process of this pid may still be working: ours, or a live one, even another user's (EPERM). */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
