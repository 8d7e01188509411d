// The two static export flows behind one face (cli.md, "Static export flows"): the spec's jobs flow
// (POST /v1/static-export/jobs {domain}, GET .../jobs/{id}, POST .../jobs/{id}/bundle for a link) and
// the project-scoped flow (POST /v1/static-export/{projectId}/jobs {basePath?}, GET .../jobs/{id}, the
// completed job carrying its own link). Faces speak to a FlowApi and never ask which one it is,
// except to say so (the CLI, once on stderr).
import type { ApiClient, CallOptions } from '../api/client.js';
import type { AnyExportJob, BasePath, Bundle, ExportJob, ProjectExportJob, StartExportRequest } from '../api/types.js';
import { ApiError, JobFailedError, RateLimitError, UsageError } from '../errors.js';
import { checkServerId } from '../ids.js';
import { ExportAlreadyRunningError, explainExportError, FlowNeedsProjectError, NotFinishedError } from './errors.js';
import type { ExportFlow } from './flow-store.js';

/** What a start was given; each flow sends the part it understands. */
export interface StartInput {
  domain?: string;
  version?: string;
  paths?: string[];
  basePath?: BasePath;
}

export interface FlowApi {
  readonly flow: ExportFlow;
  /** The start route as the documents write it, for messages. */
  readonly startRoute: string;
  start(input: StartInput): Promise<AnyExportJob>;
  /** One look at a job; a poll passes its deadline signal and tries once (the wait loop retries). */
  get(jobId: string, signal?: AbortSignal): Promise<AnyExportJob>;
  /** A fresh link to a completed job's archive (jobs: POST bundle; project: GET the job). 409 = not finished. */
  link(jobId: string): Promise<Bundle>;
  /** The link a completed job already carries (project flow), so no further call is needed. */
  linkIn(job: AnyExportJob): Bundle | undefined;
}

export type FlowClient = Pick<
  ApiClient,
  'startExport' | 'getExport' | 'createBundle' | 'startProjectExport' | 'getProjectExport'
>;

export const START_ROUTES: Record<ExportFlow, string> = {
  jobs: 'POST /v1/static-export/jobs',
  project: 'POST /v1/static-export/{projectId}/jobs',
};

/** `call`: options for every call but a poll's (a caller's signal); a poll passes its own signal and tries once. */
function callFor(call: CallOptions | undefined, signal: AbortSignal | undefined): CallOptions | undefined {
  return signal ? { ...call, signal, once: true } : call;
}

/** A job id from the server goes into URLs and printed commands: only a plain token is used. */
function plainId<J extends { jobId: string }>(job: J, after?: string): J {
  checkServerId('export job id', job.jobId, after);
  return job;
}

async function explained<T>(call: Promise<T>, jobId: string | undefined): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw explainExportError(error, jobId);
  }
}

/** The FlowApi of either flow for one client: the project flow cannot be asked without a project id. */
export function flowApiFor(
  client: FlowClient,
  flow: ExportFlow,
  projectId: string | undefined,
  call?: CallOptions,
): FlowApi {
  if (flow === 'jobs') return jobsFlowApi(client, call);
  if (projectId === undefined) throw new FlowNeedsProjectError();
  return projectFlowApi(client, projectId, call);
}

export function jobsFlowApi(
  client: Pick<FlowClient, 'startExport' | 'getExport' | 'createBundle'>,
  call?: CallOptions,
): FlowApi {
  return {
    flow: 'jobs',
    startRoute: START_ROUTES.jobs,
    start: async (input) => {
      if (input.domain === undefined) throw new UsageError("the jobs flow needs the deployment's domain");
      const req: StartExportRequest = { domain: input.domain };
      if (input.version !== undefined) req.version = input.version;
      if (input.paths !== undefined) req.paths = input.paths;
      return plainId<ExportJob>(
        await explained(client.startExport(req, call), undefined),
        'the export was started: see it in the Mintlify dashboard',
      );
    },
    get: async (jobId, signal) =>
      plainId<ExportJob>(await explained(client.getExport(jobId, callFor(call, signal)), jobId)),
    link: (jobId) => explained(client.createBundle(jobId, call), jobId),
    linkIn: () => undefined,
  };
}

export function projectFlowApi(
  client: Pick<FlowClient, 'startProjectExport' | 'getProjectExport'>,
  projectId: string,
  call?: CallOptions,
): FlowApi {
  const get = async (jobId: string, signal?: AbortSignal): Promise<ProjectExportJob> =>
    plainId(await explained(client.getProjectExport(projectId, jobId, callFor(call, signal)), jobId));
  return {
    flow: 'project',
    startRoute: START_ROUTES.project,
    async start(input) {
      let job: ProjectExportJob;
      try {
        job = await client.startProjectExport(
          projectId,
          input.basePath === undefined ? {} : { basePath: input.basePath },
          call,
        );
      } catch (error) {
        throw explainProjectStartError(error);
      }
      return plainId(job, 'the export was started: see it in the Mintlify dashboard');
    },
    get,
    async link(jobId) {
      const job = await get(jobId);
      const bundle = bundleOf(job);
      if (bundle) return bundle;
      if (job.status === 'failed')
        throw new JobFailedError(`export ${jobId} failed: ${job.error ?? 'the API gave no reason'}`);
      // The same meaning as the jobs flow's 409 on POST bundle, so download and run treat both alike.
      throw new NotFinishedError(jobId, job.status);
    },
    linkIn: (job) => bundleOf(job as ProjectExportJob),
  };
}

/**
 * The link of a completed project-flow job. The document marks bundleUrl, sizeBytes and expiresAt as
 * present once the job is completed, so a completed job without them is an answer the CLI cannot use.
 */
function bundleOf(job: ProjectExportJob): Bundle | undefined {
  if (job.status !== 'completed') return undefined;
  const { bundleUrl, sizeBytes, expiresAt } = job;
  const missing = [
    bundleUrl === undefined && 'bundleUrl',
    sizeBytes === undefined && 'sizeBytes',
    expiresAt === undefined && 'expiresAt',
  ].filter(Boolean);
  if (bundleUrl === undefined || sizeBytes === undefined || expiresAt === undefined) {
    throw new ApiError(
      `unexpected answer from the API to GET /v1/static-export/{projectId}/jobs/{jobId}: job ${job.jobId} is completed but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`,
      200,
    );
  }
  return { jobId: job.jobId, bundleUrl, sizeBytes, expiresAt };
}

/** A job id named in a 409's words ("job 6520f3a1c9b1a20012ab34cd is running"), when it is a plain one. */
const NAMED_JOB = /\b([0-9a-f]{24}|se_[0-9a-f]{6,64})\b/i;

/** The project flow's start answers: 409 = another export of this deployment is queued or running. */
function explainProjectStartError(error: unknown): unknown {
  if (error instanceof ApiError && !(error instanceof RateLimitError) && error.status === 409) {
    const named = error.serverMessage ? NAMED_JOB.exec(error.serverMessage)?.[1] : undefined;
    return new ExportAlreadyRunningError(named, error.serverMessage);
  }
  return explainExportError(error, undefined);
}
