// The two static export flows behind one face (cli.md, "Static export flows"): the spec's jobs flow
// (POST /v1/static-export/jobs {domain}, GET .../jobs/{id}, POST .../jobs/{id}/bundle for a link) and
// the project-scoped flow (POST /v1/static-export/{projectId}/jobs {basePath?}, GET .../jobs/{id}, the
// completed job carrying its own link). Commands speak to a FlowApi and never ask which one it is,
// except to say so once on stderr.
import type { ApiClient } from '../../api/client.js';
import type { AnyExportJob, BasePath, Bundle, ProjectExportJob, StartExportRequest } from '../../api/types.js';
import { ApiError, JobFailedError, RateLimitError, UsageError } from '../../errors.js';
import { checkServerId } from '../../ids.js';
import { exportApi, explainExportError, NotFinishedError, waitCommand, type HintFlags } from './api.js';
import type { ExportFlow } from './flow-cache.js';

/** What `export start|run` was given; each flow sends the part it understands. */
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

type Client = Pick<ApiClient, 'startExport' | 'getExport' | 'createBundle' | 'startProjectExport' | 'getProjectExport'>;

export const START_ROUTES: Record<ExportFlow, string> = {
  jobs: 'POST /v1/static-export/jobs',
  project: 'POST /v1/static-export/{projectId}/jobs',
};

/** `hints`: the flags a command printed in a message repeats (the run's --project, --base-url, ...). */
export function jobsFlowApi(client: Client, hints: HintFlags = {}): FlowApi {
  const api = exportApi(client, hints);
  return {
    flow: 'jobs',
    startRoute: START_ROUTES.jobs,
    start: (input) => {
      if (input.domain === undefined) throw new UsageError('the jobs flow needs the deployment\'s domain: give it, e.g. `mint-admin export start docs.example.com`');
      const req: StartExportRequest = { domain: input.domain };
      if (input.version !== undefined) req.version = input.version;
      if (input.paths !== undefined) req.paths = input.paths;
      return api.start(req);
    },
    get: api.get,
    link: api.bundle,
    linkIn: () => undefined,
  };
}

export function projectFlowApi(client: Client, projectId: string, hints: HintFlags = {}): FlowApi {
  const get = async (jobId: string, signal?: AbortSignal): Promise<ProjectExportJob> => {
    try {
      // A poll (signal given) tries once: the wait loop sits out transient failures with one note each.
      const job = await client.getProjectExport(projectId, jobId, signal && { signal, once: true });
      checkServerId('export job id', job.jobId);
      return job;
    } catch (error) {
      throw explainExportError(error, jobId, hints);
    }
  };
  return {
    flow: 'project',
    startRoute: START_ROUTES.project,
    async start(input) {
      let job: ProjectExportJob;
      try {
        job = await client.startProjectExport(projectId, input.basePath === undefined ? {} : { basePath: input.basePath });
      } catch (error) {
        throw explainProjectStartError(error, hints);
      }
      checkServerId('export job id', job.jobId, 'the export was started: see it in the Mintlify dashboard');
      return job;
    },
    get,
    async link(jobId) {
      const job = await get(jobId);
      const bundle = bundleOf(job);
      if (bundle) return bundle;
      if (job.status === 'failed') throw new JobFailedError(`export ${jobId} failed: ${job.error ?? 'the API gave no reason'}`);
      // The same meaning as the jobs flow's 409 on POST bundle, so download and run treat both alike.
      throw new NotFinishedError(jobId, job.status, undefined, hints);
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
  const missing = [bundleUrl === undefined && 'bundleUrl', sizeBytes === undefined && 'sizeBytes', expiresAt === undefined && 'expiresAt'].filter(Boolean);
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
function explainProjectStartError(error: unknown, hints: HintFlags): unknown {
  if (error instanceof ApiError && !(error instanceof RateLimitError) && error.status === 409) {
    const said = error.serverMessage ? `: ${error.serverMessage}` : '';
    const named = error.serverMessage ? NAMED_JOB.exec(error.serverMessage)?.[1] : undefined;
    const next = named
      ? `follow it with \`${waitCommand(named, hints)}\` and start again once it has finished`
      : 'wait for it to finish (see the Mintlify dashboard), then start again';
    return new ApiError(`an export of this deployment is already running (409${said}); ${next}`, 409, {
      serverMessage: error.serverMessage,
    });
  }
  return explainExportError(error, undefined, hints);
}
