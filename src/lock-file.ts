// The one lock-file primitive: a file created with O_EXCL (which never follows a link) holding the
// taker's pid and, where /proc tells it, when that process started; a look at what holds the path that
// never follows one either; and the check that decides whether a holder's lock is stale. The config
// file and the analytics database each decide for themselves how long to wait.
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { resolve } from 'node:path';

/** The lock paths this process holds: a lock naming our pid that is not one of them is a dead run's. */
const heldHere = new Set<string>();

/** Takes the lock at `lockPath`: its release, or undefined when another holds it (the file exists). */
export function tryLockFile(lockPath: string): (() => void) | undefined {
  let fd: number;
  try {
    fd = openSync(
      lockPath,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  const start = startTimeOf(process.pid);
  writeFileSync(fd, start === undefined ? String(process.pid) : `${process.pid} ${start}`);
  closeSync(fd);
  const key = resolve(lockPath);
  heldHere.add(key);
  return () => {
    heldHere.delete(key);
    try {
      unlinkSync(lockPath);
    } catch {
      // someone judged it stale and took it over; nothing of ours to remove
    }
  };
}

/** Who a lock file names: a pid, and when that process started where the taker could tell. */
export interface LockHolder {
  pid: number;
  start: string | undefined;
}

/** A lock file's text as its holder; undefined while it is being written, or for text no lock holds. */
export function parseHolder(text: string): LockHolder | undefined {
  const match = /^(\d{1,10})(?: (\d{1,20}))?\n?$/.exec(text);
  const pid = Number(match?.[1]);
  return match && Number.isSafeInteger(pid) && pid > 0 ? { pid, start: match[2] } : undefined;
}

/**
 * Whether the holder of the lock at `lockPath` may still be working. Pids come round again (a kill -9
 * leaves the lock; in a container node is PID 1 on every start), so our own pid counts only for a lock
 * this process took, and a live pid only when it started when the holder did (where both are known).
 */
export function holderAlive(lockPath: string, holder: LockHolder): boolean {
  if (holder.pid === process.pid) return heldHere.has(resolve(lockPath));
  if (!processAlive(holder.pid)) return false;
  const start = holder.start === undefined ? undefined : startTimeOf(holder.pid);
  return start === undefined || start === holder.start;
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); undefined without /proc. */
function startTimeOf(pid: number): string | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses: count from after its last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start !== undefined && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

/** What stands at a lock path that could not be created. */
export type LockLook =
  /** A lock file: who it names, or undefined while it is being written or cannot be read. */
  | { kind: 'file'; holder: LockHolder | undefined }
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
    const bytes = Buffer.alloc(40);
    return { kind: 'file', holder: parseHolder(bytes.toString('utf8', 0, readSync(fd, bytes, 0, bytes.length, 0))) };
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
