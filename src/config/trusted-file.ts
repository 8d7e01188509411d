// The config file on disk, held to ssh's standard: it holds the admin key and names the server the
// key is sent to, so whoever can change it can steer the key. The file and its directory must be
// ours, not symbolic links, and not writable by group or others; anything else is refused before it
// is read. Reads are one open(O_NOFOLLOW) + fstat, no lock. Writes never follow a link: they take a
// lock file (O_EXCL), re-read under it, write a fresh 0600 file (O_EXCL | O_NOFOLLOW) and rename it
// over config.json, so concurrent `config set` lose nothing and a reader sees the old or the new file.
//
// (This replaces conf's write path: conf follows a symlinked config.json, keeps an existing file's
// mode under SNAP, and has no lock, so two concurrent writes lost one value.)
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../errors.js';
import { holderAlive, parseHolder, tryLockFile } from '../lock-file.js';
import { makeDirectory } from '../make-directory.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** A lock older than this is from a run that died mid-write (a write takes milliseconds). */
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 15_000;

/** The JSON text of the config file, or undefined when there is none; refuses an untrusted file. */
export function readTrusted(directory: string, path: string): string | undefined {
  if (!checkDirectory(directory)) return undefined;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || isLink(path)) throw linkRefused('file', path);
    throw new ConfigError(`cannot read the config file ${path}: ${(error as Error).message}`);
  }
  try {
    checkOwnership('file', path, fstatSync(fd));
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Runs `update` on the current text under the lock and writes what it returns (undefined: no
 * change). Creates the directory 0700 when missing. Returns whether anything was written.
 */
export async function updateTrusted(
  directory: string,
  path: string,
  update: (text: string | undefined) => string | undefined,
): Promise<boolean> {
  try {
    makeDirectory(directory, 0o700);
  } catch (error) {
    throw new ConfigError(
      `cannot create the config directory ${directory} (${(error as NodeJS.ErrnoException).code ?? 'error'}); set XDG_CONFIG_HOME to a directory you can write to`,
    );
  }
  checkDirectory(directory);
  const release = await lock(`${path}.lock`);
  try {
    const next = update(readTrusted(directory, path));
    if (next === undefined) return false;
    writeFresh(path, next);
    return true;
  } finally {
    release();
  }
}

/** false when the directory does not exist; throws when it exists and is not to be trusted. */
function checkDirectory(directory: string): boolean {
  let info: Stats;
  try {
    info = lstatSync(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new ConfigError(`cannot read the config directory ${directory}: ${(error as Error).message}`);
  }
  if (info.isSymbolicLink()) throw linkRefused('directory', directory);
  if (!info.isDirectory()) throw new ConfigError(`the config directory ${directory} is not a directory; remove it`);
  checkOwnership('directory', directory, info);
  return true;
}

function checkOwnership(which: 'file' | 'directory', path: string, info: Stats): void {
  const uid = process.getuid?.();
  if (uid === undefined) return; // Windows: no POSIX owners or modes to check
  if (info.uid !== uid) {
    throw new ConfigError(
      `the config ${which} ${path} belongs to uid ${info.uid}, not to you (uid ${uid}); remove it, or give it to yourself with chown`,
    );
  }
  if ((info.mode & 0o022) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(3, '0');
    throw new ConfigError(
      `the config ${which} ${path} is writable by others (mode 0${mode}); run \`chmod ${which === 'file' ? 600 : 700} ${path}\``,
    );
  }
}

function linkRefused(which: 'file' | 'directory', path: string): ConfigError {
  const fix =
    which === 'file' ? 'replace it with a regular file (or remove it)' : 'replace it with a real directory (mode 0700)';
  return new ConfigError(
    `the config ${which} ${path} is a symbolic link; mint-admin does not follow links for its config: ${fix}`,
  );
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A new file beside config.json, exactly 0600 whatever the umask, renamed over it (which replaces a link, never follows it). */
function writeFresh(path: string, text: string): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeFileSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, path);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    try {
      unlinkSync(temp);
    } catch {
      // never created or already renamed
    }
    throw new ConfigError(`cannot write the config file ${path}: ${(error as Error).message}`);
  }
}

/** An O_EXCL lock file holding our pid; one left by a dead process (or a very old one) is taken over. */
async function lock(lockPath: string): Promise<() => void> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    let release: (() => void) | undefined;
    try {
      release = tryLockFile(lockPath);
    } catch (error) {
      throw new ConfigError(`cannot lock the config file (${lockPath}): ${(error as Error).message}`);
    }
    if (release) return release;
    if (removeIfStale(lockPath)) continue;
    if (Date.now() - started > LOCK_WAIT_MS) {
      throw new ConfigError(
        `the config file is locked by another mint-admin (${lockPath}); try again, or remove that file if no mint-admin is running`,
      );
    }
    await sleep(5 + Math.min(attempt, 10) * 5);
  }
}

function removeIfStale(lockPath: string): boolean {
  try {
    const info = statSync(lockPath);
    const holder = parseHolder(readFileSync(lockPath, 'utf8'));
    const fresh = Date.now() - info.mtimeMs < STALE_LOCK_MS;
    // An empty file is a lock being written right now.
    if (fresh && (holder === undefined || holderAlive(lockPath, holder))) return false;
    unlinkSync(lockPath);
    return true;
  } catch {
    return false;
  }
}
