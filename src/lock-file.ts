// The one lock-file primitive: a file created with O_EXCL (which never follows a link) holding the
// taker's pid, a look at what holds the path that never follows one either, and the liveness check that decides whether a holder's lock is stale. The config file,
// the analytics database and the download's leftovers each decide for themselves how long to wait.
import { closeSync, constants, fstatSync, openSync, readSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';

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

/** What stands at a lock path that could not be created. */
export type LockLook =
  /** A lock file: the pid it holds, or undefined while it is being written or cannot be read. */
  | { kind: 'file'; holder: number | undefined }
  /** Released between our attempt and this look. */
  | { kind: 'gone' }
  /** Something no mint-admin made (a symbolic link, a directory, a FIFO): never followed, read or removed. */
  | { kind: 'other'; what: string };

/**
 * Looks at what holds the lock path without following a link planted there (O_NOFOLLOW: its target
 * could hold any pid, or be a FIFO whose open never returns) and without blocking on a FIFO
 * (O_NONBLOCK); reads at most a pid's worth of bytes.
 */
export function lookAtLock(lockPath: string): LockLook {
  let fd: number;
  try {
    fd = openSync(lockPath, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'gone' };
    if (code === 'ELOOP' || code === 'EMLINK') return { kind: 'other', what: 'a symbolic link' };
    return { kind: 'file', holder: undefined };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { kind: 'other', what: kindOf(info) };
    const bytes = Buffer.alloc(24);
    const pid = Number(bytes.toString('utf8', 0, readSync(fd, bytes, 0, bytes.length, 0)));
    return { kind: 'file', holder: Number.isSafeInteger(pid) && pid > 0 ? pid : undefined };
  } catch {
    return { kind: 'file', holder: undefined };
  } finally {
    closeSync(fd);
  }
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  return 'a device';
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
