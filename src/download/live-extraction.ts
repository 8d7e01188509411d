// Extraction from the download as it arrives: the unpacker (unpacker.ts) fed the archive's bytes in
// order, standing down at the first doubt so that the extraction from the file takes over.
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FileWriter } from './file-writer.js';
import { SITE_DIRECTORY_MODE } from './modes.js';
import type { ArchiveSummary, ExtractionLimits } from './limits.js';
import { createExtraction, type Extraction, type Tar } from './unpacker.js';

/**
 * What the download hands its bytes to as they arrive (downloadBundle): this thread's LiveExtraction,
 * or the same in a worker thread (extract-thread.ts). write() never throws; a returned promise asks
 * the download to wait before the next chunk (the worker is behind). finish() gives the totals of an
 * archive extracted whole, else undefined with nothing left in the directory; stop() ends it on any
 * other way out, and removes what it wrote unless finish() succeeded.
 */
export interface LiveConsumer {
  write(chunk: Buffer, offset: number): void | Promise<void>;
  finish(total: number): Promise<ArchiveSummary | undefined>;
  stop(): Promise<void>;
  /** Why it stood down, in a few words for --debug (the extraction from the file then says what went wrong); undefined while it has not. */
  readonly stoodDown: string | undefined;
  /** Entries extracted without tar's parser (plain-entries.ts), for --debug. */
  readonly entriesReadDirectly: number;
  /** Files written on the writer thread (file-writer.ts), for --debug. */
  readonly filesWrittenBehind: number;
}

/** Why a live extraction stands down, as --debug words it. */
export const STAND_DOWN = {
  gap: (offset: number, expected: number) => `the download went on from byte ${offset}, not ${expected} (a restart or a rewind): the bytes before it were not seen in order`,
  short: (fed: number, total: number) => `it saw ${fed} of the archive's ${total} bytes`,
  queued: "tar's unpacker held bytes back instead of writing them at once",
  writer: 'a file could not be written on the writer thread (or that thread ended)',
  refused: (reason: string) => `the archive is refused (${reason})`,
  broken: (message: string) => `the archive is not a readable tar stream (${message})`,
  stopped: 'the download ended first (a failure or Ctrl-C)',
} as const;

/**
 * Extraction from the download as it arrives (downloadBundle): the same unpacker and guard as
 * extractArchive, fed the bytes of the archive in order while they also go to the work file. It
 * only ever gives a result for an archive it saw whole and in order, from byte 0, with no failure;
 * anything else (a restart from zero or a rewind after a failed write, a refusal, a broken archive,
 * a full disk) makes it stand down and remove what it wrote, and the caller extracts from the
 * complete file as before, which then says exactly what went wrong. The refused entry itself is
 * never written either way: the guard decides before tar writes.
 */
export class LiveExtraction implements LiveConsumer {
  private extraction: Extraction | undefined;
  private fed = 0;
  private failed = false;
  private discarded = false;
  private completed = false;
  private why: string | undefined;

  private constructor(
    /** tar, or what loads it when the reader of plain entries first needs it (unpacker.ts). */
    private readonly tar: Tar | (() => Tar),
    private readonly dir: string,
    private readonly limits: () => (ExtractionLimits & { now: number }) | undefined,
    /** Writes the small fresh files on a thread of its own (file-writer.ts), in the extraction worker. */
    private readonly writer?: FileWriter,
    /** The chunks are a tar stream, already inflated (the extraction worker's): plain entries are read without tar (plain-entries.ts). */
    private readonly tarStream = false,
  ) {}

  /** Fed the gzip stream, on this thread: tar inflates it. `limits` is read at the first byte (the bundle's size is known by then). */
  static async create(dir: string, limits: () => (ExtractionLimits & { now: number }) | undefined): Promise<LiveExtraction> {
    return new LiveExtraction(await import('tar'), dir, limits);
  }

  /**
   * Fed the inflated tar stream, in the extraction worker: tar is loaded only if the reader of plain
   * entries hands it the stream, at that moment (synchronously, its CommonJS build).
   */
  static ofTarStream(dir: string, limits: () => (ExtractionLimits & { now: number }) | undefined, writer?: FileWriter): LiveExtraction {
    return new LiveExtraction(() => createRequire(import.meta.url)('tar') as Tar, dir, limits, writer, true);
  }

