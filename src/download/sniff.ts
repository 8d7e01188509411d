// What an archive is, by its first bytes, not any name or Content-Type: only a gzip stream (1f 8b) goes on to
// extraction, and anything else is named as well as the bytes allow, since each points at a different cause.
import { MintAdminError } from '../errors.js';

/** Not gzip, named by what it is; `export download|run` say their own next step (withoutNextStep). */
export class NotGzipError extends MintAdminError {
  constructor(what: string) {
    const problem = `the downloaded bundle is ${what}, not a tar.gz archive (gzip data starts with the bytes 1f 8b); nothing was installed; if it persists, report it to Mintlify`;
    super(`${problem}; run the command again`, { withoutNextStep: problem });
  }
}

/** One tar header: enough to tell an uncompressed tar by its `ustar` magic. */
const HEAD_BYTES = 512;

export async function checkArchiveHead(head: Buffer): Promise<void> {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return;
  throw new NotGzipError(describeBytes(head));
}

/** The first bytes of an archive, taken from chunks at their offsets (a restart from 0 replaces them). */
export class ArchiveHead {
  private head = Buffer.alloc(0);

  take(chunk: Buffer, offset: number): void {
    if (offset >= HEAD_BYTES) return;
    this.head = Buffer.concat([this.head.subarray(0, offset), chunk.subarray(0, HEAD_BYTES - offset)]);
  }

  get bytes(): Buffer {
    return this.head;
  }
}

function describeBytes(head: Buffer): string {
  if (head.length === 0) return 'empty (0 bytes)';
  if (
    head.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1')) ||
    head.subarray(0, 4).equals(Buffer.from('PK\x05\x06', 'latin1'))
  )
    return 'a zip archive';
  if (head.subarray(257, 262).toString('latin1') === 'ustar') return 'an uncompressed tar archive';
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html'))
    return 'an HTML page (an error page from the storage or a proxy?)';
  if (text.startsWith('<?xml') || text.startsWith('<error')) return 'an XML document (a storage error message?)';
  if (text.startsWith('{') || text.startsWith('[')) return 'JSON (an error message?)';
  if (head.subarray(0, 3).equals(Buffer.from('BZh', 'latin1'))) return 'a bzip2 stream';
  if (head.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) return 'an xz stream';
  if (head.subarray(0, 4).equals(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]))) return 'a zstd stream';
  const hex = [...head.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  return `not gzip data (it starts with the bytes ${hex})`;
}
