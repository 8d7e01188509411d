// What an extraction may expand to, what it found, and the modes of what it makes: plain data shared without it.
/** How much an archive may expand to: a bundle that needs more is damaged or a bomb. */
export interface ExtractionLimits {
  maxBytes: number;
  maxEntries: number;
  /** True when the caller set maxBytes (--max-size). */
  given: boolean;
}

/** Far above what a docs site of HTML and JSON expands to, in bytes and entries: more is damage or a bomb. */
export function extractionLimits(sizeBytes: number, maxBytes?: number): ExtractionLimits {
  return {
    maxBytes: maxBytes ?? Math.max(50 * sizeBytes, 1_000_000_000),
    maxEntries: Math.max(100_000, Math.ceil(sizeBytes / 10)),
    given: maxBytes !== undefined,
  };
}

export interface ArchiveSummary {
  /** Regular files (hard links included), each path counted once, and their total size. */
  files: number;
  bytes: number;
}

// Whatever the archive or the umask says, a web root is never group or world writable and has no setuid, setgid or
// sticky bits: files 0644, or 0755 when executable. A stricter umask still narrows them.
export const SITE_DIRECTORY_MODE = 0o755;
export const SITE_FILE_MODE = 0o644;
