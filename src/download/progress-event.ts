// What the download says of itself as it goes: plain data, drawn by whoever listens (src/output/progress.ts for
// the CLI's and the library's lines, progress notifications for MCP).
/** `link` (asking for a link), `download` (bytes arriving), `extract`, `install` (tree ready), `done` (installed). */
export type DownloadPhase = 'link' | 'download' | 'extract' | 'install' | 'done';

export interface DownloadProgressEvent {
  phase: DownloadPhase;
  /** Archive bytes received (link, download, extract); extracted bytes once the tree is extracted (install, done). */
  bytes: number;
  /** The archive's size when known (download, extract). */
  total: number | undefined;
  /** Files extracted (install, done). */
  files?: number;
  /** Where the site is (done): the target, and the release directory under it with a link layout. */
  directory?: string;
  release?: string;
}
