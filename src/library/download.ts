// downloadBundle for scripts: the CLI's download engine (src/download/) with its guarantees (every
// check on the target before the first request, the archive streamed to a work directory beside the
// target, extraction through the path guard, one atomic move into place, the target untouched on any
// failure), fed from an AdminClient on either export flow (chosen as the CLI does: export-flows/).
// Progress and warnings go to callbacks, never to a terminal.
import { Agent, type Dispatcher } from 'undici';
import type { Bundle } from '../api/types.js';
import { settingsOf } from './client-settings.js';
import type { AdminClient } from './client.js';
import type { Clock } from '../clock.js';
import { checkExactId } from '../ids.js';
import type { Activity, Reporter } from '../reporter.js';
import { downloadBundle as download, type DownloadProgressEvent, type DownloadResult } from '../download/index.js';
import { onJobFlow } from '../export-flows/choose.js';
import type { FlowApi } from '../export-flows/flow-api.js';
import { flowSetup, type ExportFlowOptions } from './export-flows.js';

export type { DownloadPhase, DownloadProgressEvent } from '../download/index.js';
export type { DownloadResult };

export interface DownloadEvent {
  /** `progress`: a step or byte count; `info`: something said once; `warn`: something to act on. */
  kind: 'progress' | 'info' | 'warn';
  message: string;
}

/** Where and how a site is installed, and what the caller is told meanwhile: downloadBundle's and exportStaticSite's. */
export interface SiteInstallOptions {
  /** Directory to install the site into. */
  target: string;
  /** Replace a target that is not empty (default false: refused before anything is sent). */
  force?: boolean;
  /** Keep releases beside a symlink at the target, swapped in one rename(2). */
  link?: boolean;
  /** Releases kept with `link` (default 3). */
  keep?: number;
  /** Refuse an archive that would extract to more than this many bytes. */
  maxBytes?: number;
  /** Also keep the .tar.gz here. */
  archivePath?: string;
  onEvent?: (event: DownloadEvent) => void;
  /** Every step as data: phase (link, download, extract, install, done), bytes, total, files. */
  onProgress?: (event: DownloadProgressEvent) => void;
  /** For the storage download (never sent the admin key). Default: a pool closed when the download ends. */
  dispatcher?: Dispatcher;
}

export interface DownloadBundleOptions
  extends SiteInstallOptions,
    Pick<ExportFlowOptions, 'flow' | 'projectId' | 'store' | 'onFlow'> {
  client: AdminClient;
  /**
   * A completed export job, on either flow: its flow is the one remembered for it, else its id's shape
   * (a project-flow id is 24 hex digits: give `projectId` for it), and a 404 tries the other flow once.
   */
  jobId: string;
  signal?: AbortSignal;
  /** Default: the client's (its `clock` option), as are the backoff's random numbers. */
  clock?: Clock;
}

export async function downloadBundle(options: DownloadBundleOptions): Promise<DownloadResult> {
  const jobId = checkExactId('export job id', options.jobId, 'the jobId of a completed export');
  const signal = options.signal ?? new AbortController().signal;
  const settings = settingsOf(options.client);
  // Checked now, before the target is; the first link request also settles the flow.
  const flows = flowSetup(options.client, { ...options, signal });
  let settled: FlowApi | undefined;
  const getBundle = async (): Promise<Bundle> => {
    if (settled) return settled.link(jobId);
    const { api, value } = await onJobFlow(jobId, flows, (flow) => flow.link(jobId));
    settled = api;
    return value;
  };
  return withDispatcher(options.dispatcher, (dispatcher) =>
    download({
      getBundle,
      target: options.target,
      force: options.force ?? false,
      link: options.link,
      keep: options.keep,
      release: jobId,
      maxBytes: options.maxBytes,
      archivePath: options.archivePath,
      dispatcher,
      // The client's, so one injected clock rules the whole call: the bundle link's retries, the
      // storage download's backoff, future mtimes clamped to its now, the age of leftovers.
      clock: options.clock ?? settings.clock,
      random: settings.random,
      signal,
      reporter: eventReporter(options.onEvent),
      onProgress: options.onProgress,
      debug: () => undefined,
    }),
  );
}

/** `run` with the caller's dispatcher for the storage download, else a pool of its own, closed when it ends. */
export async function withDispatcher<T>(
  given: Dispatcher | undefined,
  run: (dispatcher: Dispatcher) => Promise<T>,
): Promise<T> {
  const own = given ? undefined : new Agent();
  try {
    return await run(given ?? own!);
  } finally {
    await own?.close();
  }
}

/** The engine's Reporter as plain events: no spinner, no bar, nothing written anywhere. */
export function eventReporter(onEvent: ((event: DownloadEvent) => void) | undefined): Reporter {
  const say = (kind: DownloadEvent['kind'], message: string) => onEvent?.({ kind, message });
  const activity: Activity = {
    update: (text) => say('progress', text),
    succeed: (text) => say('info', text),
    fail: (text) => say('warn', text),
    stop: () => undefined,
  };
  return {
    info: (message) => say('info', message),
    warn: (message) => say('warn', message),
    activity: async (text) => (say('progress', text), activity),
    live: false,
  };
}
