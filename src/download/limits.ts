// What an extraction may expand to, what it found, and the modes of what it makes: plain data,
// apart from the extraction so that the fetch, the install and the library read them without it.
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

/**
 * Whatever the archive says and whatever the umask allows: a web root is never group or world
 * writable (under `umask 000` a plain mkdir gave 0777), and has no setuid, setgid or sticky bits.
 * Files are 0644, or 0755 when the archive made them executable. A stricter umask still narrows them.
 */
export const SITE_DIRECTORY_MODE = 0o755;
export const SITE_FILE_MODE = 0o644;
