// "Start an export, wait for it, download and install it into a directory": the one composition the
// CLI's `export run`, the MCP tool `export_run` and the library's exportStaticSite are faces over (and
// its second half, installExport, `export download`'s). The order and its guarantees are here: the
// target checked before anything is sent (a refused target must not cost an export), the job followed
// on the flow that started it, the completed job's own link used first where the flow gives one (the
// project flow), a fresh one asked for otherwise and whenever a link has expired. What a person or an
// agent is told is the face's: the CLI's live bar and resume hints, the MCP tool's progress.
import type { Dispatcher } from 'undici';
import type { AnyExportJob, Bundle } from '../api/types.js';
import {
  checkArchivePath,
  checkTarget,
  downloadBundle,
  type DownloadBundleOptions,
  type DownloadResult,
} from '../download/index.js';
import { startOnFlow, type FlowSetup } from './choose.js';
import type { FlowApi, StartInput } from './flow-api.js';
import type { ExportFlow } from './flow-store.js';
import { waitForExportJob } from './wait.js';

/** Where and how the site is installed (src/download's guarantees: nothing partial at the target). */
export interface InstallSettings
  extends Pick<DownloadBundleOptions, 'target' | 'force' | 'link' | 'keep' | 'maxBytes' | 'archivePath'> {
  /** The directories `force` never replaces besides `/`: the home and working directory (default the process's). */
  home?: string;
  cwd?: string;
  /** Runs on the extracted tree before it takes the target's place; throwing leaves the target as it was. */
  beforeInstall?: (tree: string, job: InstallingJob) => Promise<void>;
  /**
   * Runs again as the download begins and just before the install (the wait before may take minutes):
   * a face that confines the target (the MCP server's --root) checks that nothing on its way was
   * swapped since. Throwing stops the run with the target as it was and the work directory removed.
   */
  recheckTarget?: () => Promise<void>;
}

/** What beforeInstall knows of the export it checks. */
export interface InstallingJob {
  jobId: string;
  /** The checked target, absolute. */
  target: string;
  /** The base path the site was built for, when this run started it on the project flow. */
  basePath: string | undefined;
}

/** What the download needs of the face's world. */
export interface InstallDeps
  extends Pick<DownloadBundleOptions, 'clock' | 'random' | 'signal' | 'reporter' | 'onProgress' | 'debug'> {
  /** For the storage download (never sent the admin key); asked for once the export is complete. */
  dispatcher: () => Promise<Dispatcher>;
}

export interface InstallExport extends InstallDeps {
  /** The job's flow: its `link` is how a missing or expired link is (re)placed. */
  api: FlowApi;
  jobId: string;
  /** The target as checkInstallTarget returned it. */
  target: string;
  install: InstallSettings;
  /** A link already in hand, used for the first try only. */
  first?: Bundle;
  basePath?: string;
}

/** Checks the target (and the archive path) as the download will, before anything is sent: the target, absolute. */
export async function checkInstallTarget(install: InstallSettings): Promise<string> {
  const plan = await checkTarget(install.target, {
    force: install.force,
    link: Boolean(install.link),
    home: install.home,
    cwd: install.cwd,
  });
  if (install.archivePath !== undefined) await checkArchivePath(install.archivePath, plan);
  return plan.path;
}

/** Downloads a completed job's archive and installs it: the link in hand first, then fresh ones from its flow. */
export async function installExport(opts: InstallExport): Promise<DownloadResult> {
  const { api, jobId, install } = opts;
  let first = opts.first;
  const getBundle = async (): Promise<Bundle> => {
    const inHand = first;
    first = undefined;
    return inHand ?? api.link(jobId);
  };
  const { beforeInstall: check, recheckTarget } = install;
  const job: InstallingJob = { jobId, target: opts.target, basePath: opts.basePath };
  await recheckTarget?.();
  return downloadBundle({
    getBundle,
    target: opts.target,
    force: install.force,
    link: Boolean(install.link),
    keep: install.keep,
    maxBytes: install.maxBytes,
    release: jobId,
    archivePath: install.archivePath,
    dispatcher: await opts.dispatcher(),
    clock: opts.clock,
    random: opts.random,
    signal: opts.signal,
    reporter: opts.reporter,
    onProgress: opts.onProgress,
    debug: opts.debug,
    beforeInstall:
      check || recheckTarget
        ? async (tree) => {
            await check?.(tree, job);
            await recheckTarget?.();
          }
        : undefined,
  });
}

export interface ExportWaitSettings {
  intervalMs: number;
  timeoutMs: number;
  /** Every look at the job (the default follow's). */
  onJob?: (job: AnyExportJob, elapsedMs: number) => void;
  /**
   * The face's own way of following the job to completed (the CLI's live bar and resume hints); it
   * must throw unless the job completed. Default: waitForExportJob with the settings above.
   */
  follow?: (api: FlowApi, jobId: string) => Promise<AnyExportJob>;
}

export interface RunStaticExport extends InstallDeps {
  /** The flows, resolved once the target has passed its checks. */
  flows: () => Promise<FlowSetup> | FlowSetup;
  input: StartInput;
  wait: ExportWaitSettings;
  install: InstallSettings;
  /** Told once the export has started. */
  onStarted?: (job: AnyExportJob, flow: ExportFlow) => void;
}

export interface StaticExportRun extends DownloadResult {
  flow: ExportFlow;
  /** The completed job. */
  job: AnyExportJob;
}

/** target checked -> started on the chosen flow -> followed to completed -> downloaded and installed. */
export async function runStaticExport(opts: RunStaticExport): Promise<StaticExportRun> {
  const target = await checkInstallTarget(opts.install);
  const { api, job: started } = await startOnFlow(opts.input, await opts.flows());
  opts.onStarted?.(started, api.flow);
  const { wait } = opts;
  const job = wait.follow
    ? await wait.follow(api, started.jobId)
    : await waitForExportJob({
        jobId: started.jobId,
        fetch: api.get,
        intervalMs: wait.intervalMs,
        timeoutMs: wait.timeoutMs,
        clock: opts.clock,
        random: opts.random,
        signal: opts.signal,
        onJob: wait.onJob,
      });
  // The base path reaches the export only on the project flow, so only there is the site built under it.
  const basePath = api.flow === 'project' ? opts.input.basePath : undefined;
  const result = await installExport({ ...opts, api, jobId: job.jobId, target, first: api.linkIn(job), basePath });
  return { flow: api.flow, job, ...result };
}
