// Writes tar archives byte by byte, so tests can build the entries a careful packer would refuse to
// produce or would sanitize: `../x`, absolute paths, links out of the tree, FIFOs, devices.
import { gzipSync } from 'node:zlib';

export type RawEntry =
  | { type: 'file'; path: string; content?: string | Buffer; mode?: number; mtime?: number }
  | { type: 'dir'; path: string; mode?: number }
  | { type: 'symlink' | 'hardlink'; path: string; target: string }
  | { type: 'fifo' | 'chardev' | 'blockdev'; path: string }
  /** Any type flag, e.g. 'x' for a PAX header (content: paxRecords(...)) or 'V' for a volume label. */
  | { type: 'raw'; flag: string; path: string; content?: string | Buffer };

/** PAX extended header records: `<length> key=value\n`, the length counting itself. */
export function paxRecords(records: Record<string, string>): string {
  return Object.entries(records)
    .map(([key, value]) => {
      const body = ` ${key}=${value}\n`;
      let length = Buffer.byteLength(body) + 1;
      while (String(length).length + Buffer.byteLength(body) !== length) length++;
      return `${length}${body}`;
    })
    .join('');
}

const TYPE_FLAGS = {
  file: '0',
  hardlink: '1',
  symlink: '2',
  chardev: '3',
  blockdev: '4',
  dir: '5',
  fifo: '6',
} as const;
const BLOCK = 512;

function field(block: Buffer, offset: number, length: number, value: string): void {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > length) throw new Error(`tar-evil: "${value}" does not fit in ${length} bytes`);
  bytes.copy(block, offset);
}

function octal(block: Buffer, offset: number, length: number, value: number): void {
  field(block, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

function header(entry: RawEntry, size: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  field(block, 0, 100, entry.path);
  const mode = 'mode' in entry && entry.mode !== undefined ? entry.mode : entry.type === 'dir' ? 0o755 : 0o644;
  octal(block, 100, 8, mode);
  octal(block, 108, 8, 0);
  octal(block, 116, 8, 0);
  octal(block, 124, 12, size);
  octal(
    block,
    136,
    12,
    Math.floor(('mtime' in entry && entry.mtime !== undefined ? entry.mtime : Date.UTC(2026, 0, 1)) / 1000),
  );
  block.fill(' ', 148, 156);
  field(block, 156, 1, entry.type === 'raw' ? entry.flag : TYPE_FLAGS[entry.type]);
  if (entry.type === 'symlink' || entry.type === 'hardlink') field(block, 157, 100, entry.target);
  field(block, 257, 6, 'ustar\0');
  field(block, 263, 2, '00');
  let sum = 0;
  for (const byte of block) sum += byte;
  field(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** An uncompressed tar of the entries, in order, with the two zero blocks at the end. */
export function rawTar(entries: RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const content = entry.type === 'file' || entry.type === 'raw' ? Buffer.from(entry.content ?? '') : Buffer.alloc(0);
    parts.push(header(entry, content.length), content);
    const padding = (BLOCK - (content.length % BLOCK)) % BLOCK;
    if (padding) parts.push(Buffer.alloc(padding));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

export function rawTarGz(entries: RawEntry[]): Buffer {
  return gzipSync(rawTar(entries));
}
