// Both static export flows for scripts, with the CLI's rules (export-flows/): the same auto choice
// (a domain -> the jobs flow, none -> the project flow, a 404 on the start route -> the other flow
// once, remembered), a flow forced, and the wait (deadline, backoff on transient errors, a status this
// version does not know ends it, `failed` is a JobFailedError). The flow memory is per client and in
// memory unless a store is handed in (fileFlowStore shares the CLI's export-flows.json).
import type { CallOptions } from '../api/client.js';
import { BASE_PATHS, type AnyExportJob } from '../api/types.js';
import { checkProjectId } from '../config/validators.js';
import { UsageError } from '../errors.js';
import {
  onJobFlow,
  startOnFlow,
  type ExportFlowSetting,
  type FlowReason,
  type FlowSetup,
} from '../export-flows/choose.js';
import { normaliseDomain } from '../export-flows/domain.js';
import { flowApiFor, type FlowApi, type StartInput } from '../export-flows/flow-api.js';
import { memoryFlowStore, type ExportFlow, type FlowStore } from '../export-flows/flow-store.js';
import { waitForExportJob } from '../export-flows/wait.js';
import { checkExactId } from '../ids.js';
import { exportWaitPacing } from './export-wait.js';
import { settingsOf } from './client-settings.js';
import type { AdminClient } from './client.js';

export type { ExportFlowSetting, FlowReason, StartInput };

export interface ExportFlowOptions extends CallOptions {
  /** `auto` (default) chooses as the CLI does; `jobs` or `project` forces a flow. */
  flow?: ExportFlowSetting;
  /** The project: the project flow's routes carry it (without it, only the jobs flow is asked). */
  projectId?: string;
  /** The flow memory (default: one in memory per client). fileFlowStore(dir) keeps it on disk. */
  store?: FlowStore;
  /** Told which flow answered, and why. */
  onFlow?: (flow: ExportFlow, reason: FlowReason) => void;
}

export interface StaticExportStarted {
  flow: ExportFlow;
  job: AnyExportJob;
}

export interface StaticExportWaitOptions extends ExportFlowOptions {
  /** Give up after this long (default 30 minutes) with a WaitTimeoutError; the job keeps running. */
  timeoutMs?: number;
  /** First pause between looks (default 2 s); it grows toward 30 s. */
  intervalMs?: number;
  /** Every look at the job. */
  onProgress?: (job: AnyExportJob) => void;
}

const defaultStores = new WeakMap<AdminClient, FlowStore>();

/** What the engine needs, from the client and the options; every option is checked before anything is sent. */
export function flowSetup(client: AdminClient, options: ExportFlowOptions): FlowSetup {
  const setting = options.flow ?? 'auto';
  if (setting !== 'auto' && setting !== 'jobs' && setting !== 'project')
    throw new UsageError(`flow: ${JSON.stringify(setting)} is not auto, jobs or project`);
  const projectId = options.projectId === undefined ? undefined : checkProjectId(options.projectId, 'projectId');
  let store = options.store ?? defaultStores.get(client);
  if (!store) defaultStores.set(client, (store = memoryFlowStore()));
  const call: CallOptions = {};
  if (options.signal) call.signal = options.signal;
  return {
    setting,
    baseUrl: settingsOf(client).baseUrl,
    projectId,
    store,
    api: async (flow): Promise<FlowApi> => flowApiFor(client, flow, projectId, call),
    onChosen: (api, reason) => options.onFlow?.(api.flow, reason),
  };
}

/**
 * Starts a static export: on the jobs flow with a domain, on the project flow without one (given the
 * projectId), or on `options.flow`. A 404 on the start route tries the other flow once and remembers it.
 */
export async function startStaticExport(
  client: AdminClient,
  input: StartInput,
  options: ExportFlowOptions = {},
): Promise<StaticExportStarted> {
  const flows = flowSetup(client, options);
  const { api, job } = await startOnFlow(checkStartInput(input), flows);
  return { flow: api.flow, job };
}

/** Waits for an export on its flow (settled by the first look) until it completes; `failed` throws JobFailedError. */
export async function waitForStaticExport(
  client: AdminClient,
  jobId: string,
  options: StaticExportWaitOptions = {},
): Promise<AnyExportJob> {
  const id = checkExactId('export job id', jobId, 'the jobId a start returned');
  const { timeoutMs, intervalMs } = exportWaitPacing(options);
  const flows = flowSetup(client, options);
  const { clock, random } = settingsOf(client);
  // The first look settles the flow (and is cut off at the deadline like every poll); later looks go
  // straight to the flow that answered.
  let settled: FlowApi | undefined;
  const fetch = async (job: string, signal?: AbortSignal): Promise<AnyExportJob> => {
    if (settled) return settled.get(job, signal);
    const { api, value } = await onJobFlow(job, flows, (flow) => flow.get(job, signal));
    settled = api;
    return value;
  };
  return waitForExportJob({
    jobId: id,
    fetch,
    intervalMs,
    timeoutMs,
    clock,
    random,
    signal: options.signal,
    onJob: (job) => options.onProgress?.(job),
  });
}

/** The library's checks of a start input, in its own words (the CLI checks its flags itself). */
export function checkStartInput(input: StartInput): StartInput {
  const checked: StartInput = {};
  if (input.domain !== undefined) checked.domain = normaliseDomain(String(input.domain), 'paths').hostname;
  if (input.version !== undefined) {
    if (typeof input.version !== 'string' || input.version.trim() === '')
      throw new UsageError('version: give a version label, e.g. 2024-06-01');
    checked.version = input.version;
  }
  if (input.paths !== undefined) {
    if (!Array.isArray(input.paths) || input.paths.some((p) => typeof p !== 'string' || p.trim() === ''))
      throw new UsageError('paths: page paths must be non-empty strings, e.g. ["index"]');
    checked.paths = input.paths;
  }
  if (input.basePath !== undefined) {
    if (!(BASE_PATHS as readonly unknown[]).includes(input.basePath))
      throw new UsageError(`basePath: ${JSON.stringify(input.basePath)} is not '', '/docs' or '/documentation'`);
    checked.basePath = input.basePath;
  }
  return checked;
}
