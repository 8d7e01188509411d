// downloadBundle: the target checked (target.ts), stale work of earlier runs dealt with (leftovers.ts), a fresh link,
// the archive extracted through the guard as it arrives (live-extraction.ts), then moved into place (install.ts).
// A failure or Ctrl-C before the move leaves the target as it was; after it, clean-up problems are warnings.
import { randomBytes } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { Dispatcher } from 'undici';
import type { Bundle } from '../api/types.js';
import { throwIfAborted, type Clock } from '../clock.js';
import type { Activity, Reporter } from '../reporter.js';
import { extractionLimits, type ExtractionLimits } from './limits.js';
import { LiveExtraction } from './live-extraction.js';
import { fetchBundle, type FETCH_LIMITS } from './fetch.js';
import {
  installTree,
  makeParents,
  removeCreated,
  removeWorkDir,
  RestoreFailedError,
  stageArchive,
  tidyAway,
} from './install.js';
import { createWorkDir, sweepLeftovers, type LeftoverReport } from './leftovers.js';
import { DownloadProgress } from '../output/progress.js';
import type { DownloadProgressEvent } from './progress-event.js';
import { checkArchivePath, checkFreeSpace, checkTarget } from './target.js';

export { checkArchivePath, checkTarget, type TargetPlan } from './target.js';
export { ArchiveRefusedError } from '../errors.js';
export { NotGzipError } from './live-extraction.js';
export type { DownloadPhase, DownloadProgressEvent } from './progress-event.js';

export interface DownloadBundleOptions {
  /** A fresh presigned link: called before the first download, and again when a link has expired (403). */
  getBundle: () => Promise<Bundle>;
  target: string;
  /** Replace a non-empty target. */
  force: boolean;
  /** --link: keep releases beside a symlink at the target, swapped in one rename */
  link?: boolean;
  /** --keep: releases --link keeps (default 3) */
  keep?: number;
  /** The release's name in the link layout (the job id); default a timestamp. */
  release?: string;
  /** --max-size: refuse an archive that would extract to more bytes than this */
  maxBytes?: number;
  /** --archive: also keep the .tar.gz here. */
  archivePath?: string;
  /** Proxy-aware; the storage is never sent an Authorization header. */
  dispatcher: Dispatcher;
  clock: Clock;
  random: () => number;
  signal: AbortSignal;
  reporter: Reporter;
  /** Every step as data (the reporter's lines are made from the same events). */
  onProgress?: (event: DownloadProgressEvent) => void;
  /** Storage URLs only through redactUrl. */
  debug: (line: string) => void;
  /** Overrides of the retry and stall limits (tests). */
  limits?: Partial<typeof FETCH_LIMITS>;
  /** `--verify`: runs on the extracted tree before the install; throwing leaves the target as it was. */
  beforeInstall?: (tree: string) => Promise<void>;
}

export interface DownloadResult {
  directory: string;
  files: number;
  /** Total bytes of extracted regular files. */
  bytes: number;
  bundle: { sizeBytes: number; expiresAt: string };
}

