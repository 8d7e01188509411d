// Extraction from the complete downloaded file: the unpacker (unpacker.ts) fed from disk, its
// failures named (extract-errors.ts).
import { createReadStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { Parser } from 'tar';
import { throwIfAborted } from '../clock.js';
import { MintAdminError } from '../errors.js';
import { ArchiveRefusedError, invalidArchive, writeError } from './extract-errors.js';
import { SITE_DIRECTORY_MODE } from './modes.js';
import type { ArchiveSummary, ExtractionLimits } from './limits.js';
import { createExtraction, type Extraction } from './unpacker.js';

const READ_CHUNK = 256 * 1024;

/**
 * Extracts into `dir` (created here), each entry through the guard before it is written. At the
 * first refusal nothing more is written and ArchiveRefusedError names the entry; the caller removes
 * `dir`, which is never the target itself.
 */
export async function extractArchive(file: string, dir: string, signal: AbortSignal, limits: ExtractionLimits & { now: number }): Promise<ArchiveSummary> {
  throwIfAborted(signal);
  const tar = await import('tar');
  await mkdir(dir, { recursive: true, mode: SITE_DIRECTORY_MODE });
  const extraction = createExtraction(tar, dir, limits);
  await run(file, extraction, signal, dir);
  return extraction.summary();
}

/**
 * Pipes the file into the tar parser and settles when it has closed, failed or been aborted. The
 * unpacker writes each chunk's entries synchronously, so when this settles no write is on the way.
 */
function run(file: string, extraction: Extraction, signal: AbortSignal, dir: string): Promise<void> {
  const parser: Parser = extraction.unpack;
  return new Promise<void>((resolve, reject) => {
    const input = createReadStream(file, { highWaterMark: READ_CHUNK });
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      input.unpipe(parser as unknown as NodeJS.WritableStream);
      input.destroy();
      const refused = extraction.refusal();
      if (refused) reject(new ArchiveRefusedError(refused, { sizeLimit: extraction.sizeLimit() }));
      else if (error !== undefined) reject(error instanceof MintAdminError ? error : (writeError(error, dir) ?? invalidArchive(error)));
      else resolve();
    };
    const onAbort = () => settle(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    parser.on('error', (error: unknown) => settle(error));
    parser.on('close', () => settle());
    input.on('error', (error) => settle(new MintAdminError(`cannot read the downloaded archive: ${error.message}`)));
    input.pipe(parser as unknown as NodeJS.WritableStream);
  });
}
