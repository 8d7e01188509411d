// Modes and mtimes as a web root wants them, apart from the extraction so that the fetch and the
// install read them without loading it.
import type { ReadEntry } from 'tar';

/**
 * The modes of what a download makes for the site, whatever the archive says and whatever the
 * umask allows: a web root is never group or world writable (under `umask 000` a plain mkdir gave
 * 0777). A stricter umask still narrows them, as it does the files.
 */
export const SITE_DIRECTORY_MODE = 0o755;
export const SITE_FILE_MODE = 0o644;

/** The tar entry types written as regular files. */
export const FILE_LIKE = new Set(['File', 'OldFile', 'ContiguousFile']);

/**
 * Modes as a web root wants them whatever the archive says: files 0644 (0755 when executable),
 * directories 0755: never group or world writable, no setuid, setgid or sticky bits. An mtime in
 * the future (a wrong clock on the build host, or worse) becomes now: caches and rsync trust mtimes.
 */
export function normalise(entry: ReadEntry, now: number): void {
  if (entry.type === 'Directory') entry.mode = SITE_DIRECTORY_MODE;
  else if (FILE_LIKE.has(entry.type)) entry.mode = typeof entry.mode === 'number' && (entry.mode & 0o111) !== 0 ? 0o755 : SITE_FILE_MODE;
  else if (typeof entry.mode === 'number') entry.mode &= 0o755;
  if (entry.mtime && entry.mtime.getTime() > now) entry.mtime = new Date(now);
}
