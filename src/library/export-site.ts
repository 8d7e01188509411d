// exportStaticSite for scripts: `mint-admin export run` without the terminal, on either flow. The
// engine is the CLI's (export-flows/run.ts): the target checked before the export is started, the flow
// chosen as the CLI chooses, the wait's rules, the completed job's own link used where the project flow
// gives one, a fresh one whenever a link has expired, and src/download's guarantees (nothing partial
// at the target). Progress arrives as data in callbacks.
import type { AnyExportJob } from '../api/types.js';
import type { DownloadResult } from '../download/index.js';
import type { StartInput } from '../export-flows/flow-api.js';
import type { ExportFlow } from '../export-flows/flow-store.js';
import { runStaticExport } from '../export-flows/run.js';
import { exportWaitPacing } from './export-wait.js';
import { settingsOf } from './client-settings.js';
import type { AdminClient } from './client.js';
import { eventReporter, withDispatcher, type SiteInstallOptions } from './download.js';
import { checkStartInput, flowSetup, type ExportFlowOptions } from './export-flows.js';

export interface ExportStaticSiteOptions extends SiteInstallOptions, ExportFlowOptions {
  /** Give up waiting after this long (default 30 minutes) with a WaitTimeoutError; the job keeps running. */
  timeoutMs?: number;
  /** First pause between looks (default 2 s, at least 100 ms); it grows toward 30 s. */
  intervalMs?: number;
  /** Every look at the job while it runs. */
  onJob?: (job: AnyExportJob) => void;
}

export interface StaticSite extends DownloadResult {
  flow: ExportFlow;
  /** The completed job. */
  job: AnyExportJob;
}

/**
 * Starts a static export (on the jobs flow with a domain, on the project flow without one, or on
 * `options.flow`), waits for it and installs the site into `options.target`. Every input and the
 * target are checked before anything is sent.
 */
export async function exportStaticSite(
  client: AdminClient,
  input: StartInput,
  options: ExportStaticSiteOptions,
): Promise<StaticSite> {
  const checked = checkStartInput(input);
  const { timeoutMs, intervalMs } = exportWaitPacing(options);
  const flows = flowSetup(client, options);
  const { clock, random } = settingsOf(client);
  const signal = options.signal ?? new AbortController().signal;
  return withDispatcher(options.dispatcher, (dispatcher) =>
    runStaticExport({
      flows: () => flows,
      input: checked,
      wait: { intervalMs, timeoutMs, onJob: (job) => options.onJob?.(job) },
      install: {
        target: options.target,
        force: options.force ?? false,
        link: options.link,
        keep: options.keep,
        maxBytes: options.maxBytes,
        archivePath: options.archivePath,
      },
      dispatcher: async () => dispatcher,
      clock,
      random,
      signal,
      reporter: eventReporter(options.onEvent),
      onProgress: options.onProgress,
      debug: () => undefined,
    }),
  );
}
