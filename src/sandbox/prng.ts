import { createCipheriv, createHash } from 'node:crypto';

// Everything the sandbox generates derives from (seed, label) so two runs with the same seed serve
// byte-identical data, and changing one file's label does not shift every other file's content.

/** A small, fast 32-bit PRNG (mulberry32); returns floats in [0, 1). */
export function createRandom(seed: number, label = ''): () => number {
  let state = hashToUint32(`${seed}:${label}`);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function hashToUint32(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** Deterministic hex id, e.g. for job ids. */
export function deterministicHex(seed: number, label: string, length: number): string {
  return createHash('sha256').update(`${seed}:${label}`).digest('hex').slice(0, length);
}

/**
 * Incompressible bytes: AES-CTR over zeros is a keystream, deterministic from the key and far faster
 * than a JS PRNG, which matters when a benchmark asks for a bundle of hundreds of megabytes.
 */
export function pseudoRandomBytes(seed: number, label: string, length: number): Buffer {
  const key = createHash('sha256').update(`${seed}:${label}`).digest();
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  return Buffer.concat([cipher.update(Buffer.alloc(length)), cipher.final()]);
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
