// One tar unpacker through the guard (guard.ts), shared by the extraction from a file
// (extract-file.ts) and the live one (live-extraction.ts): refuses the whole archive at the first
// entry that breaks a rule, or the limits, and counts what it wrote.
import { resolve } from 'node:path';
import type { ReadEntry, Unpack } from 'tar';
import type { FileWriter } from './file-writer.js';
import { FreshTree } from './fresh-tree.js';
import { EntryGuard, type EntryInfo } from './guard.js';
import { FILE_LIKE, normalise, SITE_DIRECTORY_MODE } from './modes.js';
import { formatBytes } from './progress.js';
import { readPaxHeadersAhead } from './pax-ahead.js';
import { PlainEntryReader } from './plain-entries.js';
import { dropBytesAfterTheEnd, handsOverFiles, skipChecksOfAFreshDirectory } from './tar-internals.js';
import type { ArchiveSummary, ExtractionLimits } from './limits.js';

export { extractionLimits, type ArchiveSummary, type ExtractionLimits } from './limits.js';

/** One tar unpacker through the guard, and what it found: the refusal (if any) and the totals. */
export interface Extraction {
  /** tar's unpacker: a stream to pipe the archive into (the extraction from a file). */
  unpack: Unpack;
  /**
   * The extraction fed chunk by chunk (the live one): through the reader of plain entries when the
   * chunks are a tar stream (tuning.plainEntries), else tar's. False when tar queued the chunk.
   * Errors are tar's 'error' events on `unpack`, or thrown by the reader.
   */
  write(chunk: Buffer): boolean;
  /** Ends the stream fed by write(): resolves once everything is written (then check refusal()); throws where the reader saw the archive end badly. */
  end(): Promise<void>;
  /** Closes what the reader left open, when the extraction stops before its end. */
  abandon(): void;
  /** Entries the reader of plain entries extracted itself (plain-entries.ts). */
  plainEntriesRead: () => number;
  refusal: () => string | undefined;
  /** The size cap, when going past it is the refusal. */
  sizeLimit: () => number | undefined;
  summary: () => ArchiveSummary;
  /** PAX headers read ahead of tar's parser (pax-ahead.ts). */
  paxHeadersReadAhead: () => number;
}

export type Tar = typeof import('tar');

/** Ways of reading the archive that a test turns off to compare with tar's own (both must extract the same). */
export interface ExtractionTuning {
  /** PAX headers read ahead of tar's parser (pax-ahead.ts). */
  paxAhead: boolean;
  /**
   * Plain files and directories extracted by the reader of plain entries (plain-entries.ts), which
   * hands the rest to tar. Only for a tar stream fed by write(): tar sniffs and inflates a gzip
   * stream itself, the reader does not.
   */
  plainEntries?: boolean;
}

