// The export engine's errors in the CLI's words: the engine says what went wrong (export-flows/errors.ts),
// and here each gets the command to run next, repeating the flags of this run that reach the same API,
// project and flow.
import type { ApiClient } from '../../../api/client.js';
import type { Bundle, ExportJob, StartExportRequest } from '../../../api/types.js';
import type { GlobalOptions } from '../../../config/settings.js';
import { forPeople } from '../../cli-errors.js';
import {
  ExportAlreadyRunningError,
  ExportJobNotFoundError,
  ExportMayHaveStartedError,
  NotFinishedError,
} from '../../../export-flows/errors.js';
import { jobsFlowApi, type FlowApi } from '../../../export-flows/flow-api.js';
import { repeatedFlags, shellCommand } from '../../shell.js';

export { isNotFinished, NotFinishedError } from '../../../export-flows/errors.js';

export interface ExportApi {
  start(req: StartExportRequest): Promise<ExportJob>;
  get(jobId: string, signal?: AbortSignal): Promise<ExportJob>;
  bundle(jobId: string): Promise<Bundle>;
}

/** The jobs flow's three calls with the CLI's wording; `hints`: the global flags messages repeat (see hintFlagArgs). */
export function exportApi(
  client: Pick<ApiClient, 'startExport' | 'getExport' | 'createBundle'>,
  hints: HintFlags = {},
): ExportApi {
  const api = wordFlowApi(jobsFlowApi(client), hints);
  return {
    start: (req) => api.start(req) as Promise<ExportJob>,
    get: (jobId, signal) => api.get(jobId, signal) as Promise<ExportJob>,
    bundle: api.link,
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

/** A FlowApi whose errors say what to run next. */
export function wordFlowApi(api: FlowApi, hints: HintFlags): FlowApi {
  const worded = <T>(call: Promise<T>): Promise<T> =>
    call.catch((error: unknown) => {
      throw wordExportError(error, hints);
    });
  return {
    flow: api.flow,
    startRoute: api.startRoute,
    start: (input) => worded(api.start(input)),
    get: (jobId, signal) => worded(api.get(jobId, signal)),
    link: (jobId) => worded(api.link(jobId)),
    linkIn: (job) => api.linkIn(job),
  };
}

export function wordExportError(error: unknown, hints: HintFlags = {}): unknown {
  // The unreadable answer in the CLI's words (with its advice), then what to do about the start.
  if (error instanceof ExportMayHaveStartedError)
    return new ExportMayHaveStartedError(error.unreadable, {
      unreadableSaid: forPeople(error.unreadable),
      nextStepSaid: true,
    });
  if (error instanceof ExportJobNotFoundError) {
    return new ExportJobNotFoundError(
      error.jobId,
      error.serverMessage,
      error.details,
      'check the job id that `mint-admin export start` printed',
    );
  }
  if (error instanceof NotFinishedError) {
    return new NotFinishedError(
      error.jobId,
      error.reason,
      error.serverMessage,
      `wait with \`${waitCommand(error.jobId, hints)}\``,
    );
  }
  if (error instanceof ExportAlreadyRunningError) {
    const named = error.runningJobId;
    const next = named
      ? `follow it with \`${waitCommand(named, hints)}\` and start again once it has finished`
      : 'wait for it to finish (see the Mintlify dashboard), then start again';
    return new ExportAlreadyRunningError(named, error.serverMessage, next);
  }
  return error;
}
