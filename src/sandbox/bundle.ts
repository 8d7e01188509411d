import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Header } from 'tar';
import { siteFileContent, siteLayout, type BundleSpec } from './site.js';

// Bump when the generated site or archive layout changes, so a cached archive from an older
// version is never served.
const FORMAT_VERSION = 1;
const BLOCK = 512;
const MTIME = new Date('2026-11-01T00:00:00Z');

export interface GeneratedArchive {
  path: string;
  size: number;
}

const inProcess = new Map<string, Promise<GeneratedArchive>>();

/**
 * The tar.gz of the generated site, written to a temp file once per (spec, seed) and streamed from
 * disk afterwards: a benchmark's bundle of hundreds of megabytes must not live in memory. The file is kept across runs
 * (it is deterministic) so repeated benchmarks skip the generation.
 */
export function generatedArchive(spec: BundleSpec, seed: number): Promise<GeneratedArchive> {
  const name = `bundle-v${FORMAT_VERSION}-seed${seed}-${spec.files}x${spec.bytesPerFile}.tar.gz`;
  let pending = inProcess.get(name);
  if (!pending) {
    pending = findOrWrite(join(tmpdir(), 'mint-admin-sandbox'), name, spec, seed);
    inProcess.set(name, pending);
    pending.catch(() => inProcess.delete(name));
  }
  return pending;
}

async function findOrWrite(dir: string, name: string, spec: BundleSpec, seed: number): Promise<GeneratedArchive> {
  const path = join(dir, name);
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isFile()) return { path, size: existing.size };
  await mkdir(dir, { recursive: true });
  // Written under a unique name and renamed into place, so a concurrent or interrupted run never
  // leaves a half-written archive under the cached name.
  const partial = join(dir, `.${name}.${process.pid}.${Date.now()}.partial`);
  try {
    await pipeline(Readable.from(tarBlocks(spec, seed)), createGzip({ level: 6 }), createWriteStream(partial));
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { path, size: (await stat(path)).size };
}

/** A ustar stream of the site: files at the top level, no wrapper directory, no leading `./`. */
function* tarBlocks(spec: BundleSpec, seed: number): Generator<Buffer> {
  for (const file of siteLayout(spec, seed)) {
    const content = siteFileContent(file, spec, seed);
    const header = new Header({
      path: file.path,
      mode: 0o644,
      uid: 0,
      gid: 0,
      uname: '',
      gname: '',
      size: content.length,
      mtime: MTIME,
      type: 'File',
    });
    const block = Buffer.alloc(BLOCK);
    header.encode(block, 0);
    if (header.needPax) throw new Error(`generated path too long for a ustar header: ${file.path}`);
    yield block;
    yield content;
    const padding = (BLOCK - (content.length % BLOCK)) % BLOCK;
    if (padding > 0) yield Buffer.alloc(padding);
  }
  yield Buffer.alloc(BLOCK * 2);
}

/** The site's files by relative path, for tests that compare an extracted download. */
export function generatedFiles(spec: BundleSpec, seed: number): Map<string, Buffer> {
  return new Map(siteLayout(spec, seed).map((file) => [file.path, siteFileContent(file, spec, seed)]));
}