  /**
   * The archive's bytes from `offset`, as they arrive. Never throws: a failure only stands it down.
   * The synchronous unpacker writes each chunk's entries before write() returns, so nothing queues
   * in it (measured: not one of the 7,612 writes of a 500 MB bundle returned false, and its
   * leftover buffer stayed under 512 bytes). Should a tar release ever queue instead (write()
   * returning false), the live extraction stands down rather than hold chunks in memory, and the
   * extraction from the complete file takes over.
   */
  write(chunk: Buffer, offset: number): void {
    if (this.failed) return;
    if (offset !== this.fed) this.fail(STAND_DOWN.gap(offset, this.fed));
    else {
      try {
        this.extraction ??= this.begin();
        // Read first: the chunk's buffer may move to the writer thread (write-behind.ts).
        const length = chunk.length;
        const queued = this.extraction?.write(chunk) === false;
        this.fed += length;
        this.writer?.afterChunk();
        const refusal = this.extraction?.refusal();
        if (!this.extraction) this.fail(STAND_DOWN.refused('no limits for it yet'));
        else if (refusal) this.fail(STAND_DOWN.refused(refusal));
        else if (queued) this.fail(STAND_DOWN.queued);
        else if (this.writer?.ok === false) this.fail(STAND_DOWN.writer);
      } catch (error) {
        this.fail(STAND_DOWN.broken(messageOf(error)));
      }
    }
    // Removed at once, not at the end: a disk filled by a half-written tree would otherwise fail
    // the rest of the download with a misleading error instead of the extraction with "disk full".
    if (this.failed) this.discard();
  }

  /**
   * Ends the extraction of an archive of `total` bytes: its totals when all of it went through
   * here and was extracted, else undefined (and nothing of it is left in `dir`).
   */
  async finish(total: number): Promise<ArchiveSummary | undefined> {
    const extraction = this.extraction;
    if (!this.failed && extraction && this.fed === total) {
      try {
        await extraction.end();
        this.writer?.drain();
      } catch (error) {
        this.fail(STAND_DOWN.broken(messageOf(error)));
      }
      const refusal = extraction.refusal();
      if (refusal) this.fail(STAND_DOWN.refused(refusal));
      else if (this.writer?.ok === false) this.fail(STAND_DOWN.writer);
      if (!this.failed) {
        this.writer?.close();
        this.completed = true;
        return extraction.summary();
      }
    }
    this.fail(STAND_DOWN.short(this.fed, total));
    this.discard();
    return undefined;
  }

  get stoodDown(): string | undefined {
    return this.failed ? this.why : undefined;
  }

  get entriesReadDirectly(): number {
    return this.extraction?.plainEntriesRead() ?? 0;
  }

  get filesWrittenBehind(): number {
    return this.writer?.filesSent ?? 0;
  }

  /** False once it has stood down: nothing more it is given will be extracted. */
  get active(): boolean {
    return !this.failed;
  }

  /** Ends it wherever it is (a failure or Ctrl-C elsewhere): a tree it never completed is removed. */
  async stop(): Promise<void> {
    if (this.completed) return;
    this.fail(STAND_DOWN.stopped);
    this.discard();
  }

  /** Stands it down, keeping the first reason (what follows from it is not news). */
  private fail(why: string): void {
    this.why ??= why;
    this.failed = true;
  }

  private begin(): Extraction | undefined {
    const limits = this.limits();
    if (!limits) return undefined;
    mkdirSync(this.dir, { recursive: true, mode: SITE_DIRECTORY_MODE });
    const onTarError = (error: unknown) => this.fail(STAND_DOWN.broken(messageOf(error)));
    return createExtraction(this.tar, this.dir, limits, this.writer, { paxAhead: true, plainEntries: this.tarStream, onTarError });
  }

  private discard(): void {
    if (this.discarded) return;
    this.discarded = true;
    // Nothing may still be writing into the tree while it is removed.
    this.writer?.stop();
    this.extraction?.abandon();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
