// Two patches to steps tar keeps private, each found by name and each optional: when a tar release
// renames a step the patch is not applied and extraction is merely slower (tests hold both to true
// for the tar in the lock file).
import { dirname } from 'node:path';
import type { ReadEntry } from 'tar';
import type { FileWriter } from './file-writer.js';
import type { FreshTree } from './fresh-tree.js';
import { HAND_OVER_MAX_BYTES } from './file-writer.js';
import { FILE_LIKE } from './modes.js';

type TarInternals = Record<symbol, (...args: unknown[]) => unknown> & { cwd: string; dmode: number; fmode: number; umask: number; noMtime?: boolean; transform?: unknown };

/**
 * tar checks every entry against the disk as if extracting over an existing tree: for a file at
 * depth d, d mkdir calls that fail with EEXIST (each a thrown error) plus d lstat calls to walk its
 * parents, then an lstat of the entry itself. Extraction here always goes into a fresh work
 * directory (mkdtemp, 0700: nothing in it but what this archive put there), and the guard refuses
 * any entry under an earlier link entry, so for a path no earlier entry had, none of that can find
 * anything: the parent is a directory this unpacker made (or the cwd) and the entry does not exist.
 * For such entries the parent's mkdir is done once per directory and the entry is made directly;
 * a path seen before (a duplicate, a file replacing a directory...) and the first entry (tar's own
 * cwd check) take tar's full path. tar keeps these steps behind module-private symbols, found by
 * name: if a tar release renames them this returns false and extraction is merely slower (a test
 * holds it to true for the tar in the lock file).
 *
 * Given a writer (file-writer.ts; the caller gives one only where handsOverFiles allows), a fresh
 * regular file small enough is written by it, on its own thread, and every entry tar handles itself
 * waits until those are on disk first, unless it is a fresh directory (which no file handed over can
 * be in the way of).
 */
export function skipChecksOfAFreshDirectory(unpack: object, tree: FreshTree, handOver?: FileWriter): boolean {
  const self = unpack as unknown as TarInternals;
  const find = (name: string): symbol | undefined => {
    for (let proto = Object.getPrototypeOf(unpack) as object | null; proto; proto = Object.getPrototypeOf(proto) as object | null) {
      const key = Object.getOwnPropertySymbols(proto).find((k) => k.description === name);
      if (key) return key;
    }
    return undefined;
  };
  const [CHECKFS, MAKEFS, MKDIR, ONERROR] = ['checkFs', 'makeFs', 'mkdir', 'onError'].map(find);
  if (!CHECKFS || !MAKEFS || !MKDIR || !ONERROR || self.cwd !== tree.cwd) return false;
  const checkFs = self[CHECKFS]!;
  self[CHECKFS] = function (this: TarInternals, ...args: unknown[]) {
    const entry = args[0] as ReadEntry;
    const absolute = String(entry.absolute);
    // tar's own first entry checks the directory itself.
    const first = !tree.started;
    const fresh = tree.claim(absolute) && !first;
    if (!fresh) {
      handOver?.drain();
      // tar may remove what is there (a directory replaced by a file): forget it as made.
      tree.forget(absolute);
      return checkFs.call(this, entry);
    }
    const parent = dirname(absolute);
    if (!tree.isMade(parent) && !tree.makeDirsDown(parent)) {
      const error = this[MKDIR]!.call(this, parent, this.dmode);
      if (error) return this[ONERROR]!.call(this, error, entry);
      tree.markMade(parent);
    }
    if (entry.type === 'Directory') tree.markMade(absolute);
    else if (handOver && FILE_LIKE.has(entry.type) && (entry.size ?? 0) <= HAND_OVER_MAX_BYTES && handOver.wants()) {
      const file = handOver.take(absolute, typeof entry.mode === 'number' ? entry.mode & 0o7777 : this.fmode, entry.atime, entry.mtime);
      entry.on('data', file.data);
      entry.on('end', file.end);
      return;
    } else if (!FILE_LIKE.has(entry.type)) handOver?.drain();
    return this[MAKEFS]!.call(this, null, entry);
  };
  return true;
}

/**
 * Whether a file may be written as tar would write it (its [FILE] step: its mode, times and no owner
 * change) by other code than tar's: not when tar options would do more (a transform, ownership, no
 * mtimes).
 */
export function handsOverFiles(unpack: object): boolean {
  const self = unpack as unknown as TarInternals;
  return !self.transform && !self.noMtime && !forcesOwner(self);
}

/**
 * After the two zero blocks that end a tar archive, tar keeps every further byte: each chunk is
 * concatenated with all the ones before it, so a gzip of zeros (an archive that ends at its first
 * block) took time quadratic in its size, and the memory of all of it, before the decompression
 * ratio could refuse it. Those bytes mean nothing (GNU tar ignores them too): from the end on, the
 * inflated chunks still pass tar's ratio check and are then dropped. tar keeps this step behind
 * module-private symbols, found by name: if a tar release renames them this returns false (a test
 * holds it to true for the tar in the lock file).
 */
export function dropBytesAfterTheEnd(unpack: object): boolean {
  const self = unpack as unknown as TarInternals;
  let consume: symbol | undefined;
  for (let proto = Object.getPrototypeOf(unpack) as object | null; proto && !consume; proto = Object.getPrototypeOf(proto) as object | null) {
    consume = Object.getOwnPropertySymbols(proto).find((k) => k.description === 'consumeChunk');
  }
  const sawEnd = Object.getOwnPropertySymbols(unpack).find((k) => k.description === 'sawEOF');
  const consumeChunk = consume && self[consume];
  if (!consume || !sawEnd || typeof consumeChunk !== 'function') return false;
  self[consume] = function (this: TarInternals, ...args: unknown[]) {
    // Without a chunk it is the end of the input, which tar still has to see.
    if (args[0] && (this as unknown as Record<symbol, unknown>)[sawEnd] === true) return;
    return consumeChunk.apply(this, args);
  };
  return true;
}

/** tar chowns each file when told to (preserveOwner, uid, gid) or when it must (forceChown). */
function forcesOwner(unpack: object): boolean {
  const options = unpack as { preserveOwner?: boolean; forceChown?: boolean; uid?: number; gid?: number };
  return Boolean(options.preserveOwner || options.forceChown || options.uid !== undefined || options.gid !== undefined);
}
