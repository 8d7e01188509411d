// The three static export calls, with the answers that mean something specific for exports turned into
// messages that say what to do: a 403 is the plan, a 404 is the job id, a 409 is "not finished yet".
import type { ApiClient } from '../../api/client.js';
import type { Bundle, ExportJob, StartExportRequest } from '../../api/types.js';
import type { GlobalOptions } from '../../config.js';
import { forPeople } from '../../cli-errors.js';
import { ApiError, RateLimitError, reworded } from '../../errors.js';
import { checkServerId } from '../../ids.js';
import { repeatedFlags, shellCommand } from '../../shell.js';

export interface ExportApi {
  start(req: StartExportRequest): Promise<ExportJob>;
  get(jobId: string, signal?: AbortSignal): Promise<ExportJob>;
  bundle(jobId: string): Promise<Bundle>;
}

/** `hints`: the global flags the commands printed in messages repeat (see hintFlagArgs). */
export function exportApi(client: Pick<ApiClient, 'startExport' | 'getExport' | 'createBundle'>, hints: HintFlags = {}): ExportApi {
  return {
    // A job id from the server goes into URLs and printed commands: only a plain token is used.
    start: async (req) => plainId(await explained(client.startExport(req), undefined, hints), 'the export was started: see it in the Mintlify dashboard'),
    // A poll (signal given) tries once: the wait loop sits out transient failures with one note each.
    get: async (jobId, signal) => plainId(await explained(client.getExport(jobId, signal && { signal, once: true }), jobId, hints)),
    bundle: (jobId) => explained(client.createBundle(jobId), jobId, hints),
  };
}

/** The flags of this run that a printed command must repeat to reach the same API, project and flow. */
export type HintFlags = Pick<GlobalOptions, 'project' | 'profile' | 'baseUrl' | 'exportApi'>;

/**
 * --project, --profile, --base-url and --export-api as given on this command line (env and config
 * reach the pasted command by themselves). The project matters most on the project flow, whose routes
 * carry it; a forced flow is forced again; under auto the job's flow is remembered for it.
 */
export function hintFlagArgs(globals: HintFlags): string[] {
  return repeatedFlags(globals, ['project', 'profile', 'baseUrl', 'exportApi']);
}

/** How to wait for a job, in every message that tells the user to. */
export const waitCommand = (jobId: string, globals: HintFlags = {}) =>
  shellCommand(['mint-admin', 'export', 'status', jobId, '--wait', ...hintFlagArgs(globals)]);

function plainId(job: ExportJob, after?: string): ExportJob {
  checkServerId('export job id', job.jobId, after);
  return job;
}

/**
 * A job that has not completed, so there is no archive yet: the jobs flow's 409 on POST bundle, or a
 * project-flow job whose GET shows it still queued or running. `reason` says which, for messages.
 */
export class NotFinishedError extends ApiError {
  constructor(
    readonly jobId: string,
    readonly reason: string,
    serverMessage?: string,
    hints: HintFlags = {},
  ) {
    super(`job ${jobId} not finished yet (${reason}); wait with \`${waitCommand(jobId, hints)}\``, 409, { serverMessage });
  }
}

export function isNotFinished(error: unknown): error is NotFinishedError {
  return error instanceof NotFinishedError;
}

async function explained<T>(call: Promise<T>, jobId: string | undefined, hints: HintFlags): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw explainExportError(error, jobId, hints);
  }
}

export function explainExportError(error: unknown, jobId?: string, hints: HintFlags = {}): unknown {
  if (!(error instanceof ApiError) || error instanceof RateLimitError) return error;
  if (error.status < 300 && jobId === undefined) {
    // The start was accepted (2xx) but its answer is unreadable, so there is no job id to follow.
    return reworded(error, `${forPeople(error)}; the export may have started anyway: look for it in the Mintlify dashboard before starting another`);
  }
  const said = error.serverMessage ? `: ${error.serverMessage}` : '';
  if (error.status === 403) {
    return reworded(
      error,
      `static export needs an Enterprise plan (403${said}); ask Mintlify to enable it for your organization, or check that the admin key belongs to it`,
    );
  }
  if (error.status === 404 && jobId !== undefined) {
    return reworded(error, `no static export job ${jobId} (404${said}); check the job id that \`mint-admin export start\` printed`);
  }
  if (error.status === 409 && jobId !== undefined) {
    return new NotFinishedError(jobId, `409${said}`, error.serverMessage, hints);
  }
  return error;
}
