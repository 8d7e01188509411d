// What an extraction may expand to, and what it found: plain data, kept apart from the unpacker so
// the library's declarations, which reach these types, never import tar's (and through them
// minizlib's, whose declarations need a newer @types/node than a library user may have).
/** How much an archive may expand to: a bundle that needs more is damaged or a bomb. */
export interface ExtractionLimits {
  maxBytes: number;
  maxEntries: number;
  /** True when the caller set maxBytes (--max-size). */
  given: boolean;
}

const GB = 1_000_000_000;

/**
 * 50 times the download (a docs site of HTML and JSON compresses about 5-10x), at least 1 GB; entries
 * at least 100,000, or one per 10 bytes of download (a tar header alone compresses to ~30 bytes).
 */
export function extractionLimits(sizeBytes: number, maxBytes?: number): ExtractionLimits {
  return {
    maxBytes: maxBytes ?? Math.max(50 * sizeBytes, GB),
    maxEntries: Math.max(100_000, Math.ceil(sizeBytes / 10)),
    given: maxBytes !== undefined,
  };
}

export interface ArchiveSummary {
  /** Regular files (hard links included), each path counted once. */
  files: number;
  /** Their total size in bytes. */
  bytes: number;
}
