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
  /**
   * tar's unpacker: a stream to pipe the archive into (the extraction from a file). Made on first
   * use: the reader of plain entries needs it only for an entry it cannot read itself.
   */
  readonly unpack: Unpack;
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

/**
 * tar's own defaults for what the reader of plain entries applies before tar's unpacker exists (its
 * largest extended header, its deepest path, its mode for the directories it makes and its umask,
 * which tar only reads from the process when it chmods), given to tar so that both apply the same:
 * an unpacker that reports others refuses to take the stream (a tar release that changed them).
 */
const TAR_SETTINGS = { maxMetaEntrySize: 1024 * 1024, maxDepth: 1024, dmode: SITE_DIRECTORY_MODE, umask: 0 } as const;

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
  /** Told of tar's errors, from when its unpacker is made (the live extraction stands down at one). */
  onTarError?: (error: unknown) => void;
}

/**
 * `tar`, or what loads it: with tuning.plainEntries it is loaded only when the reader hands tar the
 * stream, which an archive of plain files and directories never makes it do (loading tar cost ~50 ms
 * of the extraction worker's start, on the download's critical path).
 */
export function createExtraction(tar: Tar | (() => Tar), dir: string, limits: ExtractionLimits & { now: number }, writer?: FileWriter, tuning: ExtractionTuning = { paxAhead: true }): Extraction {
  const guard = new EntryGuard();
  let refusal: string | undefined;
  let entries = 0;
  let bytes = 0;
  /** The guard and the limits: tar's filter and the reader of plain entries both ask here. */
  const admit = (entry: EntryInfo): boolean => {
    refusal ??= guard.check(entry) ?? overLimit(entry, (entries += 1), (bytes += FILE_LIKE.has(entry.type) ? entry.size ?? 0 : 0), limits);
    return refusal === undefined;
  };
  const tree = new FreshTree(resolve(dir), TAR_SETTINGS.dmode, TAR_SETTINGS.umask);
  let made: ReturnType<typeof makeUnpacker> | undefined;
  const around: AroundTar = { dir, limits, tree, admit, writer, tuning, refused: () => refusal, refuse: (why) => (refusal ??= why) };
  const tarUnpacker = () => (made ??= makeUnpacker(typeof tar === 'function' ? tar() : tar, around));
  // The reader goes beside tar's shortcut for a fresh directory, sharing what was made (fresh-tree.ts).
  const reader = tuning.plainEntries
    ? new PlainEntryReader(
        {
          write: (chunk) => {
            const { unpack, fresh } = tarUnpacker();
            if (!fresh) throw new Error("tar's unpacker is not the one the reader of plain entries expects (a tar release changed its settings or its internals)");
            return unpack.write(chunk);
          },
        },
        { tree, admit, now: limits.now, maxMetaBytes: TAR_SETTINGS.maxMetaEntrySize, maxDepth: TAR_SETTINGS.maxDepth, writer },
      )
    : undefined;
  if (!reader) tarUnpacker();
  const endTar = () =>
    new Promise<void>((resolveEnd) => {
      const { unpack } = tarUnpacker();
      // tar emits 'close' a microtask after the last entry is written.
      unpack.once('close', resolveEnd);
      unpack.once('error', () => resolveEnd());
      unpack.end();
    });
  return {
    get unpack() {
      return tarUnpacker().unpack;
    },
    write: (chunk) => (reader ? reader.write(chunk) : tarUnpacker().unpack.write(chunk)),
    end: async () => {
      if (!reader || reader.toTar) return endTar();
      reader.finish();
    },
    abandon: () => reader?.abandon(),
    refusal: () => refusal,
    sizeLimit: () => (refusal !== undefined && bytes > limits.maxBytes ? limits.maxBytes : undefined),
    summary: () => ({ files: guard.fileCount, bytes: guard.totalBytes }),
    paxHeadersReadAhead: () => made?.paxAhead?.headersRead ?? 0,
    plainEntriesRead: () => reader?.entriesRead ?? 0,
  };
}

/** What tar's unpacker shares with the extraction it is made for. */
interface AroundTar {
  dir: string;
  limits: ExtractionLimits & { now: number };
  tree: FreshTree;
  admit: (entry: EntryInfo) => boolean;
  writer: FileWriter | undefined;
  tuning: ExtractionTuning;
  refused: () => string | undefined;
  refuse: (why: string) => void;
}

/** tar's unpacker through the guard, with the shortcuts of tar-internals.ts; `fresh`: tar skips the checks of a fresh directory (the reader of plain entries needs it). */
function makeUnpacker(tar: Tar, { dir, limits, tree, admit, writer, tuning, refused, refuse }: AroundTar): { unpack: Unpack; fresh: boolean; paxAhead: { headersRead: number } | undefined } {
  // A PAX header naming GNU.sparse.* keys makes the next entry a sparse file; tar would write its
  // sparse map as the content, so the entry is refused (see the filter).
  let sparseNext = false;
  const seen = new WeakSet<object>();
  // tar's synchronous unpacker, fed chunk by chunk: each chunk's entries are written with plain sync
  // calls (no thread-pool round trip per file system call, 2-3x faster for many small files), and
  // the event loop runs between chunks, so Ctrl-C is still seen within a chunk.
  const unpack: Unpack = tar.x({
    cwd: dir,
    sync: true,
    strict: true,
    // Ownership from the archive means nothing on the deploy host (and root would apply it).
    preserveOwner: false,
    // dmode: directories the archive only implies (a file's parents with no entry of their own),
    // where tar's default is 0777 less the umask.
    ...TAR_SETTINGS,
    filter: (_path: string, entry: ReadEntry | import('node:fs').Stats) => {
      const read = entry as ReadEntry;
      seen.add(read);
      const sparse = sparseNext;
      sparseNext = false;
      if (refused()) return false;
      // From the first refusal on, nothing more is written and the rest is only read through.
      if (sparse) refuse(`entry ${JSON.stringify(read.path)} is a sparse file (PAX GNU.sparse), which mint-admin cannot extract with its real contents`);
      if (!admit(read)) return false;
      normalise(read, limits.now);
      return true;
    },
  });
  if (tuning.onTarError) unpack.on('error', tuning.onTarError);
  // Entries tar itself skips without asking the filter: types it does not know (GNU sparse 'S',
  // volume labels, multi-volume parts...) and oversized headers. Skipping one would install a site
  // with a file missing, so each refuses the archive by name.
  unpack.on('ignoredEntry', (entry: ReadEntry) => {
    if (seen.has(entry) || refused()) return;
    const key = (entry.header as { typeKey?: string } | undefined)?.typeKey ?? '?';
    refuse(`entry ${JSON.stringify(entry.path)} ${UNKNOWN_TYPES[entry.type] ?? `is a ${entry.type} entry (tar type '${key}'), which mint-admin does not extract`}`);
  });
  unpack.on('meta', (text: string) => {
    if (/(^|\n)\d+ GNU\.sparse\./.test(text)) sparseNext = true;
  });
  const internals = unpack as unknown as typeof TAR_SETTINGS;
  const asGiven = (Object.keys(TAR_SETTINGS) as (keyof typeof TAR_SETTINGS)[]).every((key) => internals[key] === TAR_SETTINGS[key]);
  const handsOver = handsOverFiles(unpack) ? writer : undefined;
  const fresh = asGiven && skipChecksOfAFreshDirectory(unpack, tree, handsOver);
  dropBytesAfterTheEnd(unpack);
  const paxAhead = tuning.paxAhead ? readPaxHeadersAhead(unpack, tar.Pax) : undefined;
  return { unpack, fresh, paxAhead };
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
