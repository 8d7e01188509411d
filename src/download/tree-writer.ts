// Writes the admitted entries into the fresh work directory with plain synchronous calls. Only an earlier entry of the
// same archive (a duplicate path) can be in the way: it is removed and the entry written again, as tar does. The
// guard made sure no entry goes through a link.
import {
  closeSync,
  constants,
  futimesSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { SITE_DIRECTORY_MODE, SITE_FILE_MODE } from './limits.js';
import type { TarEntry } from './tar-reader.js';

/** Created, never opened: nothing of ours can be there, and never through a link. */
const NEW_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export class TreeWriter {
  /** Directories known to exist (made here, or the root). */
  private readonly made: Set<string>;
  /** Directory mtimes, set at the end (writing into a directory changes its mtime). */
  private readonly dirTimes: [string, number][] = [];
  private fd: number | undefined;
  private mtime = 0;
  private path = '';

  constructor(
    private readonly root: string,
    /** Now on the download's clock: a later mtime becomes this. */
    private readonly now: number,
  ) {
    mkdirSync(root, { recursive: true, mode: SITE_DIRECTORY_MODE });
    this.made = new Set([root]);
  }

  /** Starts an admitted entry at `key` (the guard's path: components joined by `/`, '' for the root). */
  entry(entry: TarEntry, key: string, linkKey: string): void {
    this.path = entry.path;
    if (key === '') return;
    const path = `${this.root}/${key}`;
    this.mtime = Math.min(entry.mtime, this.now) / 1000;
    try {
      this.makeDirs(dirname(path));
      switch (entry.type) {
        case 'Directory':
          this.makeDir(path);
          this.dirTimes.push([path, this.mtime]);
          return;
        case 'SymbolicLink':
          this.replacing(path, () => symlinkSync(entry.linkpath, path));
          return;
        case 'Link':
          this.replacing(path, () => linkSync(`${this.root}/${linkKey}`, path));
          return;
        default: {
          const mode = (entry.mode & 0o111) !== 0 ? 0o755 : SITE_FILE_MODE;
          this.fd = this.replacing(path, () => openSync(path, NEW_FILE, mode));
        }
      }
    } catch (error) {
      throw this.named(error);
    }
  }

  body(chunk: Buffer): void {
    if (this.fd === undefined) return;
    try {
      for (let at = 0; at < chunk.length; ) at += writeSync(this.fd, chunk, at, chunk.length - at);
    } catch (error) {
      throw this.named(error);
    }
  }

  end(): void {
    const fd = this.fd;
    if (fd === undefined) return;
    this.fd = undefined;
    try {
      futimesSync(fd, this.mtime, this.mtime);
    } catch (error) {
      throw this.named(error);
    } finally {
      closeSync(fd);
    }
  }

  /** The archive is complete: the directories take their own mtimes, deepest first. */
  finish(): void {
    for (let i = this.dirTimes.length - 1; i >= 0; i--) {
      const [path, mtime] = this.dirTimes[i]!;
      utimesSync(path, mtime, mtime);
    }
  }

  /** Closes a file left open by an extraction that stops half way. */
  abandon(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Runs `make`; when an earlier entry left something at `path`, removes it and runs `make` again. */
  private replacing<T>(path: string, make: () => T): T {
    try {
      return make();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      this.remove(path);
      return make();
    }
  }

  private makeDir(path: string): void {
    if (this.made.has(path)) return;
    try {
      mkdirSync(path, SITE_DIRECTORY_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!lstatSync(path).isDirectory()) {
        this.remove(path);
        mkdirSync(path, SITE_DIRECTORY_MODE);
      }
    }
    this.made.add(path);
  }

  private makeDirs(dir: string): void {
    if (this.made.has(dir)) return;
    const missing: string[] = [];
    for (let level = dir; !this.made.has(level); level = dirname(level)) missing.push(level);
    for (let i = missing.length - 1; i >= 0; i--) this.makeDir(missing[i]!);
  }

  /** What an earlier entry made at `path` goes (a directory with all it holds). */
  private remove(path: string): void {
    rmSync(path, { recursive: true, force: true });
    for (const dir of this.made) if (dir === path || dir.startsWith(`${path}/`)) this.made.delete(dir);
  }

  /** A failure to write, with the entry it happened at (extraction.ts writeError words it). */
  private named(error: unknown): unknown {
    if (error && typeof error === 'object') Object.assign(error, { entry: { path: this.path } });
    return error;
  }
}
