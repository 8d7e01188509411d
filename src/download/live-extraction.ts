// The download's consumer: the archive's bytes, at their offsets, to one extraction once the first bytes say gzip. What
// the archive is goes by those bytes, not any name or Content-Type: anything but gzip (1f 8b) is named as well as the
// bytes allow, since each points at a different cause. A download that starts over from byte 0 starts the extraction
// over too, in an empty tree.
import { rmSync } from 'node:fs';
import { MintAdminError, RUN_AGAIN } from '../errors.js';
import { Extraction } from './extraction.js';
import type { ArchiveSummary, ExtractionLimits } from './limits.js';

/** Not gzip, named by what it is; `export download|run` say their own next step. */
export class NotGzipError extends MintAdminError {
  constructor(what: string) {
    const problem = `the downloaded bundle is ${what}, not a tar.gz archive (gzip data starts with the bytes 1f 8b); nothing was installed; if it persists, report it to Mintlify`;
    super(problem, { nextStep: RUN_AGAIN });
  }
}

/** One tar header: enough to tell an uncompressed tar by its `ustar` magic, and so to name what is not gzip. */
const HEAD_BYTES = 512;

export class LiveExtraction {
  private extraction: Extraction | undefined;
  /** The archive's first bytes (up to HEAD_BYTES). */
  private head = Buffer.alloc(0);
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
      throw new MintAdminError(problem, { nextStep: RUN_AGAIN });
    }
    this.fed += chunk.length;
    if (offset < HEAD_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - offset)]);
    const head = this.head;
    // Not gzip: named by its first bytes once there are enough of them, or at the end (finish). A lone first byte
    // that may start gzip goes to zlib, which waits for the second.
    if (head[0] !== 0x1f || (head.length > 1 && head[1] !== 0x8b))
      return head.length >= HEAD_BYTES ? Promise.reject(new NotGzipError(describe(head))) : undefined;
    this.extraction ??= new Extraction(this.tree, this.limits());
    return this.extraction.write(chunk);
  }

  /** The end of the download: the totals of an archive extracted whole, or its failure. */
  async finish(): Promise<ArchiveSummary> {
    if (!isGzip(this.head)) throw new NotGzipError(describe(this.head));
    this.extraction ??= new Extraction(this.tree, this.limits());
    return this.extraction.finish();
  }

  /** Stops it wherever it is (a failure or Ctrl-C elsewhere): nothing more is written. */
  abandon(): void {
    this.extraction?.abandon();
  }

  private startOver(): void {
    this.abandon();
    this.extraction = undefined;
    this.head = Buffer.alloc(0);
    this.fed = 0;
    rmSync(this.tree, { recursive: true, force: true });
  }
}

function isGzip(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

function describe(head: Buffer): string {
  const starts = (magic: string) => head.toString('latin1', 0, magic.length) === magic;
  if (head.length === 0) return 'empty (0 bytes)';
  if (starts('PK\x03\x04') || starts('PK\x05\x06')) return 'a zip archive';
  if (head.subarray(257, 262).toString('latin1') === 'ustar') return 'an uncompressed tar archive';
  // trimStart() drops a leading byte order mark too (U+FEFF is white space to JavaScript).
  const text = head.toString('utf8').trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html'))
    return 'an HTML page (an error page from the storage or a proxy?)';
  if (text.startsWith('<?xml') || text.startsWith('<error')) return 'an XML document (a storage error message?)';
  if (text.startsWith('{') || text.startsWith('[')) return 'JSON (an error message?)';
  if (starts('BZh')) return 'a bzip2 stream';
  if (starts('\xfd7zXZ\x00')) return 'an xz stream';
  if (starts('\x28\xb5\x2f\xfd')) return 'a zstd stream';
  const hex = [...head.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  return `not gzip data (it starts with the bytes ${hex})`;
}
