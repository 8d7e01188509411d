// downloadBundle: a fresh link -> the archive streamed to a temp file beside the target -> checked
// extracted, entry by entry through the guard, into a temp directory beside it -> renamed into place. On any failure or Ctrl-C the
// temp files go and the target is exactly as it was.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Dispatcher } from 'undici';
import type { Bundle } from '../api/types.js';
import { throwIfAborted, type Clock } from '../clock.js';
import type { Activity, Reporter } from '../io.js';
import { checkArchiveFormat, extractArchive } from './extract.js';
import { fetchToFile } from './fetch.js';
import {
  checkArchivePath,
  checkTarget,
  commitArchive,
  createWorkDir,
  installTree,
  removeWorkDir,
  RestoreFailedError,
  stageArchive,
} from './install.js';
import { DownloadProgress, formatBytes } from './progress.js';

export { checkArchivePath, checkTarget } from './install.js';
export { ArchiveRefusedError, NotGzipError } from './extract.js';

export interface DownloadBundleOptions {
  /** Asks the API for a fresh presigned link (jobs flow: POST bundle; project flow: GET the job). Called right before the first download, and again when a link has expired (storage answers 403). */
  getBundle: () => Promise<Bundle>;
  /** directory to extract into */
  target: string;
  /** replace a non-empty target */
  force: boolean;
  /** also keep the .tar.gz here (--archive) */
  archivePath?: string;
  /** ctx.dispatcher(): proxy-aware; never sent an Authorization header for storage */
  dispatcher: Dispatcher;
  clock: Clock;
  random: () => number;
  signal: AbortSignal;
  /** ctx.reporter: live byte progress bar on a terminal, plain lines otherwise */
  reporter: Reporter;
  /** ctx.debug; storage URLs only through redactUrl */
  debug: (line: string) => void;
}

export interface DownloadResult {
  directory: string;
  files: number;
  /** total bytes of extracted regular files */
  bytes: number;
  bundle: { sizeBytes: number; expiresAt: string };
}

export async function downloadBundle(opts: DownloadBundleOptions): Promise<DownloadResult> {
  // Both checked again here, before the first request, so a direct caller gets the same guarantees.
  const target = await checkTarget(opts.target, opts.force);
  const archivePath = opts.archivePath === undefined ? undefined : await checkArchivePath(opts.archivePath, target);
  throwIfAborted(opts.signal);
  await mkdir(dirname(target), { recursive: true });
  if (archivePath) await mkdir(dirname(archivePath), { recursive: true });

  const work = await createWorkDir(target);
  const activity = await opts.reporter.activity('Requesting a download link');
  let staged: string | undefined;
  let keepWork = false;
  try {
    const file = join(work, 'bundle.tar.gz');
    const progress = new DownloadProgress(activity, opts.clock, opts.reporter.live);
    const { bundle, bytes: archiveBytes } = await fetchToFile({ ...opts, file, onProgress: progress.update });

    // By its first bytes, whatever the link's file name says: a zip or an error page is named as such.
    await checkArchiveFormat(file);
    // One pass: the guard refuses each entry before tar writes it, and a refused archive leaves
    // only the work directory, which goes below. (A separate header pass first would cost a
    // second gunzip of the whole bundle, ~15% of the wall time, and protect nothing more.)
    activity.update(`Extracting the ${formatBytes(archiveBytes)} archive`, { milestone: true });
    const tree = join(work, 'tree');
    const extracted = await extractArchive(file, tree, opts.signal);

    throwIfAborted(opts.signal);
    if (archivePath) staged = await stageArchive(file, archivePath, randomBytes(4).toString('hex'));
    throwIfAborted(opts.signal);
    // From here on the target changes; a Ctrl-C now waits for the few renames to finish.
    await installTree(tree, target, opts.force, work);
    if (archivePath && staged) {
      await commitArchive(staged, archivePath);
      staged = undefined;
    }
    activity.succeed(`Extracted ${extracted.files} files (${formatBytes(extracted.bytes)}) into ${target}`);
    return {
      directory: target,
      files: extracted.files,
      bytes: extracted.bytes,
      bundle: { sizeBytes: bundle.sizeBytes, expiresAt: bundle.expiresAt },
    };
  } catch (error) {
    stopQuietly(activity);
    if (error instanceof RestoreFailedError) keepWork = true;
    throw opts.signal.aborted ? opts.signal.reason : error;
  } finally {
    if (staged) await removeWorkDir(staged);
    if (!keepWork) await removeWorkDir(work);
  }
}

/** main.ts prints the error; a second "failed" line from the spinner would only repeat it. */
function stopQuietly(activity: Activity): void {
  activity.stop();
}
