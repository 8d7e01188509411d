// The inflater that writes straight into the extraction worker's batch buffers (batch-inflater.ts),
// against zlib's own gunzip: the same bytes in the same order however the archive is cut and however
// the batches are taken, the same failures, and a stop when its consumer says so.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createUnzip, gzipSync, gunzipSync } from 'node:zlib';
import { BatchInflater } from '../../src/download/batch-inflater.js';

const BATCH = 64 * 1024;

/** Random text-like and incompressible bytes: both block kinds deflate makes. */
function payload(bytes: number): Buffer {
  const text = Buffer.from('<p>the export bundle navigation</p>\n'.repeat(Math.ceil(bytes / 72)));
  return Buffer.concat([text.subarray(0, bytes >> 1), randomBytes(bytes - (bytes >> 1))]);
}

/** Feeds `archive` in pieces of the given sizes (cycled); takes a partial batch every `takeEvery` writes. */
function inflate(archive: Buffer, pieces: number[], takeEvery = 0): { out: Buffer; batches: number[] } {
  const parts: Uint8Array[] = [];
  const batches: number[] = [];
  const inflater = new BatchInflater(
    () => new Uint8Array(BATCH),
    (batch) => {
      batches.push(batch.length);
      parts.push(batch.slice());
      return true;
    },
  );
  let writes = 0;
  for (let at = 0, i = 0; at < archive.length; i++) {
    const size = pieces[i % pieces.length]!;
    inflater.write(archive.subarray(at, at + size));
    at += size;
    if (takeEvery && ++writes % takeEvery === 0 && inflater.pending > 0) parts.push(inflater.take(inflater.pending - (inflater.pending % 512)).slice());
  }
  inflater.end();
  parts.push(inflater.take(inflater.pending).slice());
  const out = Buffer.concat(parts);
  expect(inflater.inflated).toBe(out.length);
  return { out, batches };
}

describe('BatchInflater', () => {
  const data = payload(600_000);
  const archive = gzipSync(data);

  it.each([
    ['one piece', [archive.length], 0],
    ['network-sized pieces', [16_384, 65_536, 1_000], 0],
    ['single bytes and odd sizes, taking partial batches', [1, 7, 513, 4_099], 3],
  ])('gives the bytes gunzip gives, in order: %s', (_name, pieces, takeEvery) => {
    const { out, batches } = inflate(archive, pieces, takeEvery);
    expect(out.equals(gunzipSync(archive))).toBe(true);
    // Only whole buffers reach `full`.
    expect(batches.every((length) => length === BATCH)).toBe(true);
  });

  it('goes on into the next gzip member, as gunzip does', () => {
    const second = payload(70_000);
    const { out } = inflate(Buffer.concat([archive, gzipSync(second)]), [30_000]);
    expect(out.equals(Buffer.concat([data, second]))).toBe(true);
  });

  it('throws zlib’s error on data that is not gzip, and on a stream cut short at the end', () => {
    const broken = new BatchInflater(() => new Uint8Array(BATCH), () => true);
    expect(() => broken.write(Buffer.concat([archive.subarray(0, 20), Buffer.alloc(64, 0xff), archive.subarray(84)]))).toThrow(/invalid|incorrect/);
    const cut = new BatchInflater(() => new Uint8Array(BATCH), () => true);
    cut.write(archive.subarray(0, archive.length >> 1));
    expect(() => cut.end()).toThrow('unexpected end of file');
  });

  it('stops inflating once its consumer answers false', () => {
    let batches = 0;
    const inflater = new BatchInflater(() => new Uint8Array(BATCH), () => ++batches < 2);
    inflater.write(gzipSync(Buffer.alloc(20 * BATCH)));
    expect(batches).toBe(2);
    expect(inflater.inflated).toBe(2 * BATCH);
  });

  it('fails at once on a zlib object without the handle it drives, rather than inflating nothing', () => {
    const zlib = createUnzip();
    delete (zlib as unknown as { _handle?: unknown })._handle;
    const inflater = new BatchInflater(() => new Uint8Array(BATCH), () => true, zlib);
    expect(() => inflater.write(archive)).toThrow("this Node's zlib has no handle to inflate into a buffer of ours");
  });
});