export async function downloadBundle(opts: DownloadBundleOptions): Promise<DownloadResult> {
  // A killed run may have left the old tree aside with the target missing: put back first, so the checks see it.
  await sayLeftovers([dirname(resolve(opts.target))], opts);
  // Checked again here, before the first request, so a direct caller gets the same guarantees.
  const plan = await checkTarget(opts.target, { force: opts.force, link: opts.link, keep: opts.keep });
  const archivePath = opts.archivePath === undefined ? undefined : await checkArchivePath(opts.archivePath, plan);
  throwIfAborted(opts.signal);
  const others = new Set([plan.workParent, ...(archivePath ? [dirname(archivePath)] : [])]);
  others.delete(dirname(plan.path));
  await sayLeftovers([...others], opts);

  const created: string[] = [];
  let work: string | undefined;
  let live: LiveExtraction | undefined;
  const abandon = () => live?.abandon();
  let activity: Activity | undefined;
  let staged: string | undefined;
  let keepWork = false;
  let installed = false;
  let failure: unknown;
  try {
    created.push(...makeParents(dirname(plan.path)), ...makeParents(plan.workParent));
    if (archivePath) created.push(...makeParents(dirname(archivePath)));
    work = await createWorkDir(plan.workParent, basename(plan.path));
    activity = await opts.reporter.activity('Requesting a download link');
    const file = join(work, 'bundle.tar.gz');
    const display = new DownloadProgress(activity, opts.clock, opts.reporter.live);
    const progress = (event: DownloadProgressEvent) => {
      opts.onProgress?.(event);
      display.show(event);
    };
    progress({ phase: 'link', bytes: 0, total: undefined });
    let limits: ExtractionLimits | undefined;
    const getBundle = async (): Promise<Bundle> => {
      const bundle = await opts.getBundle();
      // Room for the archive and its extraction, known now and checked before a byte is fetched.
      await checkFreeSpace(plan.workParent, bundle.sizeBytes, plan.shown);
      limits = extractionLimits(bundle.sizeBytes, opts.maxBytes);
      return bundle;
    };
    // Extracted while it downloads, as `curl | tar` does; kept in a file only with --archive.
    const now = opts.clock.now();
    live = new LiveExtraction(join(work, 'tree'), () => ({ ...limits!, now }));
    // A stop ends a wait on the extraction (the download's backpressure) at once.
    opts.signal.addEventListener('abort', abandon, { once: true });
    const fetched = await fetchBundle({
      ...opts,
      getBundle,
      file: archivePath === undefined ? undefined : file,
      onProgress: (bytes, total) => progress({ phase: 'download', bytes, total }),
      onData: (chunk, offset) => live!.write(chunk, offset),
    });
    progress({ phase: 'extract', bytes: fetched.bytes, total: fetched.bytes });
    const extracted = await live.finish();
    if (opts.beforeInstall) await opts.beforeInstall(live.tree);
    progress({ phase: 'install', bytes: extracted.bytes, total: undefined, files: extracted.files });

    throwIfAborted(opts.signal);
    if (archivePath) staged = await stageArchive(file, archivePath, randomBytes(4).toString('hex'));
    throwIfAborted(opts.signal);
    // From here on the target changes; a Ctrl-C now waits for the few renames to finish.
    const result = await installTree(live.tree, plan, work, opts.release ?? releaseStamp(opts.clock.now()));
    installed = true;
    if (archivePath && staged) {
      const notKept = `the site is installed, but the archive could not be kept at ${archivePath}; it is at ${staged}`;
      await rename(staged, archivePath).catch(() => opts.reporter.warn(notKept));
      staged = undefined;
    }
    const release = plan.layout === 'link' ? { release: result.directory } : {};
    const { bytes, files } = extracted;
    progress({ phase: 'done', bytes, total: undefined, files, directory: plan.path, ...release });
    const left = await tidyAway(result.replaced);
    warnLeft(left, opts.reporter);
    // The work directory holds what could not be removed: that warning already named it.
    if (left.some((path) => path.startsWith(work + sep))) work = undefined;
    const { sizeBytes, expiresAt } = fetched.bundle;
    return { directory: plan.path, files, bytes, bundle: { sizeBytes, expiresAt } };
  } catch (error) {
    activity?.stop();
    if (error instanceof RestoreFailedError) keepWork = true;
    failure = error;
  } finally {
    opts.signal.removeEventListener('abort', abandon);
    abandon();
    if (staged) await removeWorkDir(staged);
    // Removed whatever happened; only after the install is a directory left behind worth a warning.
    if (work && !keepWork && !(await removeWorkDir(work)) && installed) warnLeft([work], opts.reporter);
    if (!installed && !keepWork) await removeCreated(created);
  }
  // Judged after the clean-up: a stop that came meanwhile (Ctrl-C, or the way to the target swapped) is the answer.
  throw opts.signal.aborted ? opts.signal.reason : failure;
}

/** Stale work directories of earlier runs, in each parent this run works in. */
async function sayLeftovers(parents: string[], opts: DownloadBundleOptions): Promise<void> {
  const report: LeftoverReport = { said: [], failed: [] };
  for (const parent of parents) await sweepLeftovers(parent, opts.clock.now(), report);
  for (const line of report.said) opts.reporter.info(line);
  warnLeft(report.failed, opts.reporter);
}

function warnLeft(paths: string[], reporter: Reporter): void {
  for (const path of paths)
    reporter.warn(`could not remove ${path}; remove it by hand (the install itself succeeded or was not affected)`);
}

/** `20261123T094500Z`: a release name that sorts by time when no job id is given. */
function releaseStamp(now: number): string {
  return new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
}
