// The download's consumer: the archive's bytes, at their offsets, to one extraction once the first bytes say gzip
// (sniff.ts). A download that starts over from byte 0 starts the extraction over too, in an empty tree.
import { rmSync } from 'node:fs';
import { MintAdminError } from '../errors.js';
import { Extraction } from './extraction.js';
import type { ArchiveSummary, ExtractionLimits } from './limits.js';
import { ArchiveHead, checkArchiveHead } from './sniff.js';

/** Bytes enough to name what a stream that is not gzip is (sniff.ts). */
const SNIFF_BYTES = 512;

export class LiveExtraction {
  private extraction: Extraction | undefined;
  private head = new ArchiveHead();
  /** Chunks that came before the first two bytes were known (a body of one-byte chunks). */
  private held: Buffer[] = [];
  private fed = 0;

  constructor(
    readonly tree: string,
    /** Read at the first byte: the bundle's size is known by then. */
    private readonly limits: () => ExtractionLimits & { now: number },
  ) {}

  /** The archive's bytes from `offset`; rejects (or throws) when the archive is refused, broken or not writable. */
  write(chunk: Buffer, offset: number): Promise<void> | undefined {
    if (offset === 0 && this.fed > 0) this.startOver();
    if (offset !== this.fed) {
      const problem = `the download went on from byte ${offset}, not ${this.fed}`;
      throw new MintAdminError(`${problem}; run the command again`, { withoutNextStep: problem });
    }
    this.fed += chunk.length;
    this.head.take(chunk, offset);
    const head = this.head.bytes;
    if (head.length < 2) {
      this.held.push(chunk);
      return undefined;
    }
    // Not gzip: named by its first bytes once there are enough of them, or at the end (finish).
    if (head[0] !== 0x1f || head[1] !== 0x8b) return head.length >= SNIFF_BYTES ? checkArchiveHead(head) : undefined;
    const extraction = (this.extraction ??= new Extraction(this.tree, this.limits()));
    if (this.held.length > 0) {
      const held = Buffer.concat([...this.held, chunk]);
      this.held = [];
      return extraction.write(held);
    }
    return extraction.write(chunk);
  }

  /** The end of the download: the totals of an archive extracted whole, or its failure. */
  async finish(): Promise<ArchiveSummary> {
    await checkArchiveHead(this.head.bytes);
    if (!this.extraction) this.extraction = new Extraction(this.tree, this.limits());
    return this.extraction.finish();
  }

  /** Stops it wherever it is (a failure or Ctrl-C elsewhere): nothing more is written. */
  abandon(): void {
    this.extraction?.abandon();
  }

  private startOver(): void {
    this.abandon();
    this.extraction = undefined;
    this.head = new ArchiveHead();
    this.held = [];
    this.fed = 0;
    rmSync(this.tree, { recursive: true, force: true });
  }
}
