// The three static export calls, with the answers that mean something specific for exports turned into
// messages that say what to do: a 403 is the plan, a 404 is the job id, a 409 is "not finished yet".
import type { ApiClient } from '../../api/client.js';
import type { Bundle, ExportJob, StartExportRequest } from '../../api/types.js';
import { ApiError, RateLimitError } from '../../errors.js';
import { checkServerId } from '../../ids.js';
import { shellCommand } from '../../shell.js';

export interface ExportApi {
  start(req: StartExportRequest): Promise<ExportJob>;
  get(jobId: string, signal?: AbortSignal): Promise<ExportJob>;
  bundle(jobId: string): Promise<Bundle>;
}

export function exportApi(client: Pick<ApiClient, 'startExport' | 'getExport' | 'createBundle'>): ExportApi {
  return {
    // A job id from the server goes into URLs and printed commands: only a plain token is used.
    start: async (req) => plainId(await explained(client.startExport(req)), 'the export was started: see it in the Mintlify dashboard'),
    // A poll (signal given) tries once: the wait loop sits out transient failures with one note each.
    get: async (jobId, signal) => plainId(await explained(client.getExport(jobId, signal && { signal, once: true }), jobId)),
    bundle: (jobId) => explained(client.createBundle(jobId), jobId),
  };
}

/** How to wait for a job, in every message that tells the user to. */
export const waitCommand = (jobId: string) => shellCommand(['mint-admin', 'export', 'status', jobId, '--wait']);

function plainId(job: ExportJob, after?: string): ExportJob {
  checkServerId('export job id', job.jobId, after);
  return job;
}

/** The bundle POST's 409: the job has not completed, so there is nothing to package yet. */
export function isNotFinished(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 409;
}

async function explained<T>(call: Promise<T>, jobId?: string): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw explainExportError(error, jobId);
  }
}

export function explainExportError(error: unknown, jobId?: string): unknown {
  if (!(error instanceof ApiError) || error instanceof RateLimitError) return error;
  if (error.status < 300 && jobId === undefined) {
    // The start was accepted (2xx) but its answer is unreadable, so there is no job id to follow.
    return new ApiError(
      `${error.message}; the export may have started anyway: look for it in the Mintlify dashboard before starting another`,
      error.status,
      { exitCode: error.exitCode },
    );
  }
  const said = error.serverMessage ? `: ${error.serverMessage}` : '';
  const opts = { serverMessage: error.serverMessage, details: error.details };
  if (error.status === 403) {
    return new ApiError(
      `static export needs an Enterprise plan (403${said}); ask Mintlify to enable it for your organization, or check that the admin key belongs to it`,
      403,
      opts,
    );
  }
  if (error.status === 404 && jobId !== undefined) {
    return new ApiError(`no static export job ${jobId} (404${said}); check the job id that \`mint-admin export start\` printed`, 404, opts);
  }
  if (error.status === 409 && jobId !== undefined) {
    return new ApiError(`job ${jobId} not finished yet (409${said}); wait with \`${waitCommand(jobId)}\``, 409, opts);
  }
  return error;
}
