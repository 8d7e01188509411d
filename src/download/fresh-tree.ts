// What an extraction into a fresh work directory knows of the tree it is making: the paths entries
// have had (a path seen before may meet what an earlier entry made, so it takes tar's full checks)
// and the directories it made (nothing else can be in the way under them). Shared by the shortcut
// through tar's checks (tar-internals.ts) and the reader of plain entries (plain-entries.ts), so that
// an archive half read by one and finished by the other is judged as one.
import { constants, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** How a file is made at a path of the fresh tree: created, never opened, and never through a link (nothing can be there). */
export const FRESH_FILE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export class FreshTree {
  private readonly seen = new Set<string>();
  private readonly madeDirs: Set<string>;
  /** tar's mode for a directory it makes, and whether tar would chmod after mkdir (then the shortcut steps aside). */
  private readonly dirMode: number;
  private readonly tarWouldChmod: boolean;

  /** `cwd`: the extraction's directory, absolute; `dmode` and `umask`: tar's for the unpacker. */
  constructor(
    readonly cwd: string,
    dmode: number,
    umask: number,
  ) {
    this.madeDirs = new Set([cwd]);
    this.dirMode = dmode | 0o700;
    this.tarWouldChmod = (this.dirMode & umask) !== 0;
  }

  /**
   * Records the entry at `absolute` and says whether nothing can be there yet: a path no earlier
   * entry had (case and Unicode form folded, so that a path a case-insensitive disk would merge is
   * "seen"), other than the directory itself.
   */
  claim(absolute: string): boolean {
    const key = (ASCII.test(absolute) ? absolute : absolute.normalize('NFC')).toLowerCase();
    const fresh = !this.seen.has(key) && absolute !== this.cwd;
    this.seen.add(key);
    return fresh;
  }

  /** True once any entry was claimed (tar's own first entry checks the directory itself). */
  get started(): boolean {
    return this.seen.size > 0;
  }

  isMade(dir: string): boolean {
    return this.madeDirs.has(dir);
  }

  markMade(dir: string): void {
    this.madeDirs.add(dir);
  }

  /** tar may remove what is at a path it handles itself (a directory replaced by a file): forget it as made. */
  forget(dir: string): void {
    this.madeDirs.delete(dir);
  }

  /**
   * tar's mkdir tries every level from the cwd down and catches an EEXIST (a thrown error, with its
   * stack) for each one that is there. The levels this extraction made are known, so only the
   * missing ones are made, top down, with the mode tar would give them. False (tar's mkdir then does
   * it, and reports any error its way) when a level cannot be made so, or when tar would chmod after
   * mkdir. `mkdir` makes each level: by default at once, or listed for the writer thread to make in
   * order (write-behind.ts), which reports a failure its own way.
   */
  makeDirsDown(dir: string, mkdir: (level: string, mode: number) => void = mkdirSync): boolean {
    if (this.tarWouldChmod) return false;
    const missing: string[] = [];
    for (let level = dir; !this.madeDirs.has(level); level = dirname(level)) {
      if (!level.startsWith(`${this.cwd}/`)) return false;
      missing.push(level);
    }
    try {
      for (const level of missing.reverse()) {
        mkdir(level, this.dirMode);
        this.madeDirs.add(level);
      }
    } catch {
      return false;
    }
    return true;
  }
}

const ASCII = /^[\x00-\x7f]*$/;
