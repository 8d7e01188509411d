// Input read whole (a prompt, a key from stdin) is read only up to a bound: a file of many megabytes, or
// /dev/zero, which never ends, was read into memory before anything could say it was too much.
import { open } from 'node:fs/promises';

/** More bytes arrived than the reader may hold; nothing of them is used. */
export class InputTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
  }
}

/** Collects chunks up to `maxBytes`; throws InputTooLarge at the first byte past it. */
export class BoundedBytes {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  add(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.size += bytes.length;
    if (this.size > this.maxBytes) throw new InputTooLarge(this.maxBytes);
    this.chunks.push(bytes);
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** A file's text, read in pieces (a device may have no size and no end), at most `maxBytes`. */
export async function readFileBounded(path: string, maxBytes: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const into = new BoundedBytes(maxBytes);
    const piece = Buffer.alloc(64 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(piece, 0, piece.length, null);
      if (bytesRead === 0) return into.text();
      into.add(Buffer.from(piece.subarray(0, bytesRead)));
    }
  } finally {
    await handle.close();
  }
}
