// Unpacking the downloaded tar.gz, by job: what the file is (sniff.ts), the unpacker through the
// guard (unpacker.ts), extraction from the file (extract-file.ts) or from the download as it arrives
// (live-extraction.ts), tar's private steps patched (tar-internals.ts), modes (modes.ts) and failures
// in words (extract-errors.ts). The rest of the download imports them from here.
export { ArchiveRefusedError } from './extract-errors.js';
export { extractArchive } from './extract-file.js';
export { LiveExtraction, type LiveConsumer } from './live-extraction.js';
export { SITE_DIRECTORY_MODE, SITE_FILE_MODE } from './modes.js';
export { checkArchiveFormat, NotGzipError } from './sniff.js';
export { extractionLimits, type ArchiveSummary, type ExtractionLimits } from './unpacker.js';
