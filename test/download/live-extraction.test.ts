// The live extraction's first bytes: what the archive is goes by them, even when they arrive one at a
// time (a storage or proxy that flushes tiny chunks): a gzip archive split after its first byte is
// extracted whole, and what is not gzip is named by its first bytes, not by zlib's complaint.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeError } from '../../src/download/extraction.js';
import { LiveExtraction, NotGzipError } from '../../src/download/live-extraction.js';
import { extractionLimits } from '../../src/download/limits.js';
import { tempDir } from '../helpers/cli.js';
import { rawTarGz } from '../helpers/tar-evil.js';

let dir: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  dir?.cleanup();
  dir = undefined;
});

/** Feeds `bytes` in the given chunk sizes (the rest in one), then finishes; what finish gave or threw. */
async function extract(bytes: Buffer, sizes: number[]): Promise<{ tree: string; outcome: unknown }> {
  dir = tempDir();
  const tree = join(dir.path, 'tree');
  const live = new LiveExtraction(tree, () => ({ ...extractionLimits(bytes.length), now: Date.now() }));
  try {
    let at = 0;
    for (const size of [...sizes, bytes.length]) {
      const chunk = bytes.subarray(at, Math.min(bytes.length, at + size));
      if (chunk.length === 0) break;
      await live.write(chunk, at);
      at += chunk.length;
    }
    return { tree, outcome: await live.finish() };
  } catch (error) {
    return { tree, outcome: error };
  } finally {
    live.abandon();
  }
}

describe('the live extraction, fed its first bytes one at a time', () => {
  it('extracts a gzip archive whose first chunks are one byte each', async () => {
    const archive = rawTarGz([{ type: 'file', path: 'index.html', content: '<h1>hi</h1>' }]);
    const { tree, outcome } = await extract(archive, [1, 1, 1]);
    expect(outcome).toEqual({ files: 1, bytes: 11 });
    expect(readFileSync(join(tree, 'index.html'), 'utf8')).toBe('<h1>hi</h1>');
  });

  it.each([
    ['an HTML page', Buffer.from('<!DOCTYPE html><html><body>Access denied</body></html>'), /an HTML page/],
    ['a zip archive', Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(600)]), /a zip archive/],
    [
      'bytes that start like gzip and are not',
      Buffer.from([0x1f, 0x00, 0x01, 0x02]),
      /starts with the bytes 1f 00 01 02/,
    ],
  ])('names %s by its first bytes', async (_what, bytes, named) => {
    const { outcome } = await extract(bytes, [1, 1, 1]);
    expect(outcome).toBeInstanceOf(NotGzipError);
    expect((outcome as Error).message).toMatch(named);
  });
});

describe('the live extraction stopped while the download waits on it', () => {
  it('rejects the pending wait at once, so a Ctrl-C does not wait for zlib', async () => {
    dir = tempDir();
    const archive = rawTarGz([{ type: 'file', path: 'big.bin', content: randomBytes(3_000_000) }]);
    const live = new LiveExtraction(join(dir.path, 'tree'), () => ({ ...extractionLimits(archive.length), now: 0 }));
    // More than zlib takes in one go: the download is told to wait (backpressure).
    const waiting = live.write(archive, 0);
    expect(waiting).toBeInstanceOf(Promise);
    live.abandon();
    await expect(waiting).rejects.toThrow('the extraction was stopped');
  });
});

describe('a failure to write, by its code', () => {
  it('is named as a failure to write even without words of its own, never as an invalid archive', () => {
    const tooMany = Object.assign(new Error("EMFILE: too many open files, open '/w/tree/a.html'"), {
      code: 'EMFILE',
      entry: { path: 'a.html' },
    });
    expect(writeError(tooMany, '/w/tree')?.message).toBe(
      `could not write the bundle into /w/tree (EMFILE: too many open files, open '/w/tree/a.html') (at entry "a.html"); nothing was installed`,
    );
    // The reader's faults have no code: they stay the archive's (extraction.ts calls them invalid).
    expect(writeError(new Error('a tar header with a wrong checksum at byte 0'), '/w/tree')).toBeUndefined();
  });
});
