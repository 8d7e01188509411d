// Which static export flow a call uses (cli.md, "Static export flows"). A setting forces one; `auto`
// (the default) picks:
// - to start: the project flow without a domain and the jobs flow with one, unless a 404 taught
//   otherwise for this base URL. A 404 on the start collection route means the route does not exist
//   there: the other flow is tried once (when it has what it needs: a project id, or a domain), and
//   what worked is remembered in the FlowStore the caller hands in, so the next start goes straight there.
// - for a job id: the flow remembered for that job, else its shape (24 hex characters is how the project
//   flow names jobs), and a 404 on it tries the other flow once the same way.
// The caller is told which flow answered and why (the CLI says it in one stderr line, so a CI log shows it).
import type { AnyExportJob } from '../api/types.js';
import {
  FlowInputMismatchError,
  FlowNeedsDomainError,
  FlowNeedsProjectError,
  isNotFound,
  otherFlow,
  type FlowField,
} from './errors.js';
import type { FlowApi, StartInput } from './flow-api.js';
import type { ExportFlow, FlowStore } from './flow-store.js';

export type ExportFlowSetting = 'auto' | ExportFlow;

const PROJECT_JOB_ID = /^[0-9a-f]{24}$/;

/** Why a flow answered: data for the face to word. */
export type FlowReason =
  | { by: 'setting' }
  | { by: 'memory' }
  | { by: 'domain'; domain: boolean }
  | { by: 'fallback'; tried: ExportFlow }
  | { by: 'job-memory' }
  | { by: 'job-shape' }
  | { by: 'job-fallback'; tried: ExportFlow };

/** What the flows need, resolved once per call by the face. */
export interface FlowSetup {
  setting: ExportFlowSetting;
  /** The API's base URL without a trailing slash: the key of the flow memory. */
  baseUrl: string;
  /** The project id when one was given; the project flow cannot be asked without one. */
  projectId: string | undefined;
  store: FlowStore;
  /** The FlowApi of a flow (the face may word its errors); a forced project flow without a project id throws here. */
  api(flow: ExportFlow): Promise<FlowApi>;
  /** Told once the flow has answered. */
  onChosen?(api: FlowApi, reason: FlowReason): void;
}

// ---- starting -------------------------------------------------------------------------------------

export interface Started {
  api: FlowApi;
  job: AnyExportJob;
}

/** Starts an export on the chosen flow, falling back once on a 404 of the start route under `auto`. */
export async function startOnFlow(input: StartInput, flows: FlowSetup): Promise<Started> {
  if (flows.setting !== 'auto') {
    const flow = flows.setting;
    const foreign = foreignFields(flow, input);
    if (foreign.length > 0) throw new FlowInputMismatchError(flow, foreign, 'setting');
    if (flow === 'jobs' && input.domain === undefined) throw new FlowNeedsDomainError();
    const api = await flows.api(flow);
    const job = await api.start(input);
    flows.onChosen?.(api, { by: 'setting' });
    // A forced flow teaches auto nothing about the API; the job's flow is still worth keeping.
    await flows.store.remember(flows.baseUrl, { jobId: job.jobId, jobFlow: flow });
    return { api, job };
  }

  const remembered = await flows.store.startFlow(flows.baseUrl);
  const usable = (flow: ExportFlow) => (flow === 'jobs' ? input.domain !== undefined : flows.projectId !== undefined);
  const byDomain: ExportFlow = input.domain === undefined ? 'project' : 'jobs';
  let flow: ExportFlow = remembered ?? byDomain;
  if (!usable(flow)) flow = otherFlow(flow);
  // Decided before anything is sent: a field this flow cannot honour would be dropped in silence.
  const foreign = foreignFields(flow, input);
  if (foreign.length > 0) throw new FlowInputMismatchError(flow, foreign, remembered === flow ? 'memory' : 'domain');
  // No domain and no project id: neither flow can be asked.
  if (!usable(flow)) throw new FlowNeedsProjectError();
  let reason: FlowReason =
    remembered === flow ? { by: 'memory' } : { by: 'domain', domain: input.domain !== undefined };
  let api = await flows.api(flow);
  let job: AnyExportJob;
  try {
    job = await api.start(input);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    const next = otherFlow(flow);
    const tried = { flow, startRoute: api.startRoute, serverMessage: error.serverMessage };
    if (!usable(next)) throw next === 'jobs' ? new FlowNeedsDomainError(tried) : new FlowNeedsProjectError(tried);
    const unhonoured = foreignFields(next, input);
    if (unhonoured.length > 0) throw new FlowInputMismatchError(next, unhonoured, 'fallback', tried);
    api = await flows.api(next);
    reason = { by: 'fallback', tried: flow };
    job = await api.start(input);
  }
  flows.onChosen?.(api, reason);
  // The start flow is remembered once it departs from the domain rule (a 404 taught it), and kept up
  // to date from then on; the job's flow always, for status, bundle and download.
  const learned = api.flow !== byDomain || remembered !== undefined;
  await flows.store.remember(flows.baseUrl, {
    ...(learned ? { startFlow: api.flow } : {}),
    jobId: job.jobId,
    jobFlow: api.flow,
  });
  return { api, job };
}

/** The fields of `input` that `flow` would leave out. */
export function foreignFields(flow: ExportFlow, input: StartInput): FlowField[] {
  if (flow === 'jobs') return input.basePath === undefined ? [] : ['basePath'];
  return [input.version !== undefined && 'version', input.paths !== undefined && 'paths'].filter((f): f is FlowField =>
    Boolean(f),
  );
}

// ---- an existing job ------------------------------------------------------------------------------

export interface OnJobFlow<T> {
  api: FlowApi;
  value: T;
}

/**
 * Runs `op` (a GET, or asking for a link) on the flow of `jobId`, falling back once on a 404 under
 * `auto`. The flow that answered is remembered for the job, and the returned api is the one to keep
 * using (polls, link refreshes).
 */
export async function onJobFlow<T>(
  jobId: string,
  flows: FlowSetup,
  op: (api: FlowApi) => Promise<T>,
): Promise<OnJobFlow<T>> {
  if (flows.setting !== 'auto') {
    const api = await flows.api(flows.setting);
    const value = await op(api);
    flows.onChosen?.(api, { by: 'setting' });
    return { api, value };
  }
  const remembered = await flows.store.jobFlow(flows.baseUrl, jobId);
  let flow: ExportFlow = remembered ?? (PROJECT_JOB_ID.test(jobId) ? 'project' : 'jobs');
  // Only a guess from the id's shape gives way to a missing project id; a remembered project job needs one.
  if (flow === 'project' && flows.projectId === undefined && remembered !== 'project') flow = 'jobs';
  let reason: FlowReason = remembered ? { by: 'job-memory' } : { by: 'job-shape' };
  let api = await flows.api(flow);
  let value: T;
  try {
    value = await op(api);
  } catch (error) {
    const next = otherFlow(flow);
    if (!isNotFound(error) || (next === 'project' && flows.projectId === undefined)) throw error;
    api = await flows.api(next);
    reason = { by: 'job-fallback', tried: flow };
    value = await op(api);
  }
  flows.onChosen?.(api, reason);
  // Only a surprise is worth a write: a job the id's shape (or the memory) placed on the wrong flow.
  if (api.flow !== flow) await flows.store.remember(flows.baseUrl, { jobId, jobFlow: api.flow });
  return { api, value };
}