export function createExtraction(tar: Tar, dir: string, limits: ExtractionLimits & { now: number }, writer?: FileWriter, tuning: ExtractionTuning = { paxAhead: true }): Extraction {
  const guard = new EntryGuard();
  let refusal: string | undefined;
  let entries = 0;
  let bytes = 0;
  // A PAX header naming GNU.sparse.* keys makes the next entry a sparse file; tar would write its
  // sparse map as the content, so the entry is refused (see the filter).
  let sparseNext = false;
  const seen = new WeakSet<object>();
  /** The guard and the limits: tar's filter and the reader of plain entries both ask here. */
  const admit = (entry: EntryInfo): boolean => {
    refusal ??= guard.check(entry) ?? overLimit(entry, (entries += 1), (bytes += FILE_LIKE.has(entry.type) ? entry.size ?? 0 : 0), limits);
    return refusal === undefined;
  };
  // tar's synchronous unpacker, fed chunk by chunk: each chunk's entries are written with plain sync
  // calls (no thread-pool round trip per file system call, 2-3x faster for many small files), and
  // the event loop runs between chunks, so Ctrl-C is still seen within a chunk.
  const unpack: Unpack = tar.x({
    cwd: dir,
    sync: true,
    strict: true,
    // Ownership from the archive means nothing on the deploy host (and root would apply it).
    preserveOwner: false,
    // Directories the archive only implies (a file's parents with no entry of their own): tar's
    // default is 0777 less the umask.
    dmode: SITE_DIRECTORY_MODE,
    filter: (_path: string, entry: ReadEntry | import('node:fs').Stats) => {
      const read = entry as ReadEntry;
      seen.add(read);
      const sparse = sparseNext;
      sparseNext = false;
      if (refusal) return false;
      // From the first refusal on, nothing more is written and the rest is only read through.
      if (sparse) refusal = `entry ${JSON.stringify(read.path)} is a sparse file (PAX GNU.sparse), which mint-admin cannot extract with its real contents`;
      if (!admit(read)) return false;
      normalise(read, limits.now);
      return true;
    },
  });
  // Entries tar itself skips without asking the filter: types it does not know (GNU sparse 'S',
  // volume labels, multi-volume parts...) and oversized headers. Skipping one would install a site
  // with a file missing, so each refuses the archive by name.
  unpack.on('ignoredEntry', (entry: ReadEntry) => {
    if (seen.has(entry) || refusal) return;
    const key = (entry.header as { typeKey?: string } | undefined)?.typeKey ?? '?';
    refusal = `entry ${JSON.stringify(entry.path)} ${UNKNOWN_TYPES[entry.type] ?? `is a ${entry.type} entry (tar type '${key}'), which mint-admin does not extract`}`;
  });
  unpack.on('meta', (text: string) => {
    if (/(^|\n)\d+ GNU\.sparse\./.test(text)) sparseNext = true;
  });
  const internals = unpack as unknown as { dmode: number; umask: number; maxMetaEntrySize: number; maxDepth: number };
  const tree = new FreshTree(resolve(dir), internals.dmode, internals.umask);
  const handsOver = handsOverFiles(unpack) ? writer : undefined;
  const fresh = skipChecksOfAFreshDirectory(unpack, tree, handsOver);
  dropBytesAfterTheEnd(unpack);
  const paxAhead = tuning.paxAhead ? readPaxHeadersAhead(unpack, tar.Pax) : undefined;
  // Only beside tar's shortcut for a fresh directory: the two share what was made (fresh-tree.ts).
  const reader = tuning.plainEntries && fresh ? new PlainEntryReader(unpack, { tree, admit, now: limits.now, maxMetaBytes: internals.maxMetaEntrySize, maxDepth: internals.maxDepth, writer: handsOver }) : undefined;
  const endTar = () =>
    new Promise<void>((resolveEnd) => {
      // tar emits 'close' a microtask after the last entry is written.
      unpack.once('close', resolveEnd);
      unpack.once('error', () => resolveEnd());
      unpack.end();
    });
  return {
    unpack,
    write: (chunk) => (reader ? reader.write(chunk) : unpack.write(chunk)),
    end: async () => {
      if (!reader || reader.toTar) return endTar();
      reader.finish();
    },
    abandon: () => reader?.abandon(),
    refusal: () => refusal,
    sizeLimit: () => (refusal !== undefined && bytes > limits.maxBytes ? limits.maxBytes : undefined),
    summary: () => ({ files: guard.fileCount, bytes: guard.totalBytes }),
    paxHeadersReadAhead: () => paxAhead?.headersRead ?? 0,
    plainEntriesRead: () => reader?.entriesRead ?? 0,
  };
}

const UNKNOWN_TYPES: Record<string, string> = {
  SparseFile: 'is a GNU sparse file, which mint-admin cannot extract with its real contents',
  GNUDumpDir: 'is a GNU dump directory entry, which mint-admin does not extract',
  Unsupported: 'is of a tar entry type unknown to mint-admin, which it does not extract',
};

function overLimit(entry: EntryInfo, entries: number, bytes: number, limits: ExtractionLimits): string | undefined {
  // No flag named: the CLI words it with --max-size (commands/export/download.ts), a script with maxBytes.
  const raise = limits.given ? 'raise the size limit if it is expected' : 'if that is expected, allow a larger size (such as 5 GB)';
  if (bytes > limits.maxBytes) return `would make the bundle expand beyond ${formatBytes(limits.maxBytes)} (at entry ${JSON.stringify(entry.path)}); ${raise}`;
  if (entries > limits.maxEntries) return `would make the bundle hold more than ${limits.maxEntries.toLocaleString('en-US')} entries (at entry ${JSON.stringify(entry.path)})`;
  return undefined;
}
