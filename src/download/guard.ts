// Which archive entries may be extracted. An archive that breaks a rule is refused whole, not quietly rewritten: a
// docs bundle has no reason to hold any of these, so one that does is damaged or hostile. The rules, and why they
// keep every write and every link inside the directory:
// - paths are relative and have no `..`;
// - no entry goes under an earlier link entry (`a` -> /tmp, then `a/x`), so each lands inside real directories;
// - a symlink target is leading `..` then plain names, not climbing above the directory: resolution goes up through
//   real directories only, and each link met on the way down obeys the same rule, so no chain ends up outside;
// - a hard link points at an earlier regular file (one to a symlink would copy its text where it means otherwise);
// - devices, FIFOs, sparse files and other special entries are refused; the types that cannot be extracted as they
//   are (a sparse file) or are unknown are refused before their path is looked at.
import { FILE_TYPES } from './tar-reader.js';

const SPECIAL_NAMES: Record<string, string> = {
  CharacterDevice: 'a character device',
  BlockDevice: 'a block device',
  FIFO: 'a FIFO',
};
const GUARDED = new Set([...FILE_TYPES, 'Directory', 'SymbolicLink', 'Link', ...Object.keys(SPECIAL_NAMES)]);
const NOT_EXTRACTED: Record<string, string> = {
  SparseFile: 'is a GNU sparse file, which mint-admin cannot extract with its real contents',
  GNUDumpDir: 'is a GNU dump directory entry, which mint-admin does not extract',
  Unsupported: 'is of a tar entry type unknown to mint-admin, which it does not extract',
};

/** The parts of an entry the guard looks at (tar-reader.ts's TarEntry has them). */
export interface EntryInfo {
  path: string;
  type: string;
  /** The type's flag as written, and whether PAX GNU.sparse keys made the body a sparse map. */
  typeKey?: string;
  sparse?: boolean;
  linkpath?: string | undefined;
  size: number;
}

export class EntryGuard {
  /** Paths of symlinks and hard links, case-folded so `A` -> x then `a/y` is caught on macOS too. */
  private readonly links = new Set<string>();
  /** Regular files (and hard links to them) by path, with their sizes: the totals we report. */
  private readonly files = new Map<string, number>();

  /** Why the entry is refused, or undefined when it may be extracted. */
  check(entry: EntryInfo): string | undefined {
    const reason = notExtracted(entry) ?? this.refusal(entry);
    return reason === undefined ? undefined : `entry ${JSON.stringify(entry.path)} ${reason}`;
  }

  get fileCount(): number {
    return this.files.size;
  }

  get totalBytes(): number {
    return [...this.files.values()].reduce((sum, size) => sum + size, 0);
  }

  private refusal(entry: EntryInfo): string | undefined {
    const parts = splitPath(entry.path);
    if (typeof parts === 'string') return parts;
    const key = parts.join('/');
    if (key === '') return entry.type === 'Directory' ? undefined : 'has no name';
    const through = this.linkAbove(parts);
    if (through) return `is inside ${JSON.stringify(through)}, which is a link`;

    if (entry.type === 'Directory') {
      this.files.delete(key);
      return undefined;
    }
    if (FILE_TYPES.has(entry.type)) {
      this.files.set(key, entry.size);
      return undefined;
    }
    if (entry.type === 'SymbolicLink') {
      const reason = symlinkRefusal(parts, entry.linkpath ?? '');
      if (reason) return reason;
      this.files.delete(key);
      this.links.add(fold(key));
      return undefined;
    }
    if (entry.type === 'Link') {
      const reason = this.hardLinkRefusal(entry.linkpath ?? '');
      if (reason) return reason;
      this.files.set(key, this.files.get(pathKey(entry.linkpath ?? ''))!);
      this.links.add(fold(key));
      return undefined;
    }
    return `is ${SPECIAL_NAMES[entry.type]}; only files, directories and links are allowed`;
  }

  /** The nearest proper ancestor of the path that an earlier entry made a link, if any. */
  private linkAbove(parts: string[]): string | undefined {
    if (this.links.size === 0) return undefined;
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      if (this.links.has(fold(prefix))) return prefix;
    }
    return undefined;
  }

  private hardLinkRefusal(target: string): string | undefined {
    const parts = splitPath(target);
    if (typeof parts === 'string' || parts.length === 0)
      return `is a hard link to ${JSON.stringify(target)}, outside the bundle`;
    if (this.linkAbove(parts)) return `is a hard link through another link (${JSON.stringify(target)})`;
    if (!this.files.has(parts.join('/')))
      return `is a hard link to ${JSON.stringify(target)}, which is not an earlier file of the bundle`;
    return undefined;
  }
}

function notExtracted({ type, typeKey, sparse }: EntryInfo): string | undefined {
  if (sparse) return 'is a sparse file (PAX GNU.sparse), which mint-admin cannot extract with its real contents';
  if (GUARDED.has(type)) return undefined;
  return NOT_EXTRACTED[type] ?? `is a ${type} entry (tar type '${typeKey}'), which mint-admin does not extract`;
}

/** Path components without `.` and empty ones, or why the path is refused. */
export function splitPath(path: string): string[] | string {
  if (path.includes('\0')) return 'has a NUL byte in its name';
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return 'has an absolute path';
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  // A backslash is a separator on Windows, so `a\..\b` counts as climbing there.
  if (parts.some((part) => part.split('\\').includes('..'))) return "has a '..' component";
  return parts;
}

/** The path of an admitted entry (or of a hard link's target) as the guard keys it: its components joined by `/`. */
export function pathKey(path: string): string {
  return (splitPath(path) as string[]).join('/');
}

function symlinkRefusal(parts: string[], target: string): string | undefined {
  const quoted = JSON.stringify(target);
  if (target === '') return 'is a symlink with an empty target';
  if (target.includes('\0')) return 'is a symlink with a NUL byte in its target';
  if (target.startsWith('/') || target.startsWith('\\') || /^[A-Za-z]:/.test(target))
    return `is a symlink to an absolute path (${quoted})`;
  const steps = target.split('/').filter((step) => step !== '' && step !== '.');
  if (steps.some((step) => step !== '..' && step.split('\\').includes('..')))
    return `is a symlink with '..' inside a name (${quoted})`;
  const ups = steps.findIndex((step) => step !== '..');
  const climb = ups === -1 ? steps.length : ups;
  if (steps.slice(climb).includes('..')) return `is a symlink whose target goes down then up (${quoted})`;
  // The link's own directory is parts.length - 1 levels below the top.
  if (climb > parts.length - 1) return `is a symlink pointing outside the bundle (${quoted})`;
  return undefined;
}

function fold(path: string): string {
  return path.normalize('NFC').toLowerCase();
}
