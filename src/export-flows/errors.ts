// What can go wrong on the export flows, as errors a program can act on: each carries its data (the
// job, the flow, the status, the fields) and a message without any face's advice. The CLI words
// them for people (src/cli/commands/export/api.ts and flow.ts): which flag to drop, which command to run next.
import {
  answerOf,
  ApiError,
  ConfigError,
  type FailureOptions,
  MintAdminError,
  RateLimitError,
  UsageError,
} from '../errors.js';
import type { ExportFlow } from './flow-store.js';

/** A start input that belongs to one flow only: `basePath` to the project flow, `version` and `paths` to the jobs flow. */
export type FlowField = 'basePath' | 'version' | 'paths';

/** What the engine had tried when it gave up: the flow whose start route answered 404. */
export interface TriedStart {
  flow: ExportFlow;
  startRoute: string;
  serverMessage: string | undefined;
}

/**
 * A job that has not completed, so there is no archive yet: the jobs flow's 409 on POST bundle, or a
 * project-flow job whose GET shows it still queued or running. `reason` says which.
 */
export class NotFinishedError extends ApiError {
  constructor(
    readonly jobId: string,
    readonly reason: string,
    serverMessage?: string,
    /** What to do about it, in the words of whoever shows the message. */
    advice?: string,
  ) {
    super(`job ${jobId} not finished yet (${reason})${advice ? `; ${advice}` : ''}`, 409, { serverMessage });
  }
}

export function isNotFinished(error: unknown): error is NotFinishedError {
  return error instanceof NotFinishedError;
}

/** A 404 on a job's own route: no such job on that flow (or for that project). */
export class ExportJobNotFoundError extends ApiError {
  constructor(
    readonly jobId: string,
    serverMessage: string | undefined,
    details: string[],
    advice?: string,
  ) {
    super(
      `no static export job ${jobId} (404${serverMessage ? `: ${serverMessage}` : ''})${advice ? `; ${advice}` : ''}`,
      404,
      { serverMessage, details },
    );
  }
}

/** The project flow's 409 on start: another export of the deployment is queued or running. */
export class ExportAlreadyRunningError extends ApiError {
  constructor(
    /** The running job, when the server's message names it. */
    readonly runningJobId: string | undefined,
    serverMessage: string | undefined,
    advice?: string,
  ) {
    const said = serverMessage ? `: ${serverMessage}` : '';
    super(
      `an export of this deployment is already running (409${said}); ${advice ?? 'wait for it to finish, then start again'}`,
      409,
      { serverMessage },
    );
  }
}

/** A wait met a status the documents do not list: it cannot tell whether the job will ever finish. */
export class UnknownExportStatusError extends MintAdminError {
  constructor(
    readonly jobId: string,
    readonly status: string,
  ) {
    super(
      `stopped waiting: export ${jobId} reports a status this version does not know (${JSON.stringify(status.slice(0, 40))})`,
    );
  }
}

/** How a flow came to be chosen when its input did not fit it. */
export type ChosenBy = 'setting' | 'memory' | 'domain' | 'fallback';

/** Input the chosen flow cannot honour: sending it anyway would export something else. Nothing was sent, or only the 404 in `tried`. */
export class FlowInputMismatchError extends UsageError {
  constructor(
    readonly flow: ExportFlow,
    readonly fields: FlowField[],
    readonly chosenBy: ChosenBy,
    readonly tried?: TriedStart,
  ) {
    super(
      `${fields.join(' and ')} ${fields.length === 1 ? 'belongs' : 'belong'} to the ${otherFlow(flow)} flow, but the ${flow} flow is used (${chosenByText(chosenBy, tried)}); leave ${fields.length === 1 ? 'it' : 'them'} out or use the ${otherFlow(flow)} flow`,
    );
  }
}

/** The jobs flow is needed (forced, or the project flow's start route is missing) but no domain was given. */
export class FlowNeedsDomainError extends UsageError {
  constructor(readonly tried?: TriedStart) {
    super(`${triedText(tried)}the jobs flow needs the deployment's domain`);
  }
}

/** The project flow is needed (no domain, or the jobs flow's start route is missing) but no project id was given. */
export class FlowNeedsProjectError extends ConfigError {
  constructor(readonly tried?: TriedStart) {
    super(
      `${triedText(tried)}the project flow needs a project id${tried ? '' : " (or give the deployment's domain for the jobs flow)"}`,
    );
  }
}

export const otherFlow = (flow: ExportFlow): ExportFlow => (flow === 'jobs' ? 'project' : 'jobs');

function triedText(tried: TriedStart | undefined): string {
  return tried
    ? `this API has no ${tried.flow}-flow export route (${tried.startRoute} answered 404${tried.serverMessage ? `: ${tried.serverMessage}` : ''}); `
    : '';
}

function chosenByText(by: ChosenBy, tried: TriedStart | undefined): string {
  if (by === 'fallback') return `${tried?.startRoute ?? 'the other start route'} answered 404`;
  return {
    setting: 'it was forced',
    memory: 'it worked last time with this API',
    domain: 'chosen by whether a domain was given',
  }[by];
}

/** A 404 from the API itself (not a 404 we made up): the route or the job is not there. */
export function isNotFound(error: unknown): error is ApiError {
  return error instanceof ApiError && !(error instanceof RateLimitError) && error.status === 404;
}

/** What to do about a start whose 2xx answer is unreadable: the job may exist though no id came back. */
const LOOK_BEFORE_STARTING_AGAIN =
  'the export may have started anyway: look for it in the Mintlify dashboard before starting another';

/**
 * The API accepted a start (2xx) but its answer is unreadable, so there is no job id to follow and
 * the export may be running. `unreadable` is what was wrong with the answer.
 */
export class ExportMayHaveStartedError extends ApiError {
  constructor(
    readonly unreadable: ApiError,
    /** `unreadableSaid`: the unreadable answer in the words of the face that shows the message. */
    options: FailureOptions & { unreadableSaid?: string } = {},
  ) {
    super(
      `${options.unreadableSaid ?? unreadable.message}; ${LOOK_BEFORE_STARTING_AGAIN}`,
      unreadable.status,
      answerOf(unreadable),
      { cause: unreadable, ...options },
    );
  }
}

/** The start's 403: static export is not on the organization's plan (or the key is another organization's). */
export class ExportNotEnabledError extends ApiError {
  constructor(refused: ApiError) {
    const said = refused.serverMessage ? `: ${refused.serverMessage}` : '';
    super(
      `static export needs an Enterprise plan (403${said}); ask Mintlify to enable it for your organization, or check that the admin key belongs to it`,
      refused.status,
      answerOf(refused),
      { cause: refused },
    );
  }
}

/** The answers that mean something specific for exports: a 403 is the plan, a 404 is the job id, a 409 is "not finished yet". */
export function explainExportError(error: unknown, jobId?: string): unknown {
  if (!(error instanceof ApiError) || error instanceof RateLimitError) return error;
  // The start was accepted (2xx) but its answer is unreadable, so there is no job id to follow.
  if (error.status < 300 && jobId === undefined) return new ExportMayHaveStartedError(error);
  const said = error.serverMessage ? `: ${error.serverMessage}` : '';
  if (error.status === 403) return new ExportNotEnabledError(error);
  if (error.status === 404 && jobId !== undefined)
    return new ExportJobNotFoundError(jobId, error.serverMessage, error.details);
  if (error.status === 409 && jobId !== undefined)
    return new NotFinishedError(jobId, `409${said}`, error.serverMessage);
  return error;
}
